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
  var status = document.getElementById("status");
  var last = frames.length - 1;
  var current = last;

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
    status.textContent = frames[n].getAttribute("data-status");
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
