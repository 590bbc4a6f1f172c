/* The factory race replay renderer (engines/factory_race/viewer.py builds its frames): each factory's
 * production shop of tiles with their lines, machines, cubes and workers, its warehouses and assembly card,
 * the distribution centre's open tiles and, in «Вызов», the posters and the event.
 * Served as games/factory_race/viewer.js after web/replay.js, which provides ArenaReplay. */
(function () {
  "use strict";

  var svg = window.ArenaReplay.svg;
  var el = window.ArenaReplay.el;

  var FILL = { R: "#c62828", Y: "#f9a825", B: "#1565c0" };
  var COLOUR_NAME = { R: "red", Y: "yellow", B: "blue" };
  var REASONS = {
    assembled: "assembled its batch first",
    tie_break: "finished in the same round as another and won the tie-break",
    shared: "finished level with others on every tie-break: they share the win",
    round_cap: "nobody finished within the round limit, and it had the most cubes assembled",
    round_cap_tie_break: "nobody finished within the round limit; it led the most advanced on the tie-breaks"
  };
  var PHASES = {
    setup: "setting up", event: "the event card", immunity: "immunity from the event",
    optimise: "optimising the factories", place: "placing workers (all at once, in secret)",
    activate: "activating the workers", refresh: "refreshing the tile line", over: "game over"
  };
  var CELL = 46, PAD = 30;

  var factory = {
    label: function (data, seat) { return data.seat_labels[seat]; },
    who: function (data, seat) { return data.seat_labels[seat] + " (" + data.players[seat] + ")"; },

    /* One tile: its production lines from the centre to each line end, a machine as a square. */
    drawTile: function (root, x, y, code, placed) {
      var parts = code.split(":"), tile = parts[0], cube = parts[1];
      var machine = tile.charAt(0) === "M";
      svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, "class": "tile" + (machine ? " machine" : "") }, root);
      var c = CELL / 2, ends = { N: [c, 0], E: [CELL, c], S: [c, CELL], W: [0, c] };
      tile.slice(1).split("").forEach(function (edge) {
        var end = ends[edge];
        svg("line", { x1: x + c, y1: y + c, x2: x + end[0], y2: y + end[1], "class": "line" }, root);
      });
      if (machine) svg("rect", { x: x + c - 9, y: y + c - 9, width: 18, height: 18, "class": "machine-box" }, root);
      if (cube) svg("rect", { x: x + c - 6, y: y + c - 6, width: 12, height: 12, fill: FILL[cube], "class": "cube", "data-cube": cube }, root);
      if (placed) svg("circle", { cx: x + CELL - 9, cy: y + 9, r: 5, "class": "worker" }, root);
    },

    drawFactory: function (box, data, frame, seat) {
      var f = frame.factories[seat], board = data.board;
      var width = PAD + board.cols * CELL + 14 + f.assembly.length * 44 + 10;
      var height = board.rows * CELL + 50;
      var card = el("figure", { "class": "fr-factory" + (frame.to_move === seat ? " to-move" : "") + (frame.winners.indexOf(seat) >= 0 ? " winner" : "") }, box);
      el("figcaption", {}, card, factory.who(data, seat) + " — " + f.factory + " factory" + (frame.first === seat ? " · first player" : ""));
      var root = svg("svg", {
        viewBox: "0 0 " + width + " " + height, "class": "board fr-board", role: "img",
        "aria-label": factory.describe(data, frame, seat)
      }, card);
      var staffed = f.placed ? f.placed.machines : [];
      // Warehouses, one per row, on the left.
      board.colours.forEach(function (colour, row) {
        var letter = colour.charAt(0).toUpperCase();
        svg("rect", { x: 2, y: row * CELL + 8, width: PAD - 6, height: CELL - 16, fill: FILL[letter], "class": "warehouse" }, root);
        svg("text", { x: PAD / 2 - 1, y: row * CELL + CELL / 2 + 4, "text-anchor": "middle", "class": "count" }, root).textContent = f.warehouses[row];
      });
      for (var cell = 0; cell < f.grid.length; cell++) {
        var x = PAD + (cell % board.cols) * CELL, y = Math.floor(cell / board.cols) * CELL;
        if (f.grid[cell] === null) {
          svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, "class": "tile empty" }, root);
        } else {
          factory.drawTile(root, x, y, f.grid[cell], staffed.indexOf(board.cells[cell]) >= 0);
        }
      }
      // The assembly card: a chain of machines, each with its colour squares, filled or not.
      var ax = PAD + board.cols * CELL + 14;
      f.assembly.forEach(function (machine, k) {
        var x = ax + k * 44, on = f.placed && f.placed.assembly.indexOf(k) >= 0;
        svg("rect", { x: x, y: 4, width: 38, height: board.rows * CELL - 8, "class": "asm" + (on ? " staffed" : "") }, root);
        svg("text", { x: x + 19, y: board.rows * CELL + 12, "text-anchor": "middle", "class": "small" }, root).textContent = "A" + (k + 1) + " ·" + machine.workers + "w";
        machine.squares.split("").forEach(function (colour, i) {
          var filled = machine.filled.charAt(i);
          svg("rect", {
            x: x + 9, y: 12 + i * 26, width: 20, height: 20, stroke: FILL[colour], "stroke-width": 3,
            fill: filled === "." ? "#fff" : FILL[filled], "class": "square" + (filled === "." ? "" : " filled")
          }, root);
        });
      });
      var line = board.rows * CELL + 30;
      svg("text", { x: 2, y: line, "class": "small" }, root).textContent =
        "blueprints " + f.blueprints + "/" + board.max_blueprints + " · workers " + f.workers +
        " · housing " + f.housing_left + " left · delivered " + f.delivered + "/" + f.needed;
      if (f.placed) {
        var bits = [];
        if (f.placed.bureau) bits.push(f.placed.bureau + " in the bureau");
        if (f.placed.housing) bits.push(f.placed.housing + " in housing");
        if (f.placed.request) bits.push("1 on the request");
        if (f.placed.poster_cell) bits.push("2 on the poster cell");
        if (bits.length) svg("text", { x: 2, y: line + 16, "class": "small" }, root).textContent = "also: " + bits.join(", ");
      } else if (frame.phase === "place") {
        svg("text", { x: 2, y: line + 16, "class": "small hidden-note" }, root).textContent = "placing in secret";
      }
      if (f.posters.length) {
        el("p", { "class": "fr-posters" }, card, "Posters held: " + f.posters.map(function (id) { return board.posters[id].title; }).join("; "));
      }
      // The seat's own placements while they are secret: in data.private only for its bot's owner and staff.
      var layers = data["private"] && data["private"][String(seat)];
      var secret = layers ? layers[frame.ply] : null;
      if (secret && secret.placing) {
        el("p", { "class": "fr-private" }, card, "Only you see this: placed so far this round — " + secret.placing.join(", "));
      }
    },

    describe: function (data, frame, seat) {
      var f = frame.factories[seat];
      var cubes = [];
      f.grid.forEach(function (code, cell) {
        if (code && code.indexOf(":") > 0) cubes.push(COLOUR_NAME[code.split(":")[1]] + " cube on " + data.board.cells[cell]);
      });
      return factory.label(data, seat) + "'s " + f.factory + " factory: " + (cubes.join(", ") || "no cube in the shop") +
        "; " + f.delivered + " of " + f.needed + " cubes assembled; " + f.blueprints + " blueprints.";
    },

    drawCentre: function (box, data, frame) {
      var centre = el("div", { "class": "fr-centre" }, box);
      el("p", { "class": "fr-heading" }, centre, "Distribution centre: " + frame.tile_stack + " tiles in the stack");
      var root = svg("svg", { viewBox: "0 0 " + (data.board.tile_costs.length * (CELL + 8)) + " " + (CELL + 20), "class": "board fr-tiles", role: "img", "aria-label": "Open tiles" }, centre);
      frame.open_tiles.forEach(function (code, slot) {
        var x = slot * (CELL + 8);
        if (code === null) svg("rect", { x: x + 1, y: 1, width: CELL - 2, height: CELL - 2, "class": "tile empty" }, root);
        else factory.drawTile(root, x, 0, code, false);
        var icon = frame.tile_icons[slot];
        svg("text", { x: x + CELL / 2, y: CELL + 14, "text-anchor": "middle", "class": "small" }, root).textContent =
          data.board.tile_costs[slot] + " bp" + (icon !== null ? " · " + data.board.factories[icon] : "");
      });
      if (frame.open_posters) {
        el("p", {}, centre, "Open posters: " + frame.open_posters.map(function (id) { return id === null ? "—" : data.board.posters[id].title; }).join("; "));
      }
      if (frame.event !== undefined && frame.event !== null) {
        el("p", { "class": "fr-event" }, centre, "Event this round: " + data.board.events[frame.event].title);
      }
    },

    moveText: function (data, frame) {
      var move = frame.move;
      if (!move) return "The factories stand ready: round 1 begins with the placement of workers.";
      if (move.seat === null) return "Referee: " + move.notation;
      return factory.who(data, move.seat) + ": " + move.notation;
    },

    draw: function (box, data, frame) {
      box.textContent = "";
      box.classList.add("factory-race");
      box.removeAttribute("aria-hidden");
      el("p", { "class": "fr-round" }, box, "Round " + frame.round + " — " + (PHASES[frame.phase] || frame.phase) +
        (frame.step ? " (" + frame.step.replace(/_/g, " ") + ")" : ""));
      if (frame.revealed) {
        var shown = Object.keys(frame.revealed).map(function (seat) {
          return factory.label(data, Number(seat)) + ": " + frame.revealed[seat].join(", ");
        });
        el("p", { "class": "fr-banner reveal" }, box, "Placements revealed together — " + (shown.join("; ") || "nobody placed a worker"));
      }
      el("p", { "class": "fr-move" + (frame.move && frame.move.seat === null ? " referee" : "") }, box, factory.moveText(data, frame));
      var grid = el("div", { "class": "fr-factories" }, box);
      frame.factories.forEach(function (f, seat) { factory.drawFactory(grid, data, frame, seat); });
      factory.drawCentre(box, data, frame);
    },

    status: function (data, frame, last) {
      if (frame.winners.length === 1) return factory.who(data, frame.winners[0]) + " wins: " + (REASONS[frame.reason] || frame.reason) + ".";
      if (frame.winners.length > 1) {
        return frame.winners.map(function (seat) { return factory.who(data, seat); }).join(" and ") + " win: " + (REASONS[frame.reason] || frame.reason) + ".";
      }
      if (frame.reason) return "No winner: " + (REASONS[frame.reason] || frame.reason) + ".";
      if (last && data.ending) return data.ending + ".";
      if (frame.to_move === null) return "Round " + frame.round + ": the referee draws.";
      return factory.who(data, frame.to_move) + " to decide: " + (PHASES[frame.phase] || frame.phase) + ".";
    }
  };

  window.ArenaReplay.register("factory_race", factory);
})();
