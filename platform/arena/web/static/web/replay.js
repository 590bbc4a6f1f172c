/* The replay viewer: draws the positions the server rebuilt (one JSON frame per ply) and steps through them.
 *
 * Each .replay[data-replay] element names a <script type="application/json"> with
 * {game, board, players, seat_labels, frames, moves, ending}. One renderer per game,
 * keyed by the engine's name, draws a frame as SVG; a game without one keeps its
 * move list and ply counter. Keys, while the viewer has focus: Left/Right step,
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

  /* -- Watch: the b6 board (a 5x5 board with a1 moved up to b6) ------------------------ */
  var WATCH_FILL = {
    "dark-green": "#1b5e20", "light-green": "#8bc34a", "dark-purple": "#4a148c",
    "light-purple": "#ce93d8", "pink": "#f48fb1", "dark-blue": "#0d47a1",
    "orange": "#fb8c00", "yellow": "#fdd835", "red": "#d32f2f", "light-blue": "#81d4fa"
  };
  var WATCH_DARK = { "dark-green": 1, "dark-purple": 1, "dark-blue": 1, "red": 1 };
  var WATCH_REASONS = {
    capture: "moved onto the opponent's tile",
    colour: "moved onto a tile of the opponent's colour",
    no_moves: "left the opponent without a move"
  };
  var CELL = 56, MARGIN = 24;

  var watch = {
    draw: function (box, data, frame) {
      var board = data.board;
      box.textContent = "";
      var root = svg("svg", {
        viewBox: "0 0 " + (MARGIN + 5 * CELL + 4) + " " + (6 * CELL + MARGIN + 4),
        "class": "board watch", role: "img"
      }, box);
      svg("title", {}, root).textContent = "Watch board at ply " + frame.ply;
      board.squares.forEach(function (name, square) {
        var col = "abcde".indexOf(name[0]), row = parseInt(name.slice(1), 10);
        var x = MARGIN + col * CELL, y = (6 - row) * CELL + 2;
        var tile = frame.tiles[square];
        var removed = frame.removed.indexOf(square) >= 0;
        var cls = removed ? "square removed" : tile < 0 ? "square undressed" : "square tile";
        var attrs = { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 6, "class": cls };
        if (tile >= 0) attrs.fill = WATCH_FILL[board.colours[tile]] || "#999";
        svg("rect", attrs, root);
        var label = svg("text", { x: x + 6, y: y + 15, "class": "sq-name" + (tile >= 0 && WATCH_DARK[board.colours[tile]] ? " on-dark" : "") }, root);
        label.textContent = name;
        if (tile >= 0) {
          var code = svg("text", { x: x + CELL - 6, y: y + CELL - 8, "text-anchor": "end", "class": "sq-code" + (WATCH_DARK[board.colours[tile]] ? " on-dark" : "") }, root);
          code.textContent = board.codes[tile];
        }
        frame.pawns.forEach(function (pawnSquare, pawn) {
          if (pawnSquare !== square) return;
          svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL / 4.2, "class": pawn === 0 ? "pawn white" : "pawn black" }, root);
        });
      });
      for (var row = 1; row <= 6; row++) {
        svg("text", { x: MARGIN - 8, y: (6 - row) * CELL + 2 + CELL / 2, "text-anchor": "end", "dominant-baseline": "middle", "class": "coord" }, root).textContent = row;
      }
      "abcde".split("").forEach(function (file, col) {
        svg("text", { x: MARGIN + col * CELL + CELL / 2, y: 6 * CELL + MARGIN - 4, "text-anchor": "middle", "class": "coord" }, root).textContent = file;
      });
    },
    status: function (data, frame, last) {
      var who = function (seat) { return data.seat_labels[seat] + " (" + data.players[seat] + ")"; };
      if (frame.winner !== null) return who(frame.winner) + " wins: " + (WATCH_REASONS[frame.reason] || frame.reason) + ".";
      if (last && data.ending) return data.ending + ".";
      if (frame.phase === "dress") return "Dressing the board: " + who(frame.to_move) + " places a tile.";
      if (frame.phase === "white_pawn") return who(0) + " places the white pawn.";
      if (frame.phase === "black_pawn") return who(1) + " places the black pawn.";
      return who(frame.to_move) + " to move.";
    }
  };

  var RENDERERS = { watch: watch };

  /* -- the viewer -------------------------------------------------------------------------- */
  function setup(root) {
    var source = document.getElementById(root.getAttribute("data-replay"));
    if (!source) return;
    var data = JSON.parse(source.textContent);
    var renderer = RENDERERS[data.game];
    var box = root.querySelector(".replay-board");
    var statusLine = root.querySelector(".replay-status");
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
        renderer.draw(box, data, frame);
        statusLine.textContent = renderer.status(data, frame, ply === last);
      }
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
    show(0);
  }

  document.querySelectorAll(".replay[data-replay]").forEach(setup);
})();
