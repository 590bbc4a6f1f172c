/* The Watch replay renderer (engines/watch/viewer.py builds its frames): the b6 board, tiles, pawns, the last move.
 * Served as games/watch/viewer.js after web/replay.js, which provides ArenaReplay. */
(function () {
  "use strict";

  var svg = window.ArenaReplay.svg;

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

  /* The pawn that moved into ``frame`` from ``prev``, and its squares: the last move, marked on the board. */
  function watchMove(frame, prev) {
    var none = { pawn: -1, from: -1, to: -1 };
    if (!prev || !prev.pawns || !frame.pawns) return none;
    for (var pawn = 0; pawn < frame.pawns.length; pawn++) {
      if (prev.pawns[pawn] !== frame.pawns[pawn] && frame.pawns[pawn] !== null && frame.pawns[pawn] >= 0) {
        return { pawn: pawn, from: prev.pawns[pawn] === null ? -1 : prev.pawns[pawn], to: frame.pawns[pawn] };
      }
    }
    return none;
  }

  var watch = {
    draw: function (box, data, frame, prev) {
      var board = data.board;
      var moved = watchMove(frame, prev);
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
        if (moved.from === square) svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, "class": "last-from" }, root);
        if (moved.to === square) svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 7, "class": "last-to" }, root);
        // Both pawns on one square is a capture: the captured pawn small in a corner, the capturer on top.
        var here = [0, 1].filter(function (pawn) { return frame.pawns[pawn] === square; });
        if (here.length === 2) here.sort(function (a, b) { return (a === moved.pawn) - (b === moved.pawn); });
        here.forEach(function (pawn, index) {
          var captured = here.length === 2 && index === 0;
          svg("circle", {
            cx: x + (captured ? CELL / 4 : CELL / 2), cy: y + (captured ? CELL * 3 / 4 : CELL / 2),
            r: captured ? CELL / 7 : CELL / 4.2,
            "class": (pawn === 0 ? "pawn white" : "pawn black") + (captured ? " captured" : "")
          }, root);
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
      if (frame.winner !== null) return who(frame.winner) + " wins: " + ((data.reasons || WATCH_REASONS)[frame.reason] || frame.reason) + ".";
      if (last && data.ending) return data.ending + ".";
      if (frame.phase === "dress") return "Dressing the board: " + who(frame.to_move) + " places a tile.";
      if (frame.phase === "white_pawn") return who(0) + " places the white pawn.";
      if (frame.phase === "black_pawn") return who(1) + " places the black pawn.";
      return who(frame.to_move) + " to move.";
    }
  };

  window.ArenaReplay.register("watch", watch);
})();
