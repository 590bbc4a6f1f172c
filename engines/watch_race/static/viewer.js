/* The Watch race replay renderer (engines/watch_race/viewer.py builds its frames): the ring, the pawns, the hands.
 * Served as games/watch_race/viewer.js after web/replay.js, which provides ArenaReplay. */
(function () {
  "use strict";

  var svg = window.ArenaReplay.svg;
  var el = window.ArenaReplay.el;

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

  window.ArenaReplay.register("watch_race", race);
})();
