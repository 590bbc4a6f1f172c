/* The replay viewer: draws the positions the server rebuilt (one JSON frame per ply) and steps through them.
 *
 * Each .replay[data-replay] element names a <script type="application/json"> with
 * {game, board, players, seat_labels, frames, moves, ending}. One renderer per game,
 * registered by the game's own script under the engine's name, draws a frame as SVG;
 * a game without one keeps its move list and ply counter. Keys, while the viewer has focus: Left/Right step,
 * Home/End jump, Space plays and pauses.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var PLAY_MS = 700;

  function svg(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function el(name, attrs, parent, text) {
    var node = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  /* Each game's viewer.js (engines/<game>/static/viewer.js, served as games/<game>/viewer.js)
   * registers its renderer: {draw(box, data, frame, prev), status(data, frame, atEnd)}. */
  var RENDERERS = {};
  window.ArenaReplay = {
    svg: svg,
    el: el,
    register: function (game, renderer) { RENDERERS[game] = renderer; }
  };

  /* -- the viewer -------------------------------------------------------------------------- */
  /* The time the bot took for the move into ply ``ply``, and its bank left when the replay has it. */
  function clockText(data, ply) {
    var timing = ply > 0 && data.timings ? data.timings[ply - 1] : null;
    if (!timing) return "";
    var took = timing.ms < 10 ? timing.ms.toFixed(1) : Math.round(timing.ms).toLocaleString("en");
    var text = "This move took " + took + " ms";
    if (typeof timing.bank_ms === "number") text += "; " + Math.round(timing.bank_ms).toLocaleString("en") + " ms left in its bank";
    return text + ".";
  }

  function setup(root) {
    var source = document.getElementById(root.getAttribute("data-replay"));
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var renderer = RENDERERS[data.game];
    var box = root.querySelector(".replay-board");
    var statusLine = root.querySelector(".replay-status");
    var clockLine = root.querySelector(".replay-clock");
    var counter = root.querySelector(".replay-ply output");
    var playButton = root.querySelector('[data-step="play"]');
    var moves = Array.prototype.slice.call(root.querySelectorAll(".moves .move"));
    var last = data.frames.length - 1;
    var ply = 0, timer = null;

    if (!renderer) {
      box.textContent = "No viewer for this game yet: the moves are listed below.";
    }

    function show(next) {
      ply = Math.max(0, Math.min(last, next));
      var frame = data.frames[ply];
      if (renderer) {
        renderer.draw(box, data, frame, ply > 0 ? data.frames[ply - 1] : null);
        statusLine.textContent = renderer.status(data, frame, ply === last);
      }
      if (clockLine) clockLine.textContent = clockText(data, ply);
      counter.textContent = ply;
      moves.forEach(function (button) {
        var current = parseInt(button.getAttribute("data-ply"), 10) === ply;
        button.classList.toggle("current", current);
        if (current) {
          button.setAttribute("aria-current", "step");
          keepVisible(button);
        } else {
          button.removeAttribute("aria-current");
        }
      });
      if (ply === last) stop();
    }

    // Scrolls the move list only, never the page: the viewer may be far below the fold.
    function keepVisible(button) {
      var list = button.closest(".moves");
      var top = button.offsetTop, bottom = top + button.offsetHeight; // .moves is the offsetParent
      if (top < list.scrollTop) list.scrollTop = top;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    }

    function stop() {
      if (timer !== null) window.clearInterval(timer);
      timer = null;
      playButton.textContent = "Play";
      playButton.setAttribute("aria-label", "Play");
      playButton.setAttribute("aria-pressed", "false");
    }

    function toggle() {
      if (timer !== null) { stop(); return; }
      if (ply === last) show(0);
      timer = window.setInterval(function () { show(ply + 1); }, PLAY_MS);
      playButton.textContent = "Pause";
      playButton.setAttribute("aria-label", "Pause");
      playButton.setAttribute("aria-pressed", "true");
    }

    var steps = {
      first: function () { stop(); show(0); },
      back: function () { stop(); show(ply - 1); },
      play: toggle,
      forward: function () { stop(); show(ply + 1); },
      last: function () { stop(); show(last); }
    };
    root.querySelectorAll("[data-step]").forEach(function (button) {
      button.addEventListener("click", steps[button.getAttribute("data-step")]);
    });
    moves.forEach(function (button) {
      button.addEventListener("click", function () { stop(); show(parseInt(button.getAttribute("data-ply"), 10)); });
    });
    root.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var key = event.key;
      if (key === " " && event.target.tagName === "BUTTON") return; // the button's own action
      var action = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last", " ": "play" }[key];
      if (!action) return;
      event.preventDefault();
      steps[action]();
    });
    // An address ending in #<replay id>-ply-<n> opens this game at that ply, and -ply-end at its last
    // position: where a forfeit happened (the forfeit history links that).
    var wanted = new RegExp("^#" + root.getAttribute("data-replay") + "-ply-(\\d+|end)$").exec(window.location.hash);
    show(!wanted ? 0 : wanted[1] === "end" ? last : parseInt(wanted[1], 10));
    if (wanted) root.scrollIntoView();
  }

  // The games' scripts come after this one (all deferred): set up once they have registered.
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".replay[data-replay]").forEach(setup);
  });
})();
