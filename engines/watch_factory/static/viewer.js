/* The Watch factory replay renderer (engines/watch_factory/viewer.py builds its frames): the factory board as a
 * round watch face (four sections of two action spots, the watch hand, the workers), the market card and the
 * watch cards, the six majority tracks, each player's panel and, at the end, the score by the scoring help's lines.
 * Frames hold only what the table shows everyone: documents in hand are counts, watch cards stay face down until
 * the next round reveals them. A seat's private layer (data.private[seat][ply], sent only to the owner of its
 * bot and to staff) adds, in that player's panel and marked "only you see this": its documents in hand, the
 * documents it chooses among while searching, the watch cards it set face down and the market card it peeked at.
 * Served as games/watch_factory/viewer.js after web/replay.js (ArenaReplay). */
(function () {
  "use strict";

  var svg = window.ArenaReplay.svg;
  var el = window.ArenaReplay.el;

  var WORKER_FILL = ["#c62828", "#1565c0", "#2e7d32", "#8e24aa"];
  var PAWN_FILL = "#616161";
  var CRATE_FILL = ["#d7b98e", "#fafafa", "#5d4037"];
  var DOC_FILL = { red: "#e53935", green: "#43a047", blue: "#1e88e5", grey: "#9e9e9e" };
  var KIND_SHORT = { "move token": "move", "bank pays bribe": "bank", "smuggle once more": "smuggle" };
  var PHASES = {
    place: "placing workers", reveal: "revealing the watch cards", act: "taking actions",
    "final smuggle": "the final smuggle", over: "game over"
  };
  var SCORE_LINES = ["crates", "board", "sets", "gears bonus", "coins bonus", "crates bonus", "gears", "rubles", "tokens", "debts"];
  var SIZE = 360, C = 180, R_IN = 62, R_SPOT = 146, R_OUT = 174;

  function point(degrees, radius) {
    var a = degrees * Math.PI / 180;
    return [C + radius * Math.sin(a), C - radius * Math.cos(a)];
  }

  /* An annular wedge from angle a0 to a1 (degrees clockwise from 12 o'clock) between two radii. */
  function wedge(a0, a1, r0, r1) {
    var p0 = point(a0, r1), p1 = point(a1, r1), p2 = point(a1, r0), p3 = point(a0, r0);
    return "M" + p0.join(" ") + " A" + r1 + " " + r1 + " 0 0 1 " + p1.join(" ") +
      " L" + p2.join(" ") + " A" + r0 + " " + r0 + " 0 0 0 " + p3.join(" ") + " Z";
  }

  var wf = {
    drawn: 0,
    label: function (data, seat) { return data.seat_labels[seat] || ("P" + seat); },
    who: function (data, seat) { return wf.label(data, seat) + " (" + data.players[seat] + ")"; },
    workerName: function (data, frame, worker) {
      if (worker === frame.pawn) return frame.pawn_name;
      return wf.label(data, worker);
    },
    workerShort: function (frame, worker) {
      if (worker === frame.pawn) return frame.solo ? "R" : "3rd";
      return "P" + worker;
    },
    fill: function (frame, worker) { return worker === frame.pawn ? PAWN_FILL : WORKER_FILL[worker % WORKER_FILL.length]; },

    /* -- the watch face --------------------------------------------------------------------- */
    drawFace: function (box, data, frame) {
      var board = data.board;
      var figure = el("figure", { "class": "wf-face" }, box);
      var root = svg("svg", {
        viewBox: "0 0 " + SIZE + " " + SIZE, "class": "board wf-face-board", role: "img",
        "aria-label": wf.describeFace(data, frame)
      }, figure);
      svg("circle", { cx: C, cy: C, r: R_OUT + 4, "class": "wf-rim" }, root);
      // The sections' outer band, lit where this round's watch cards look; each name follows the rim, upright.
      var prefix = "wf-" + (++wf.drawn) + "-";
      board.sections.forEach(function (name, section) {
        var watched = frame.revealed.indexOf(section) >= 0;
        svg("path", { d: wedge(section * 90, section * 90 + 90, R_SPOT, R_OUT), "class": "wf-section" + (watched ? " watched" : ""), "data-section": name }, root);
        var bottom = section === 1 || section === 2, r = bottom ? (R_SPOT + R_OUT) / 2 + 4 : (R_SPOT + R_OUT) / 2 - 3;
        var a0 = section * 90 + 4, a1 = section * 90 + 86;
        var from = point(bottom ? a1 : a0, r), to = point(bottom ? a0 : a1, r);
        svg("path", { id: prefix + section, d: "M" + from.join(" ") + " A" + r + " " + r + " 0 0 " + (bottom ? 0 : 1) + " " + to.join(" "), fill: "none", stroke: "none" }, root);
        var text = svg("text", { "class": "wf-section-name" }, root);
        svg("textPath", { href: "#" + prefix + section, startOffset: "50%", "text-anchor": "middle" }, text).textContent =
          (watched ? "watched: " : "") + name;
      });
      board.spots.forEach(function (spot, index) {
        var closed = frame.closed.indexOf(index) >= 0;
        var worker = frame.spots[index];
        var group = svg("g", {
          "class": "wf-spot" + (spot.risky ? " risky" : " safe") + (closed ? " closed" : "") + (worker !== null ? " taken" : ""),
          "data-spot": spot.name
        }, root);
        svg("path", { d: wedge(index * 45, index * 45 + 45, R_IN, R_SPOT), "class": "wf-spot-area" }, group);
        var mid = index * 45 + 22.5, turn = mid > 90 && mid < 270 ? mid - 180 : mid;
        var at = point(mid, 127);
        svg("text", { x: at[0], y: at[1] + 3, "text-anchor": "middle", transform: "rotate(" + turn + " " + at[0] + " " + at[1] + ")", "class": "wf-spot-name" }, group).textContent = spot.name;
        var risk = point(mid, 113);
        svg("text", { x: risk[0], y: risk[1] + 3, "text-anchor": "middle", transform: "rotate(" + turn + " " + risk[0] + " " + risk[1] + ")", "class": "wf-spot-risk" }, group).textContent =
          closed ? "closed" : spot.risky ? "risky" : "safe";
        if (worker !== null) {
          var w = point(mid, 86);
          var token = svg("g", { "class": "wf-worker", "data-worker": wf.workerShort(frame, worker) }, group);
          svg("circle", { cx: w[0], cy: w[1], r: 13, fill: wf.fill(frame, worker) }, token);
          svg("text", { x: w[0], y: w[1] + 4, "text-anchor": "middle", "class": "wf-worker-label" }, token).textContent = wf.workerShort(frame, worker);
        }
        if (spot.name === "watch" && frame.black === null) {
          var b = point(mid + 14, 100);
          svg("circle", { cx: b[0], cy: b[1], r: 6, "class": "wf-black" }, group);
        }
      });
      svg("circle", { cx: C, cy: C, r: R_IN - 4, "class": "wf-dial" }, root);
      svg("text", { x: C, y: C - 12, "text-anchor": "middle", "class": "wf-dial-round" }, root).textContent = "Round " + frame.round;
      svg("text", { x: C, y: C + 4, "text-anchor": "middle", "class": "wf-dial-small" }, root).textContent = "hand at " + board.hand_names[frame.hand];
      if (frame.market) {
        svg("text", { x: C, y: C + 18, "text-anchor": "middle", "class": "wf-dial-small" }, root).textContent = "market: " + frame.market.eyes + " eye" + (frame.market.eyes === 1 ? "" : "s");
      }
      // The watch hand: at 12, 3, 6 or 9 o'clock, just before the two spots of its section.
      var angle = frame.hand * 90, base = point(angle, R_IN - 4), tip = point(angle, R_OUT + 2);
      var left = point(angle - 4, R_OUT - 16), right = point(angle + 4, R_OUT - 16);
      svg("line", { x1: base[0], y1: base[1], x2: tip[0], y2: tip[1], "class": "wf-hand" }, root);
      svg("polygon", { points: [tip, left, right].map(function (p) { return p.join(","); }).join(" "), "class": "wf-hand-tip" }, root);
      el("figcaption", {}, figure, "The factory: " + board.sections.join(", ") + " (clockwise from 12 o'clock)");
    },

    describeFace: function (data, frame) {
      var taken = [];
      frame.spots.forEach(function (worker, index) {
        if (worker !== null) taken.push(wf.workerName(data, frame, worker) + " on " + data.board.spots[index].name);
      });
      return "The factory board, round " + frame.round + ", watch hand at " + data.board.hand_names[frame.hand] + ": " +
        (taken.join(", ") || "no worker placed") + ".";
    },

    /* -- the market card, the watch cards, the crate stock, the round's log -------------------- */
    drawSide: function (box, data, frame) {
      var side = el("div", { "class": "wf-side" }, box);
      var m = frame.market;
      var market = el("div", { "class": "wf-market" }, side);
      el("p", { "class": "wf-heading" }, market, m ? "Market card " + m.card : "No market card yet");
      if (m) {
        var list = el("ul", { "class": "wf-plain" }, market);
        el("li", { "class": "wf-eyes" }, list, "eyes (watch cards set by WATCH): " + m.eyes);
        el("li", {}, list, "sell gears: +" + m.dock_rubles + " rubles");
        el("li", {}, list, "overtime: +" + m.workshop_gears + " gears");
        el("li", {}, list, "scrounge: +" + m.warehouse_gears + " gears, +" + m.warehouse_rubles + " rubles");
      }
      el("p", { "class": "wf-small" }, market, frame.markets_left + " market card" + (frame.markets_left === 1 ? "" : "s") + " left (the next one face down)");

      var watch = el("div", { "class": "wf-watch" }, side);
      el("p", { "class": "wf-heading" }, watch, "Watch cards");
      if (frame.revealed.length) {
        el("p", { "class": "wf-revealed" }, watch, "Revealed this round" +
          (frame.revealed_by === null ? " (set at random)" : " (set by " + wf.label(data, frame.revealed_by) + ")") + ": " +
          frame.revealed.map(function (s) { return data.board.sections[s]; }).join(", "));
      } else {
        el("p", { "class": "wf-small" }, watch, "None revealed this round.");
      }
      if (frame.watch_set) {
        el("p", { "class": "wf-facedown" }, watch, frame.watch_set + " face down for next round" +
          (frame.watcher === null ? " (at random)" : " (set by " + wf.label(data, frame.watcher) + ")"));
      }
      el("p", { "class": "wf-small" }, watch, "Black token: " + (frame.black === null ? "on the WATCH spot" : "held by " + wf.label(data, frame.black)));
      if (frame.solo) {
        el("p", { "class": "wf-small" }, watch, "Solo: the foreman's office is closed; " + frame.watches + " watch" + (frame.watches === 1 ? "" : "es") + " left in its row");
        if (frame.solo_card) {
          var sc = frame.solo_card;
          el("p", { "class": "wf-small" }, watch, "Solo card " + sc.card + ": " + sc.gears[0] + " point per " + sc.gears[1] + " gears, " +
            sc.rubles[0] + " per " + sc.rubles[1] + " rubles, " + sc.tokens[0] + " per " + sc.tokens[1] + " token");
        }
      }
      if (frame.pawn !== null && frame.pawn_die) {
        el("p", { "class": "wf-small" }, watch, frame.pawn_name.charAt(0).toUpperCase() + frame.pawn_name.slice(1) + " last rolled " + frame.pawn_die);
      }

      var stock = el("div", { "class": "wf-stock" }, side);
      el("p", { "class": "wf-heading" }, stock, "Crate stock");
      var row = el("p", { "class": "wf-crates" }, stock);
      data.board.crate_values.forEach(function (values, colour) {
        values.forEach(function (value) {
          var chip = el("span", { "class": "wf-crate c" + colour, title: data.board.crate_colours[colour] + " " + value }, row, String(value));
          el("sub", {}, chip, "×" + frame.stock[value - 1]);
        });
      });
      if (!frame.solo) el("p", { "class": "wf-small" }, stock, "Documents in the stack: " + frame.doc_stack + (frame.searching ? " · " + frame.searching + " being searched (face down)" : ""));

      if (frame.log.length) {
        var log = el("div", { "class": "wf-log" }, side);
        el("p", { "class": "wf-heading" }, log, "This round");
        var ul = el("ul", { "class": "wf-plain" }, log);
        frame.log.forEach(function (line) { el("li", {}, ul, line); });
      }
    },

    /* -- the six majority tracks ------------------------------------------------------------- */
    bonusText: function (bonus) {
      if (!bonus) return "";
      if (bonus.kind === "rubles") return "+" + bonus.amount + "₽";
      if (bonus.kind === "gears") return "+" + bonus.amount + "g";
      return bonus.colour.split(" ")[0] + " crate for " + bonus.amount + "g";
    },

    rate: function (r) { return r[1] === 1 ? String(r[0]) : r[0] + "/" + r[1]; },

    drawTracks: function (box, data, frame) {
      if (frame.solo) return;
      var wrap = el("div", { "class": "wf-tracks" }, box);
      var table = el("table", { "class": "wf-track-table" }, wrap);
      el("caption", {}, table, "Majority tracks (points per gear, coin or crate for 1st / 2nd place)");
      var body = el("tbody", {}, table);
      frame.tracks.forEach(function (line, t) {
        var info = data.board.tracks[t];
        var tr = el("tr", { "data-track": info.name }, body);
        var leaders = frame.leaders[t];
        var lead = leaders[0].length ? " · 1st " + leaders[0].map(function (w) { return wf.workerShort(frame, w); }).join("+") : "";
        if (leaders[1].length) lead += ", 2nd " + leaders[1].map(function (w) { return wf.workerShort(frame, w); }).join("+");
        el("th", { scope: "row" }, tr, info.name + " (" + wf.rate(info.first) + " / " + wf.rate(info.second) + ")" + lead);
        line.forEach(function (owner, spot) {
          var td = el("td", { "class": "wf-track-spot" + (owner === null ? " empty" : owner === "gear" ? " gear" : " owned") }, tr);
          if (owner === "gear") {
            el("span", { "class": "wf-gear", title: "blocked by a gear" }, td, "⚙");
          } else if (owner !== null) {
            el("span", { "class": "wf-track-token", style: "background:" + wf.fill(frame, owner), "data-owner": wf.workerShort(frame, owner) }, td, wf.workerShort(frame, owner));
          }
          var bonus = info.bonuses[spot];
          if (bonus) el("span", { "class": "wf-bonus" }, td, wf.bonusText(bonus));
        });
      });
    },

    /* -- the players ---------------------------------------------------------------------------- */
    drawPlayers: function (box, data, frame) {
      var grid = el("div", { "class": "wf-players" }, box);
      var winners = frame.winners || [];
      frame.players.forEach(function (p, seat) {
        var card = el("figure", {
          "class": "wf-player" + (frame.to_move === seat ? " to-move" : "") + (winners.indexOf(seat) >= 0 ? " winner" : ""),
          "data-seat": String(seat)
        }, grid);
        var caption = el("figcaption", {}, card);
        el("span", { "class": "wf-swatch", style: "background:" + wf.fill(frame, seat) }, caption);
        caption.appendChild(document.createTextNode(wf.who(data, seat) + (frame.black === seat ? " · black token" : "")));
        var stats = el("p", { "class": "wf-stats" }, card);
        el("span", { "class": "wf-rubles" }, stats, p.rubles + " rubles");
        el("span", { "class": "wf-gears" }, stats, p.gears + " gears");
        el("span", { "class": "wf-debts" + (p.debts ? " owed" : "") }, stats, p.debts + " debt" + (p.debts === 1 ? "" : "s"));
        if (p.tokens !== undefined) el("span", { "class": "wf-tokens" }, stats, p.tokens + " tokens");

        // The player board: four rows of five tokens; removed ones leave an empty spot.
        var cols = data.board.columns;
        var root = svg("svg", { viewBox: "0 0 " + (70 + cols * 20) + " 92", "class": "wf-pboard", role: "img",
          "aria-label": wf.label(data, seat) + "'s board: tokens removed " + data.board.sections.map(function (s, r) { return s + " " + p.removed[r]; }).join(", ") + "; bribe " + p.bribe }, card);
        data.board.column_costs.forEach(function (cost, c) {
          svg("text", { x: 70 + c * 20 + 9, y: 9, "text-anchor": "middle", "class": "wf-cost" + (c === p.removed.reduce(function (a, b) { return Math.max(a, b); }, 0) - 1 ? " bribe" : "") }, root).textContent = cost;
        });
        data.board.sections.forEach(function (name, r) {
          svg("text", { x: 0, y: 24 + r * 19, "class": "wf-row-name" }, root).textContent = name.replace("foreman's ", "");
          for (var c = 0; c < cols; c++) {
            var gone = c < p.removed[r];
            svg("circle", { cx: 70 + c * 20 + 9, cy: 20 + r * 19, r: 6.5, "class": gone ? "wf-slot" : "wf-token", fill: gone ? "none" : wf.fill(frame, seat) }, root);
          }
        });
        el("p", { "class": "wf-small" }, card, "bribe " + p.bribe + " · board points " + p.board_points);

        var crates = el("p", { "class": "wf-crates" }, card);
        if (!p.crates.length) crates.textContent = "no crates";
        p.crates.forEach(function (value) {
          el("span", { "class": "wf-crate c" + Math.floor((value - 1) / 3), title: data.board.crate_colours[Math.floor((value - 1) / 3)] + " " + value }, crates, String(value));
        });
        if (frame.solo) return; // no documents in the solo game
        var docs = el("p", { "class": "wf-docs" }, card);
        el("span", { "class": "wf-hand-count" }, docs, p.hand + " document" + (p.hand === 1 ? "" : "s") + " in hand (face down)");
        p.played.forEach(function (doc) {
          el("span", { "class": "wf-doc", style: "background:" + (DOC_FILL[doc.colour] || "#777"), title: doc.colour + ": " + doc.kind }, docs, KIND_SHORT[doc.kind] || doc.kind);
        });
        var secret = wf.privateOf(data, frame, seat);
        if (secret) wf.drawPrivate(card, data, secret);
      });
    },

    /* -- what only one seat saw: present only for its bot's owner and staff ------------------ */
    privateOf: function (data, frame, seat) {
      var layers = data["private"] && data["private"][String(seat)];
      var layer = layers ? layers[frame.ply] : null;
      return layer && Object.keys(layer).length ? layer : null;
    },

    secretDocs: function (parent, docs) {
      docs.forEach(function (doc) {
        el("span", {
          "class": "wf-doc wf-secret-doc", "data-card": String(doc.card),
          style: "background:" + (DOC_FILL[doc.colour] || "#777"), title: "document " + doc.card + ", " + doc.colour + ": " + doc.kind
        }, parent, doc.colour + " " + (KIND_SHORT[doc.kind] || doc.kind));
      });
    },

    drawPrivate: function (card, data, secret) {
      var box = el("div", { "class": "wf-private" }, card);
      el("p", { "class": "wf-private-note" }, box, "Only you see this (hidden from the other players)");
      if (secret.hand) {
        var hand = el("p", { "class": "wf-docs wf-private-hand" }, box);
        el("span", { "class": "wf-private-label" }, hand, secret.hand.length ? "Hand:" : "Hand: no document");
        wf.secretDocs(hand, secret.hand);
      }
      if (secret.searching) {
        var searching = el("p", { "class": "wf-docs wf-private-searching" }, box);
        el("span", { "class": "wf-private-label" }, searching, "Searching the files, choosing among:");
        wf.secretDocs(searching, secret.searching);
      }
      if (secret.watch_set) {
        el("p", { "class": "wf-private-watch" }, box, "Watch cards set face down for next round: " + secret.watch_set.join(", "));
      }
      if (secret.next_market) {
        var m = secret.next_market;
        el("p", { "class": "wf-private-market" }, box, "Next market card (peeked): card " + m.card + " — " + m.eyes + " eye" +
          (m.eyes === 1 ? "" : "s") + ", sell gears +" + m.dock_rubles + " rubles, overtime +" + m.workshop_gears +
          " gears, scrounge +" + m.warehouse_gears + " gears +" + m.warehouse_rubles + " rubles");
      }
    },

    drawScores: function (box, data, frame) {
      if (!frame.scores) return;
      var lines = SCORE_LINES.filter(function (line) { return frame.scores[0][line] !== undefined; });
      var table = el("table", { "class": "data wf-scores" }, box);
      el("caption", {}, table, "Final score" + (frame.title ? ": “" + frame.title + "”" : ""));
      var head = el("tr", {}, el("thead", {}, table));
      el("th", { scope: "col" }, head, "");
      frame.scores.forEach(function (s, seat) { el("th", { scope: "col", "class": "num" }, head, wf.label(data, seat)); });
      var body = el("tbody", {}, table);
      lines.concat(["total"]).forEach(function (line) {
        var tr = el("tr", { "class": line === "total" ? "wf-total" : "" }, body);
        el("th", { scope: "row" }, tr, line);
        frame.scores.forEach(function (s) { el("td", { "class": "num" }, tr, String(s[line])); });
      });
    },

    moveText: function (data, frame) {
      var move = frame.move;
      if (!move) return "The factory opens: the referee reveals the first market card" + (frame.solo ? " and the solo card." : " and deals each player a document.");
      var text = move.worker === null ? "Referee: " + move.notation
        : (move.worker === frame.pawn ? frame.pawn_name.charAt(0).toUpperCase() + frame.pawn_name.slice(1) : wf.who(data, move.worker)) + ": " + move.notation;
      return text;
    },

    draw: function (box, data, frame) {
      box.textContent = "";
      box.classList.add("watch-factory");
      box.removeAttribute("aria-hidden");
      el("p", { "class": "wf-round" }, box, "Round " + frame.round + " of " + data.board.rounds + " — " + (PHASES[frame.phase] || frame.phase) +
        (frame.step && frame.step !== "place worker" ? " (" + frame.step + ")" : ""));
      el("p", { "class": "wf-move" + (frame.move && frame.move.hidden ? " hidden-move" : "") + (frame.move && frame.move.worker === null ? " referee" : "") }, box, wf.moveText(data, frame));
      var top = el("div", { "class": "wf-top" }, box);
      wf.drawFace(top, data, frame);
      wf.drawSide(top, data, frame);
      wf.drawScores(box, data, frame);
      wf.drawPlayers(box, data, frame);
      wf.drawTracks(box, data, frame);
    },

    status: function (data, frame, last) {
      if (frame.phase === "over" && frame.scores) {
        if (frame.solo) {
          return wf.who(data, 0) + " scores " + frame.scores[0].total + (frame.title ? ": " + frame.title : ": below every benchmark") + ".";
        }
        var reason = (data.reasons && data.reasons[frame.reason]) || data.board.reasons[frame.reason] || frame.reason;
        var names = frame.winners.map(function (seat) { return wf.who(data, seat) + " " + frame.scores[seat].total; });
        return names.join(" and ") + (frame.winners.length > 1 ? " win: " : " wins: ") + reason + ".";
      }
      if (last && data.ending) return data.ending + ".";
      if (frame.to_move === null) return "Round " + frame.round + ": the referee draws.";
      return wf.who(data, frame.to_move) + " to decide: " + (frame.step || PHASES[frame.phase] || frame.phase) + ".";
    }
  };

  window.ArenaReplay.register("watch_factory", wf);
})();
