/* The Watching Us replay renderer (engines/watching_us/viewer.py builds its frames): the Time Tracker
 * (Morning → Afternoon → Evening → Night) and the turn, who holds the GM seat (or the built-in GM), the monster
 * line (each Adversary with its HP left and To Hit, the Proxies, the slain, the last Attack), the turn's Ritual
 * (the two drawn, the one performed, its success or failure, the Ritual Dice rolled and the damage they did), the
 * Locations (Adjective + Place, who stands where), each Character with HP, Ritual Dice and Items (the dead marked),
 * the log and, at the end, who won and why. Frames hold only what the whole table sees: cards dealt before the
 * choice are a count, a peeked Monster is "seen by P1", never named. A seat's private layer
 * (data.private[seat][ply], sent only to the owner of its bot and to staff) adds, marked "only you see this", its
 * dealt cards and the top Monster cards it knows (the GM: the returned Monsters in the order it put them back).
 * Served as games/watching_us/viewer.js after web/replay.js (ArenaReplay). */
(function () {
  "use strict";

  var el = window.ArenaReplay.el;
  var svg = window.ArenaReplay.svg;
  var SEAT_FILL = ["#c62828", "#1565c0", "#2e7d32", "#8e24aa", "#ef6c00", "#455a64"];
  var STEPS = {
    choose: "choose a Character", vote: "vote", tiebreak: "settle the tied vote", order: "order the returned Monsters",
    gm_pick: "pick a Character to suffer an effect", action: "choose an action", give: "give the Item",
    pick: "pick a Ritual", judge: "judge the Ritual", target: "aim the Ritual Dice", roll: "choose how many dice",
    travel: "Travel", adj: "pick the new Location's Adjective", revive: "revive with an Item",
    "char": "a Character/Item card is drawn", loc: "a Location card is drawn", mon: "a Monster card is drawn",
    rit: "a Ritual card is drawn", die: "a Ritual Die is rolled", ritual: "the Ritual's success is drawn",
    table: "the table's condition is drawn"
  };

  var wu = {
    label: function (data, seat) { return (data.seat_labels && data.seat_labels[seat]) || ("P" + seat); },
    who: function (data, seat) {
      var name = data.players && data.players[seat];
      return wu.label(data, seat) + (name ? " (" + name + ")" : "");
    },
    charName: function (data, frame, seat) {
      var c = frame.characters[seat];
      return wu.label(data, seat) + (c && c.character ? " " + c.character : "");
    },
    ritualName: function (data, card) {
      var r = data.board.rituals[card];
      return "Ritual " + r.number + "/30 (" + r.element + ")";
    },
    privateOf: function (data, frame, seat) {
      var layers = data["private"] && data["private"][String(seat)];
      var layer = layers ? layers[frame.ply] : null;
      return layer && Object.keys(layer).length ? layer : null;
    },

    /* -- the Time Tracker, the turn, the GM ------------------------------------------------ */
    drawHeader: function (box, data, frame) {
      var head = el("div", { "class": "wu-header" }, box);
      el("p", { "class": "wu-turn" }, head, frame.started
        ? "Turn " + frame.turn + " of at most " + frame.max_turns + " — " + wu.who(data, frame.active) + "'s turn"
        : "Setting up: dealing Characters, voting the Location and the Adversary");
      var tracker = el("ol", { "class": "wu-time", "aria-label": "Time Tracker: " + frame.time_name }, head);
      data.board.times.forEach(function (name, index) {
        el("li", { "class": "wu-time-step" + (index === frame.time ? " now" : ""), "aria-current": index === frame.time ? "true" : "false" }, tracker, name);
      });
      el("p", { "class": "wu-gm" }, head, "GM: " + (frame.gm_seat === null ? data.board.builtin_label : wu.who(data, frame.gm_seat)));
    },

    /* -- the monster line ------------------------------------------------------------------ */
    monsterCard: function (parent, monster, kind) {
      var card = el("div", { "class": "wu-monster " + kind, "data-monster": monster.name }, parent);
      el("p", { "class": "wu-monster-name" }, card, (kind === "adversary" ? "Adversary: " : "Proxy: ") + monster.name);
      el("p", { "class": "wu-monster-types" }, card, monster.types.join(" / "));
      var hp = el("p", { "class": "wu-monster-hp" }, card);
      var bar = svg("svg", { viewBox: "0 0 " + (monster.max_hp * 14) + " 12", "class": "wu-hp-bar", role: "img", "aria-label": monster.hp + " of " + monster.max_hp + " HP" }, hp);
      for (var i = 0; i < monster.max_hp; i++) {
        svg("rect", { x: i * 14 + 1, y: 1, width: 12, height: 10, rx: 2, "class": i < monster.hp ? "full" : "lost" }, bar);
      }
      hp.appendChild(document.createTextNode(" " + monster.hp + "/" + monster.max_hp + " HP left"));
      el("p", { "class": "wu-to-hit" }, card, "To Hit " + monster.to_hit);
    },

    drawMonsters: function (box, data, frame) {
      var line = el("section", { "class": "wu-monsters", "aria-label": "The monster line" }, box);
      el("p", { "class": "wu-heading" }, line, "The monster line");
      var row = el("div", { "class": "wu-monster-row" }, line);
      frame.adversaries.forEach(function (m) { wu.monsterCard(row, m, "adversary"); });
      frame.proxies.forEach(function (m) { wu.monsterCard(row, m, "proxy"); });
      if (!frame.adversaries.length && !frame.proxies.length) {
        el("p", { "class": "wu-small" }, row, frame.started ? "No Monster in play." : "No Adversary chosen yet.");
      }
      if (frame.slain.length) el("p", { "class": "wu-slain" }, line, "Slain: " + frame.slain.join(", "));
      if (frame.last_attack) {
        var a = frame.last_attack;
        el("p", { "class": "wu-attack" }, line, "Last attack (turn " + a.turn + "): " + a.name + " — " + a.attack);
      }
      if (frame.last_flip && frame.last_flip.as === "proxy") {
        el("p", { "class": "wu-small" }, line, "Last flip: " + frame.last_flip.name + " became a Proxy (turn " + frame.last_flip.turn + ")");
      }
      var deck = "Monster deck: " + frame.monster_deck + " cards, " + frame.monster_discard + " discarded";
      if (frame.returned_on_top.length) deck += "; on top, in an order only the GM knows: " + frame.returned_on_top.join(" and ");
      var seen = frame.top_seen_by.filter(function (seats) { return seats.length; });
      if (seen.length) {
        deck += "; top cards seen by " + frame.top_seen_by.map(function (seats, i) {
          return "#" + (i + 1) + " " + (seats.length ? seats.map(function (s) { return wu.label(data, s); }).join("+") : "nobody");
        }).join(", ");
      }
      el("p", { "class": "wu-small wu-deck" }, line, deck);
    },

    /* -- the turn's Ritual ------------------------------------------------------------------- */
    drawRitual: function (box, data, frame) {
      var r = frame.ritual;
      var part = el("section", { "class": "wu-ritual", "aria-label": "The Ritual" }, box);
      if (!r) {
        el("p", { "class": "wu-heading" }, part, "Ritual");
        el("p", { "class": "wu-small" }, part, "No Ritual performed yet.");
        return;
      }
      var current = !r.done;
      el("p", { "class": "wu-heading" }, part, (current ? "Ritual in progress" : "Last Ritual") + " — " + wu.charName(data, frame, r.by) + ", turn " + r.turn);
      if (r.drawn.length) {
        el("p", { "class": "wu-ritual-drawn" }, part, "Drawn: " + r.drawn.map(function (c) { return wu.ritualName(data, c); }).join(" and "));
      }
      if (r.chosen !== null) {
        var info = data.board.rituals[r.chosen];
        el("p", { "class": "wu-ritual-chosen" }, part, "Performed: " + wu.ritualName(data, r.chosen) + ", " + info.difficulty + ": “" + info.instructions + "”");
      }
      if (r.result) {
        el("p", { "class": "wu-ritual-result " + r.result }, part, (r.result === "success" ? "Success" : "Failure") +
          (r.judged_by !== null ? " (judged by " + wu.label(data, r.judged_by) + ")" : "") +
          (r.dice_gained !== null ? ": +" + r.dice_gained + " Ritual " + (r.dice_gained === 1 ? "Die" : "Dice") : ""));
      }
      if (r.target) {
        var dice = el("p", { "class": "wu-dice" }, part);
        el("span", {}, dice, "Rolled " + r.dice + " at " + r.target + ":");
        r.rolled.forEach(function (face, i) {
          var die = el("span", { "class": "wu-die", "data-face": String(face), title: "rolled " + face + (r.values && r.values[i] !== face ? " (counts as " + r.values[i] + ")" : "") }, dice, String(face));
          if (r.values && r.values[i] !== face) el("sub", {}, die, "→" + r.values[i]);
        });
        if (r.damage !== null) {
          el("span", { "class": "wu-damage" + (r.damage ? " hit" : " miss") }, dice,
            r.damage ? r.damage + " damage" + (r.killed ? ": " + r.target + " dies" : "") : "no damage");
        }
      } else if (r.done && r.result) {
        el("p", { "class": "wu-small" }, part, "No dice rolled.");
      }
    },

    /* -- what is face up for a choice ------------------------------------------------------- */
    drawOffer: function (box, data, frame) {
      var o = frame.offer;
      if (!o) return;
      var names = { ritual: "Rituals drawn", location: "Location cards", item: "Item drawn", adversary: "Monsters offered" };
      el("p", { "class": "wu-offer" }, box, (names[o.kind] || "On the table") + ": " + o.cards.join(", "));
    },

    /* -- the Locations and the Characters ---------------------------------------------------- */
    drawLocations: function (box, data, frame) {
      if (!frame.locations.length) return;
      var row = el("div", { "class": "wu-locations" }, box);
      frame.locations.forEach(function (loc) {
        var card = el("div", { "class": "wu-location", "data-location": String(loc.index) }, row);
        var name = el("p", { "class": "wu-location-name" }, card);
        el("span", { "class": "wu-adjective" }, name, loc.adjective);
        name.appendChild(document.createTextNode(" "));
        el("span", { "class": "wu-place" }, name, loc.place);
        var here = el("p", { "class": "wu-here" }, card);
        if (!loc.here.length) here.textContent = "nobody here";
        loc.here.forEach(function (seat) {
          var c = frame.characters[seat];
          el("span", { "class": "wu-chip" + (c.dead ? " dead" : ""), style: "background:" + SEAT_FILL[seat % SEAT_FILL.length], title: wu.charName(data, frame, seat) }, here, wu.label(data, seat));
        });
      });
    },

    drawCharacters: function (box, data, frame) {
      var grid = el("div", { "class": "wu-characters" }, box);
      var result = frame.result;
      frame.characters.forEach(function (c, seat) {
        var card = el("figure", {
          "class": "wu-character" + (frame.to_move === seat ? " to-move" : "") + (frame.active === seat ? " active" : "") +
            (c.dead ? " dead" : "") + (result && result.players_won ? " winner" : ""),
          "data-seat": String(seat)
        }, grid);
        var caption = el("figcaption", {}, card);
        el("span", { "class": "wu-swatch", style: "background:" + SEAT_FILL[seat % SEAT_FILL.length] }, caption);
        caption.appendChild(document.createTextNode(wu.who(data, seat)));
        el("p", { "class": "wu-character-name" }, card, c.character ? c.character + (c.dead ? " — dead" : "") : "no Character yet");
        if (c.character && frame.started) {
          var stats = el("p", { "class": "wu-stats" }, card);
          el("span", { "class": "wu-hp" + (c.dead ? " dead" : "") }, stats, c.hp + "/" + c.max_hp + " HP");
          el("span", { "class": "wu-ritual-dice" }, stats, c.dice + " Ritual " + (c.dice === 1 ? "Die" : "Dice"));
          if (c.location !== null && frame.locations[c.location]) {
            el("span", { "class": "wu-at" }, stats, "at the " + frame.locations[c.location].name);
          }
        }
        if (c.dealt) el("p", { "class": "wu-small wu-dealt" }, card, c.dealt + " card" + (c.dealt === 1 ? "" : "s") + " dealt (face down)");
        var items = el("p", { "class": "wu-items" }, card);
        if (c.items.length) {
          el("span", { "class": "wu-items-label" }, items, "Items:");
          c.items.forEach(function (item) { el("span", { "class": "wu-item" }, items, item); });
        } else if (c.character) {
          items.textContent = "no Items";
        }
        var secret = wu.privateOf(data, frame, seat);
        if (secret) wu.drawPrivate(card, secret);
      });
      if (frame.gm_seat !== null) {
        var gm = el("figure", { "class": "wu-character wu-gm-seat" + (frame.to_move === frame.gm_seat ? " to-move" : "") + (result && !result.players_won ? " winner" : ""), "data-seat": String(frame.gm_seat) }, grid);
        el("figcaption", {}, gm, wu.who(data, frame.gm_seat) + " — the GM");
        el("p", { "class": "wu-small" }, gm, "Runs the Monster deck and chooses whom the Monsters' effects strike.");
        var layer = wu.privateOf(data, frame, frame.gm_seat);
        if (layer) wu.drawPrivate(gm, layer);
      }
    },

    drawPrivate: function (card, secret) {
      var box = el("div", { "class": "wu-private" }, card);
      el("p", { "class": "wu-private-note" }, box, "Only you see this (hidden from the rest of the table)");
      if (secret.dealt) {
        el("p", { "class": "wu-private-dealt" }, box, "Dealt: " + secret.dealt.map(function (d) { return d.character + " / " + d.item; }).join(", "));
      }
      if (secret.known_top) {
        el("p", { "class": "wu-private-top" }, box, "Top of the Monster deck: " + secret.known_top.map(function (k) { return "#" + (k.position + 1) + " " + k.name; }).join(", "));
      }
    },

    drawResult: function (box, data, frame) {
      var r = frame.result;
      if (!r) return;
      var part = el("section", { "class": "wu-result " + (r.players_won ? "players" : "gm"), "aria-label": "The result" }, box);
      el("p", { "class": "wu-result-head" }, part, (r.players_won ? "The players win" : (frame.gm_seat === null ? data.board.builtin_label.charAt(0).toUpperCase() + data.board.builtin_label.slice(1) + " wins" : "The GM (" + wu.who(data, frame.gm_seat) + ") wins")) + " after " + r.turns + " turn" + (r.turns === 1 ? "" : "s"));
      el("p", { "class": "wu-result-why" }, part, r.why + " — " + ((data.reasons && data.reasons[r.reason]) || r.reason_words));
      el("p", { "class": "wu-small" }, part, "Damage dealt to Monsters: " + r.damage.map(function (d, seat) { return wu.label(data, seat) + " " + d; }).join(", "));
    },

    drawLog: function (box, frame) {
      if (!frame.log.length) return;
      var log = el("div", { "class": "wu-log" }, box);
      el("p", { "class": "wu-heading" }, log, "Log");
      var ul = el("ul", { "class": "wu-plain" }, log);
      frame.log.slice().reverse().forEach(function (line) { el("li", {}, ul, line); });
    },

    moveText: function (data, frame) {
      var move = frame.move;
      if (!move) return "The table sits down: three cards are dealt to each player, face down.";
      return (move.seat === null ? "Referee: " : wu.who(data, move.seat) + ": ") + move.notation;
    },

    draw: function (box, data, frame) {
      box.textContent = "";
      box.classList.add("watching-us");
      box.removeAttribute("aria-hidden");
      wu.drawHeader(box, data, frame);
      el("p", { "class": "wu-move" + (frame.move && frame.move.hidden ? " hidden-move" : "") + (frame.move && frame.move.seat === null ? " referee" : "") }, box, wu.moveText(data, frame));
      wu.drawResult(box, data, frame);
      var top = el("div", { "class": "wu-top" }, box);
      wu.drawMonsters(top, data, frame);
      var side = el("div", { "class": "wu-side" }, top);
      wu.drawRitual(side, data, frame);
      wu.drawOffer(side, data, frame);
      wu.drawLocations(box, data, frame);
      wu.drawCharacters(box, data, frame);
      wu.drawLog(box, frame);
    },

    status: function (data, frame, last) {
      if (frame.result) {
        var r = frame.result;
        var winner = r.players_won ? "The players win" : (frame.gm_seat === null ? data.board.builtin_label + " wins" : "The GM, " + wu.who(data, frame.gm_seat) + ", wins");
        return winner.charAt(0).toUpperCase() + winner.slice(1) + ": " + ((data.reasons && data.reasons[r.reason]) || r.reason_words) + ".";
      }
      if (last && data.ending) return data.ending + ".";
      var step = STEPS[frame.step] || frame.step;
      if (frame.to_move === null) return "The referee draws: " + step + ".";
      return wu.who(data, frame.to_move) + (frame.to_move === frame.gm_seat ? " (GM)" : "") + " to decide: " + step + ".";
    }
  };

  window.ArenaReplay.register("watching_us", wu);
})();
