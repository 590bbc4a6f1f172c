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

  /* -- Watch race: three shared pawns round a ring of squares (a watch face) ----------------- */
  var RACE_FILL = { G: "#2e7d32", B: "#1565c0", O: "#e65100" };
  var RACE_REASONS = {
    timer: "the timer rang",
    tokens_out: "nobody could move any more",
    draw_cap: "the winning card was face down too many rounds in a row"
  };
  var RACE_SIZE = 370, RACE_C = 185, RACE_OUT = 156, RACE_IN = 110;

  function racePoint(angle, radius) {
    return [RACE_C + radius * Math.sin(angle), RACE_C - radius * Math.cos(angle)];
  }

  function el(name, attrs, parent, text) {
    var node = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  var race = {
    label: function (data, seat) { return data.seat_labels[seat]; },
    who: function (data, seat) { return data.seat_labels[seat] + " (" + data.players[seat] + ")"; },
    pawnName: function (data, letter) { return data.board.pawn_names[data.board.pawns.indexOf(letter)]; },

    orderWords: function (data, order) {
      return order.split("").map(function (letter) { return race.pawnName(data, letter); }).join(", ");
    },

    /* "P2 swapped card 0 with P1's card 0 on yellow square 20: GBO went to P1, BOG to P2." */
    swapText: function (data, swap) {
      var mover = race.label(data, swap.seat);
      if (swap["with"] === null) {
        return mover + " swapped card " + swap.slot + " with face-down card " + swap.pile +
          " on yellow square " + swap.square + ": " + swap.gave + " went to the pile, " + swap.received + " to " + mover + ".";
      }
      var other = race.label(data, swap["with"]);
      return mover + " swapped card " + swap.slot + " with " + other + "'s card " + swap.their_slot +
        " on yellow square " + swap.square + ": " + swap.gave + " went to " + other + ", " + swap.received + " to " + mover + ".";
    },

    roundEndText: function (data, frame) {
      var end = frame.round_end;
      var head = "Round " + end.round + " ended (" + ((data.reasons || RACE_REASONS)[end.reason] || end.reason) + ") with the pawns in order " + end.order;
      if (end.replayed) return head + ": that card was face down, so nobody won and the round is played again with a fresh deal.";
      if (frame.winner !== null) return head + ": " + race.label(data, frame.winner) + " holds that card and wins.";
      return head + ": that card was face down once more, so the game is a draw (the replay cap).";
    },

    moveText: function (data, frame) {
      var move = frame.move;
      if (!move) return "The pawns wait on the start square; the referee deals the cards and sets the hidden timer.";
      if (move.kind === "deal") return "Referee: deal " + move.card + " (card " + move.number + " of " + data.board.cards.length + ", face down)";
      if (move.kind === "timer") return "Referee: timer set to ring after " + move.turns + " turns (hidden from the players)";
      var by = race.who(data, move.seat) + ": ";
      if (move.kind === "move") {
        return by + move.notation + ", " + race.pawnName(data, move.pawn) + " " + move.steps + " square" +
          (move.steps === 1 ? "" : "s") + " from " + move.start + " to " + move.to;
      }
      if (move.kind === "keep") return by + "keep (no swap)";
      return by + move.notation;
    },

    describe: function (data, frame) {
      var board = data.board;
      var parts = ["Watch race, round " + frame.round + ", turn " + frame.turn + (frame.timer ? " of " + frame.timer : "")];
      parts.push(board.pawns.map(function (letter, pawn) {
        return board.pawn_names[pawn] + " on square " + frame.positions[pawn];
      }).join(", "));
      parts.push("order first to last " + race.orderWords(data, frame.order));
      parts.push("start square 0 red, yellow squares " + (board.yellow_squares.join(" and ") || "none"));
      if (frame.swap) parts.push(race.swapText(data, frame.swap));
      return parts.join("; ") + ".";
    },

    drawRing: function (box, data, frame) {
      var board = data.board, ring = board.ring_length;
      var root = svg("svg", {
        viewBox: "0 0 " + RACE_SIZE + " " + (RACE_SIZE + 30), "class": "board race-ring", role: "img",
        "aria-label": race.describe(data, frame)
      }, box);
      svg("title", {}, root).textContent = "Watch race at ply " + frame.ply;
      var wedge = 2 * Math.PI / ring;
      var every = ring <= 40 ? 1 : ring <= 120 ? 5 : 10; // square numbers shown
      for (var square = 0; square < ring; square++) {
        var a0 = (square - 0.5) * wedge, a1 = (square + 0.5) * wedge;
        var p0 = racePoint(a0, RACE_OUT), p1 = racePoint(a1, RACE_OUT), p2 = racePoint(a1, RACE_IN), p3 = racePoint(a0, RACE_IN);
        var large = wedge > Math.PI ? 1 : 0;
        var kind = square === 0 ? "start" : board.yellow_squares.indexOf(square) >= 0 ? "yellow" : "plain";
        svg("path", {
          d: "M" + p0 + " A" + RACE_OUT + "," + RACE_OUT + " 0 " + large + " 1 " + p1 + " L" + p2 +
            " A" + RACE_IN + "," + RACE_IN + " 0 " + large + " 0 " + p3 + " Z",
          "class": "cell " + kind, "data-square": square
        }, root);
        if (square % every === 0 || kind !== "plain") {
          var at = racePoint(square * wedge, RACE_OUT + 11);
          svg("text", { x: at[0], y: at[1], "text-anchor": "middle", "dominant-baseline": "middle", "class": "cell-no" }, root).textContent = square;
        }
      }
      var start = racePoint(0, RACE_IN - 14);
      svg("text", { x: start[0], y: start[1], "text-anchor": "middle", "dominant-baseline": "middle", "class": "start-label" }, root).textContent = "start";
      board.yellow_squares.forEach(function (square) {
        var at = racePoint(square * wedge, RACE_IN - 14);
        svg("text", { x: at[0], y: at[1], "text-anchor": "middle", "dominant-baseline": "middle", "class": "yellow-label" }, root).textContent = "yellow";
      });
      // The dial's centre: round, turn, the timer (public now the series is over).
      svg("text", { x: RACE_C, y: RACE_C - 16, "text-anchor": "middle", "class": "dial big" }, root).textContent =
        "Round " + frame.round + " · turn " + frame.turn;
      svg("text", { x: RACE_C, y: RACE_C + 6, "text-anchor": "middle", "class": "dial" }, root).textContent =
        frame.timer ? "timer rings after turn " + frame.timer : "timer not set yet";
      svg("text", { x: RACE_C, y: RACE_C + 26, "text-anchor": "middle", "class": "dial" }, root).textContent =
        frame.replays ? frame.replays + " round" + (frame.replays === 1 ? "" : "s") + " replayed" : "";
      // The pawns, stacked along the radius when they share a square.
      var shared = {};
      board.pawns.forEach(function (letter, pawn) { (shared[frame.positions[pawn]] = shared[frame.positions[pawn]] || []).push(pawn); });
      board.pawns.forEach(function (letter, pawn) {
        var square = frame.positions[pawn], stack = shared[square], index = stack.indexOf(pawn);
        var radius = (RACE_OUT + RACE_IN) / 2 + (index - (stack.length - 1) / 2) * 15;
        var at = racePoint(square * wedge, radius);
        var moved = frame.move && frame.move.kind === "move" && frame.move.pawn === letter;
        var group = svg("g", { "class": "race-pawn" + (moved ? " moved" : ""), "data-pawn": letter, "data-square": square }, root);
        svg("circle", { cx: at[0], cy: at[1], r: 10, fill: RACE_FILL[letter] || "#555" }, group);
        svg("text", { x: at[0], y: at[1] + 0.5, "text-anchor": "middle", "dominant-baseline": "middle" }, group).textContent = letter;
      });
      // The order of the pawns, first to last, under the ring.
      var y = RACE_SIZE + 14;
      svg("text", { x: 12, y: y, "dominant-baseline": "middle", "class": "order-label" }, root).textContent = "Order, first to last:";
      frame.order.split("").forEach(function (letter, rank) {
        var x = 150 + rank * 76;
        svg("circle", { cx: x, cy: y, r: 9, fill: RACE_FILL[letter] || "#555" }, root);
        svg("text", { x: x, y: y + 0.5, "text-anchor": "middle", "dominant-baseline": "middle", "class": "order-pawn" }, root).textContent = letter;
        svg("text", { x: x + 13, y: y, "dominant-baseline": "middle", "class": "order-name" }, root).textContent = race.pawnName(data, letter);
      });
    },

    drawTable: function (box, data, frame) {
      var table = el("table", { "class": "data race-players" }, box);
      el("caption", {}, table, "Players at ply " + frame.ply + " (order now " + frame.order + ")");
      var head = el("tr", {}, el("thead", {}, table));
      ["Seat", "Player", "Tokens", "Cards (secret during the game)"].forEach(function (name) { el("th", { scope: "col" }, head, name); });
      var body = el("tbody", {}, table);
      var swap = frame.swap;
      data.players.forEach(function (name, seat) {
        var classes = [];
        if (frame.to_move === seat) classes.push("to-move");
        if (frame.winner === seat) classes.push("winner");
        if (swap && (swap.seat === seat || swap["with"] === seat)) classes.push("swapped");
        var row = el("tr", { "class": classes.join(" ") }, body);
        el("th", { scope: "row" }, row, race.label(data, seat));
        var note = frame.winner === seat ? " (won)" : frame.to_move === seat ? " (to " + (frame.phase === "swap" ? "decide on a swap" : "move") + ")" : "";
        el("td", {}, row, name + note);
        el("td", { "class": "num" }, row, String(frame.tokens[seat]));
        el("td", { "class": "hand" }, row, (frame.hands[seat] || []).join(", ") || "—");
      });
      var pile = el("tr", { "class": swap && swap["with"] === null ? "swapped pile" : "pile" }, body);
      el("th", { scope: "row" }, pile, "Pile");
      el("td", {}, pile, "face down");
      el("td", {}, pile, "");
      el("td", { "class": "hand" }, pile, frame.pile.join(", ") || "—");
    },

    draw: function (box, data, frame) {
      box.textContent = "";
      box.classList.add("race");
      box.removeAttribute("aria-hidden"); // the ring's label and the table describe the position
      if (frame.swap) el("p", { "class": "race-banner swap" }, box, race.swapText(data, frame.swap));
      if (frame.round_end) el("p", { "class": "race-banner round-end" }, box, race.roundEndText(data, frame));
      el("p", { "class": "race-move" + (frame.move && frame.move.seat === null ? " referee" : "") }, box, race.moveText(data, frame));
      race.drawRing(box, data, frame);
      race.drawTable(box, data, frame);
    },

    status: function (data, frame, last) {
      if (frame.winner !== null) {
        return race.who(data, frame.winner) + " wins: " + (RACE_REASONS[frame.reason] || frame.reason) +
          " with the pawns in order " + frame.order + ", the card " + race.label(data, frame.winner) + " held.";
      }
      if (frame.reason) return "A draw: " + (RACE_REASONS[frame.reason] || frame.reason) + ".";
      if (last && data.ending) return data.ending + ".";
      if (frame.phase === "deal") return "Round " + frame.round + ": the referee deals the objective cards.";
      if (frame.phase === "timer") return "Round " + frame.round + ": the referee sets the hidden timer.";
      if (frame.phase === "swap") return race.who(data, frame.to_move) + " landed on a yellow square and may swap a card.";
      return race.who(data, frame.to_move) + " to move (" + frame.tokens[frame.to_move] + " tokens).";
    }
  };

  var RENDERERS = { watch: watch, watch_race: race };

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

  document.querySelectorAll(".replay[data-replay]").forEach(setup);
})();
