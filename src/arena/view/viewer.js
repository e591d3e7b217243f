// Steps through the positions of the page: every board is a figure of class "frame", one
// shown at a time. Buttons, the arrow keys, Home and End, and the URL fragment #move=N
// (or #move=end) choose it; the move list marks it. No request leaves the page.
(function () {
  "use strict";
  var frames = document.querySelectorAll("figure.frame");
  if (frames.length === 0) {
    return;
  }
  var items = document.querySelectorAll("#moves li");
  var said = [];
  // Each move's time, clock and judgement (empty for none), and the curve's mark.
  var costs = [];
  try {
    costs = JSON.parse(document.getElementById("costs").textContent);
  } catch (e) {
    costs = [];
  }
  var curve = document.getElementById("curve");
  var mark = document.getElementById("curve-at");
  var status = document.getElementById("status");
  var last = frames.length - 1;
  var current = last;
  draw();

  // Draws every board into its figure from the page's data: the distinct parts of the
  // boards' SVG, the first board's parts, and for each later board the edits from the one
  // before (where, how many parts removed, how many added, the added parts).
  function draw() {
    var data = document.getElementById("boards");
    if (!data) {
      return;
    }
    data = JSON.parse(data.textContent);
    said = data.status;
    var parts = [];
    for (var w = 0; w < data.parts.length; w++) {
      var words = [];
      for (var k = 0; k < data.parts[w].length; k++) {
        words.push(data.words[data.parts[w][k]]);
      }
      parts.push(words.join(" "));
    }
    var list = data.first.slice();
    for (var i = 0; i < frames.length; i++) {
      if (i > 0) {
        edit(list, data.edits[i - 1] || []);
      }
      if (!frames[i].querySelector("svg")) {
        var svg = "";
        for (var p = 0; p < list.length; p++) {
          svg += parts[list[p]];
        }
        frames[i].insertAdjacentHTML("afterbegin", svg);
      }
    }
  }

  // The edits apply last first, so that each one's place is still a place in the old list.
  function edit(list, flat) {
    var edits = [];
    for (var i = 0; i < flat.length; i += 3 + flat[i + 2]) {
      edits.push([flat[i], flat[i + 1]].concat(flat.slice(i + 3, i + 3 + flat[i + 2])));
    }
    for (var e = edits.length - 1; e >= 0; e--) {
      Array.prototype.splice.apply(list, edits[e]);
    }
  }

  // As the page writes it: "Move 7 of 40: " (but at the start), what the data says of the
  // board, and the result after the last move.
  function statusOf(n) {
    var text = (n > 0 ? "Move " + n + " of " + last + ": " : "") + (said[n] || "");
    if (costs[n]) {
      text += " (" + costs[n] + ")";
    }
    if (n === last) {
      text += ". " + document.getElementById("result").textContent;
    }
    return text;
  }

  function show(n) {
    n = Math.max(0, Math.min(last, n));
    for (var i = 0; i < frames.length; i++) {
      frames[i].hidden = i !== n;
    }
    for (var j = 0; j < items.length; j++) {
      var on = Number(items[j].getAttribute("data-move")) === n;
      items[j].className = on ? "current" : "";
      if (on) {
        items[j].setAttribute("aria-current", "step");
        var list = items[j].parentNode;
        var top = items[j].offsetTop - list.offsetTop;
        if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - items[j].offsetHeight) {
          list.scrollTop = top - list.clientHeight / 2;
        }
      } else {
        items[j].removeAttribute("aria-current");
      }
    }
    status.textContent = statusOf(n);
    if (curve && mark) {
      var x = (600 * n / Math.max(1, Number(curve.getAttribute("data-frames")) - 1)).toFixed(1);
      mark.setAttribute("x1", x);
      mark.setAttribute("x2", x);
    }
    document.body.setAttribute("data-move", String(n));
    current = n;
  }

  function fromFragment() {
    var match = /move=(\d+|end|start)/.exec(window.location.hash);
    if (!match) {
      return last;
    }
    if (match[1] === "end") {
      return last;
    }
    if (match[1] === "start") {
      return 0;
    }
    return parseInt(match[1], 10);
  }

  function go(n) {
    show(n);
    if (window.history && window.history.replaceState) {
      try {
        window.history.replaceState(null, "", "#move=" + current);
      } catch (e) {
        // A page opened from a file may refuse: the board has moved all the same.
      }
    }
  }

  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(current - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current + 1); });
  document.getElementById("last").addEventListener("click", function () { go(last); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    if (event.key in moves) {
      event.preventDefault();
      go(moves[event.key]);
    }
  });
  window.addEventListener("hashchange", function () { show(fromFragment()); });
  show(fromFragment());
})();
