// The live pages' script: listen to the server's feed (server-sent events) and keep the
// page current. A game page appends each move as it is played; the other pages reload
// when their ladder changed. A feed that fell behind says `lagged`: the page reloads
// rather than showing a gap. Moves are written as text, never as markup.
(function () {
  'use strict';
  var body = document.body;
  var feed = body.getAttribute('data-feed');
  if (!feed || !window.EventSource) {
    return;
  }
  var reloading = null;
  function reloadSoon(ms) {
    if (reloading === null) {
      reloading = setTimeout(function () { location.reload(); }, ms);
    }
  }
  function parse(text) {
    try { return JSON.parse(text); } catch (e) { return null; }
  }
  var source = new EventSource(feed);
  if (body.getAttribute('data-live') !== 'game') {
    source.onmessage = function (message) {
      var event = parse(message.data);
      if (event) {
        reloadSoon(event.type === 'lagged' ? 0 : 2000);
      }
    };
    return;
  }
  var list = document.getElementById('moves');
  var count = document.getElementById('count');
  var title = document.title;
  function add(ply, text, ms) {
    if (typeof ply !== 'number' || list.querySelector('li[data-ply="' + ply + '"]')) {
      return;
    }
    var item = document.createElement('li');
    item.setAttribute('data-ply', String(ply));
    item.appendChild(document.createTextNode(ply + '. ' + text + ' '));
    var time = document.createElement('span');
    time.className = 'ms';
    time.textContent = ms + ' ms';
    item.appendChild(time);
    var before = null;
    for (var i = 0; i < list.children.length; i++) {
      if (Number(list.children[i].getAttribute('data-ply')) > ply) {
        before = list.children[i];
        break;
      }
    }
    list.insertBefore(item, before);
  }
  // The count and the title say how far the page is (`Game 7 · 12 moves, last D4`).
  function show() {
    count.textContent = String(list.children.length);
    var last = list.lastElementChild;
    if (last) {
      var words = last.firstChild.nodeValue;
      document.title = title + ' · ' + list.children.length + ' moves, last ' +
        words.slice(words.indexOf(' ') + 1).trim();
    }
  }
  // The board (where the page has one): fetched again after each move, one fetch at a
  // time, and once more if moves came during it. A board that cannot be rebuilt is
  // replaced by the server's note, never left showing an older position as the current.
  var board = document.getElementById('board');
  var boardNote = document.getElementById('board-note');
  var drawing = false;
  var stale = false;
  function redraw() {
    if (!board) {
      return;
    }
    if (drawing) {
      stale = true;
      return;
    }
    drawing = true;
    stale = false;
    fetch(board.getAttribute('data-src'))
      .then(function (answer) {
        return answer.text().then(function (text) { return [answer.ok, text]; });
      })
      .then(function (got) {
        board.innerHTML = got[0] ? got[1] : '';
        boardNote.textContent = got[0] ? '' : got[1];
      })
      .catch(function () {})
      .then(function () {
        drawing = false;
        if (stale) {
          redraw();
        }
      });
  }
  // On each (re)connection: the moves played while the feed was not listening.
  source.onopen = function () {
    fetch(body.getAttribute('data-moves'))
      .then(function (answer) { return answer.json(); })
      .then(function (game) {
        game.moves.forEach(function (m) { add(m.ply, m.text, m.ms); });
        show();
        redraw();
        // The game ended before this page listened: show its end.
        if (game.status !== 'running') {
          reloadSoon(500);
        }
      })
      .catch(function () {});
  };
  source.onmessage = function (message) {
    var event = parse(message.data);
    if (!event) {
      return;
    }
    if (event.type === 'move') {
      add(event.ply, String(event.text), event.ms);
      show();
      redraw();
    } else if (event.type === 'game_ended') {
      reloadSoon(500);
    } else if (event.type === 'lagged') {
      reloadSoon(0);
    }
  };
})();
