"""Watching Us' replay frames and board facts (its declaration names them).

One frame per state, rebuilt by ``replays.replay_state`` from the recorded
actions (chance included). A frame holds only what the whole table sees; what
one seat alone saw is its private layer (:func:`private`), which the series
page sends only to the owner of that seat's bot and to staff, and the recorded
notation of a secret move is replaced by :func:`public_moves` for everyone
else (the page's move list, the public download, the API).

What a frame shows: the Locations (Adjective + Place, who stands where), each
Character with its HP (dead ones marked), Ritual Dice and Items, the monster
line (each Adversary with its HP left and To Hit, the Proxies, the slain, the
last Monster that attacked), the Time Tracker, the Ritual of the turn (the two
drawn, the one performed, its success or failure, the dice rolled at which
Monster and the damage they did), whose decision it is, the log, who holds the
GM seat (or "the built-in GM") and, at the end, who won and why.

Kept out of the frames (and worded in :func:`public_moves`):

- the cards dealt to a player before it chooses its Character (a count);
- the order in which the GM put the two returned Monsters back on the deck
  (the table knows which two, not which is on top);
- a Monster a player peeked at on top of the deck (the frame says who has
  seen how many top cards, never which).

A seat's private layer, per frame: its dealt cards before the choice, and the
top Monster cards it knows in deck order (a peek; for the GM, the returned
Monsters as it arranged them).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engines.watching_us.data import CHARACTERS, DIFFICULTY, LOCATIONS, MONSTERS, RITUALS, TIMES, Effect
from engines.watching_us.game import (
    DEAL,
    DIE,
    DRAW_RIT,
    INFO,
    JUDGE_OK,
    PICK,
    RITUAL,
    ROLL,
    SUCCEED,
    TARGET,
    VOTE,
    WatchingUsState,
)

#: How the pages name the engine's own GM when no GM seat is at the table (the declaration's label).
BUILTIN_GM = "the built-in GM"

#: The log lines a frame keeps (the newest); the engine keeps 40.
LOG_LINES = 14

_ROLL_LINE = re.compile(r"rolls \[([\d, ]*)\] \(as \[([\d, ]*)\]\) at (.+): (\d+) damage$")
_GAINS = re.compile(r"the Ritual (succeeds|fails): .* gains (\d+) Ritual Dice$")

_TARGETS = {
    "active": "the active Character",
    "self": "the active Character",
    "all": "every Character",
    "location": "everyone at the active Character's Location",
    "gm": "a Character of the GM's choice",
    "monsters": "the Adversary and every Proxy",
    "players": "the table",
}


def effect_words(effect: Effect) -> str:
    """Return one effect in words ("1 damage to every Character")."""
    kind, amount, target = effect.kind, effect.amount, _TARGETS.get(effect.target, effect.target)
    if kind == "damage":
        return f"{amount} damage to {target}"
    if kind == "heal":
        return f"{target} heals {amount} HP"
    if kind == "gain_dice":
        return f"{target} gains {amount} Ritual {'Die' if amount == 1 else 'Dice'}"
    if kind == "lose_dice":
        return f"{target} loses {amount} Ritual {'Die' if amount == 1 else 'Dice'}"
    if kind == "travel":
        return f"{target} Travels {amount} time{'s' if amount != 1 else ''}"
    if kind == "peek":
        return f"{target} looks at the top {amount} Monster card{'s' if amount != 1 else ''}"
    if kind == "advance_time":
        return "time advances"
    if kind == "draw_item":
        return f"{target} draws an Item"
    if kind == "monster_heal":
        return f"the Monsters heal {amount} HP"
    if kind == "lose_unless":
        return "the players lose unless the table has what it asks"
    return f"{kind} {amount} {target}"


def attack_words(card: int) -> str:
    """Return a Monster's Attack box in words: the card text's own when it has one, else its effects."""
    text = MONSTERS[card].text
    if "Attack:" in text:
        return text.split("Attack:", 1)[1].strip()
    return "; ".join(effect_words(e) for e in MONSTERS[card].attack) or "no effect"


def board(config: Mapping[str, Any]) -> dict[str, Any]:
    """Return the static drawing facts: the times of day, the cards' texts, the reasons, the GM's label."""
    return {
        "times": list(TIMES),
        "gm": config.get("gm", "seat"),
        "builtin_label": BUILTIN_GM,
        "max_turns": config.get("max_turns"),
        "monsters": [
            {"number": m.number, "name": m.name, "types": list(m.types), "hp": m.hp, "to_hit": m.to_hit, "text": m.text}
            for m in MONSTERS
        ],
        "rituals": [_ritual(r) for r in range(len(RITUALS))],
        "characters": [
            {"number": c.number, "character": c.character, "hp": c.hp, "item": c.item, "text": c.text}
            for c in CHARACTERS
        ],
        "locations": [
            {"number": loc.number, "adjective": loc.adjective, "place": loc.place, "text": loc.text}
            for loc in LOCATIONS
        ],
        "reasons": dict(INFO.reasons),
    }


def _ritual(card: int) -> dict[str, Any]:
    ritual = RITUALS[card]
    return {
        "card": card,
        "number": ritual.number,
        "element": ritual.element,
        "instructions": ritual.instructions,
        "difficulty": ritual.difficulty,
        "chance": DIFFICULTY[ritual.difficulty],
        "judge": ritual.judge,
        "success_dice": ritual.success_dice,
        "failure_dice": ritual.failure_dice,
    }


# -- the moves in public words ---------------------------------------------------------------------


def move_text(before: WatchingUsState, action: int) -> dict[str, Any]:
    """Return the move ``action`` from ``before`` as the table saw it: who, and its notation or a public wording."""
    notation = before.action_to_string(action)
    need = before.need
    assert need is not None
    if need[0] == "chance":
        kind, dest = need[1], need[3]
        if kind == "char" and dest and dest[0] == "hand":
            return {"seat": None, "notation": f"P{dest[1]} is dealt a card (face down)", "hidden": True}
        if kind == "mon" and dest and dest[0] == "peek":
            peeker = next((task[1] for task in before.queue if task[0] == "peek"), None)
            who = "a player" if peeker is None else f"P{peeker}"
            return {"seat": None, "notation": f"{who} looks at the top of the Monster deck (face down)", "hidden": True}
        words = notation
        if kind == "char":
            item = CHARACTERS[action - DEAL].item
            if dest and dest[0] == "item":
                words = f"P{dest[1]} draws the Item {item}"
            else:
                words = f"the investigation turns up the Item {item}"
        elif kind == "mon":
            words = f"flips {notation}" if dest and dest[0] == "flip" else f"draws {notation}"
        elif kind == "rit":
            words = "draws " + _ritual_name(action - DRAW_RIT)
        elif kind == "die":
            words = f"a Ritual Die shows {action - DIE + 1}"
        elif kind == "ritual":
            words = "the Ritual succeeds" if action == SUCCEED else "the Ritual fails"
        return {"seat": None, "notation": words, "hidden": False}
    step, seat = need[3], need[1]
    if step == "order":
        return {
            "seat": seat,
            "notation": "puts the two other Monsters back on top of the deck (in an order only the GM knows)",
            "hidden": True,
            "step": step,
        }
    if step == "choose":
        return {"seat": seat, "notation": "chooses a Character among the dealt cards", "hidden": True, "step": step}
    words = notation
    if step == "vote" and before.vote_kind == "adversary":
        words = f"votes for {MONSTERS[before.offer[action - VOTE]].name} as the Adversary"
    elif step == "vote":
        option = action - VOTE
        adj, place = before.offer[option], before.offer[1 - option]
        words = f"votes for the {LOCATIONS[adj].adjective} {LOCATIONS[place].place}"
    elif step == "pick":
        words = "performs " + _ritual_name(before.offer[action - PICK])
    elif step == "judge":
        words = "judges the Ritual: " + ("it succeeded" if action == JUDGE_OK else "it failed")
    elif step == "roll":
        k = action - ROLL + 1
        words = f"rolls {k} Ritual {'Die' if k == 1 else 'Dice'}"
    elif step == "target" and action >= TARGET and action < TARGET + len(MONSTERS):
        words = f"aims at {MONSTERS[action - TARGET].name}"
    return {"seat": seat, "notation": words, "hidden": False, "step": step}


def _ritual_name(card: int) -> str:
    ritual = RITUALS[card]
    return f"Ritual {ritual.number}/30 ({ritual.element})"


def public_moves(states: Sequence[WatchingUsState], actions: Sequence[int]) -> list[str | None]:
    """Return, per action, None for a public move, or its public words for a hidden one ("P1 is dealt a card").

    The recorded notation of a hidden move names what only one seat (or nobody at the
    table) saw: a dealt card, the slot a player chose from its hand, a peeked Monster,
    which returned Monster the GM put on top.
    """
    out: list[str | None] = []
    for before, action in zip(states, actions, strict=False):
        move = move_text(before, action)
        if not move["hidden"]:
            out.append(None)
        elif move["seat"] is None:
            out.append(move["notation"])
        else:
            out.append(f"P{move['seat']} {move['notation']}")
    return out


# -- the frames ----------------------------------------------------------------------------------------


def frames(states: Sequence[WatchingUsState], actions: Sequence[int]) -> list[dict[str, Any]]:
    """Return one frame per state, each with the move that led to it in public words.

    Two things the state forgets are carried from ply to ply: the turn's Ritual (drawn,
    performed, judged, rolled) and the last Monster flipped (an Attack or a new Proxy).
    """
    ritual: dict[str, Any] | None = None
    flip: dict[str, Any] | None = None
    attack: dict[str, Any] | None = None
    out = [_frame(states[0], 0, ritual, flip, attack)]
    for ply, action in enumerate(actions, start=1):
        before, after = states[ply - 1], states[ply]
        ritual = _follow_ritual(ritual, before, action, after)
        flipped = _flipped(before, after)
        if flipped is not None:
            flip = flipped
            if flipped["as"] == "attack":
                attack = flipped
        frame = _frame(after, ply, ritual, flip, attack)
        frame["move"] = move_text(before, action)
        out.append(frame)
    return out


def _flipped(before: WatchingUsState, after: WatchingUsState) -> dict[str, Any] | None:
    """Return the Monster flipped during this ply and what it did (attacked, became a Proxy), or None."""
    old = [card for card, _ in before.proxies]
    new = [card for card, _ in after.proxies if card not in old]
    if new:
        card = new[-1]
        return {"card": card, "name": MONSTERS[card].name, "as": "proxy", "turn": after.turn}
    discard = after.mon_discard
    if discard and discard != before.mon_discard and discard[:-1] in (before.mon_discard, []):
        card = discard[-1]
        return {
            "card": card,
            "name": MONSTERS[card].name,
            "as": "attack",
            "turn": after.turn if after.active == before.active else before.turn + 1,
            "attack": attack_words(card),
        }
    return None


def _follow_ritual(
    record: dict[str, Any] | None, before: WatchingUsState, action: int, after: WatchingUsState
) -> dict[str, Any] | None:
    """Return the turn's Ritual record after ``action``: a new one when a Ritual starts, else the same one updated."""
    need = before.need
    assert need is not None
    if need[0] == "decide" and need[3] == "action" and action == RITUAL:
        return {
            "by": before.active,
            "turn": before.turn,
            "drawn": [],
            "chosen": None,
            "result": None,
            "judged_by": None,
            "dice_gained": None,
            "target": None,
            "dice": 0,
            "rolled": [],
            "values": None,
            "damage": None,
            "killed": False,
            "done": False,
        }
    if record is None or record["done"]:
        return record
    record = dict(record, drawn=list(record["drawn"]), rolled=list(record["rolled"]))
    kind = need[1] if need[0] == "chance" else need[3]
    if need[0] == "chance" and kind == "rit":
        record["drawn"].append(action - DRAW_RIT)
    if record["drawn"] and record["chosen"] is None and not after.offer and after.ritual >= 0:
        record["chosen"] = after.ritual
    if (need[0] == "chance" and kind == "ritual") or (need[0] == "decide" and kind == "judge"):
        record["result"] = "success" if action in (SUCCEED, JUDGE_OK) else "failure"
        if kind == "judge":
            record["judged_by"] = need[1]
        for line in reversed(after.log):
            gained = _GAINS.search(line)
            if gained:
                record["dice_gained"] = int(gained.group(2))
                break
    elif need[0] == "decide" and kind == "target":
        if TARGET <= action < TARGET + len(MONSTERS):
            record["target"] = MONSTERS[action - TARGET].name
        else:
            record["target"] = None
            record["done"] = True  # "no roll"
    elif need[0] == "decide" and kind == "roll":
        record["dice"] = action - ROLL + 1
    elif need[0] == "chance" and kind == "die":
        record["rolled"].append(action - DIE + 1)
        if len(record["rolled"]) >= record["dice"]:
            for line in reversed(after.log):
                rolled = _ROLL_LINE.search(line)
                if rolled:
                    record["values"] = [int(v) for v in rolled.group(2).split(",") if v.strip()]
                    record["damage"] = int(rolled.group(4))
                    break
            target = record["target"]
            record["killed"] = any(MONSTERS[card].name == target for card in after.slain[len(before.slain) :])
            record["done"] = True
    if after.active != record["by"] or after.turn != record["turn"] or after.is_terminal():
        record["done"] = True
    return record


def _monster(state: WatchingUsState, card: int, hp: int, adversary: bool) -> dict[str, Any]:
    monster = MONSTERS[card]
    return {
        "card": card,
        "name": monster.name,
        "types": list(monster.types),
        "hp": hp,
        "max_hp": state.monster_hp(card, adversary),
        "to_hit": str(state.to_hit(card, adversary)),
    }


def _offer(state: WatchingUsState) -> dict[str, Any] | None:
    """Return the cards face up on the table for a choice (a vote, an Item to give, Rituals, a new Location)."""
    if not state.offer:
        return None
    step = state.step
    need = state.need
    if step in ("vote", "tiebreak"):
        kind = state.vote_kind
    elif step == "give":
        kind = "item"
    elif step == "pick":
        kind = "ritual"
    elif step == "adj":
        kind = "location"
    elif step == "order":
        kind = "adversary"
    elif need is not None and need[0] == "chance":
        kind = {"loc": "location", "mon": "adversary", "char": "item", "rit": "ritual"}.get(need[1], "")
    else:
        kind = ""
    if kind == "ritual":
        return {"kind": kind, "cards": [_ritual_name(card) for card in state.offer], "rituals": list(state.offer)}
    if kind == "location":
        return {"kind": kind, "cards": [f"{LOCATIONS[c].adjective} / {LOCATIONS[c].place}" for c in state.offer]}
    if kind == "item":
        return {"kind": kind, "cards": [CHARACTERS[card].item for card in state.offer]}
    if kind == "adversary":
        return {"kind": kind, "cards": [MONSTERS[card].name for card in state.offer]}
    return None


def _frame(
    state: WatchingUsState,
    ply: int,
    ritual: dict[str, Any] | None,
    flip: dict[str, Any] | None,
    attack: dict[str, Any] | None,
) -> dict[str, Any]:
    current = state.current_player()
    started = state.turn > 0
    characters = []
    for p in range(state.P):
        card = state.character[p]
        characters.append(
            {
                "seat": p,
                "character": CHARACTERS[card].character if card >= 0 else None,
                "card": card if card >= 0 else None,
                "hp": state.hp[p],
                "max_hp": state.max_hp(p) if card >= 0 and started else None,
                "dice": state.dice[p],
                "alive": state.alive[p],
                "dead": started and not state.alive[p],
                "location": state.loc[p] if state.locations else None,
                "items": [CHARACTERS[c].item for c in state.items[p]],
                "dealt": len(state.hands[p]),  # a count: the dealt cards are secret until the choice
                "damage": state.damage_dealt[p],
            }
        )
    locations = [
        {
            "index": index,
            "adjective": LOCATIONS[adj].adjective,
            "place": LOCATIONS[place].place,
            "name": state.location_name(index),
            "here": [p for p in range(state.P) if state.character[p] >= 0 and state.loc[p] == index],
        }
        for index, (adj, place) in enumerate(state.locations)
    ]
    frame: dict[str, Any] = {
        "ply": ply,
        "turn": state.turn,
        "max_turns": state.config["max_turns"],
        "time": state.time,
        "time_name": TIMES[state.time],
        "started": started,
        "active": state.active if started else None,
        "step": state.step,
        "to_move": current if current >= 0 else None,
        "num_players": state.num_players,
        "player_seats": state.P,
        "gm_seat": state.gm_seat,
        "gm": BUILTIN_GM if state.gm_seat is None else f"P{state.gm_seat}",
        "locations": locations,
        "characters": characters,
        "adversaries": [_monster(state, card, hp, True) for card, hp in state.adversaries],
        "proxies": [_monster(state, card, hp, False) for card, hp in state.proxies],
        "slain": [MONSTERS[card].name for card in state.slain],
        "monster_deck": len(state.mon_deck) + len(state.mon_top),
        "monster_discard": len(state.mon_discard),
        # The two Monsters the GM put back are known as a pair, never in which order.
        "returned_on_top": sorted(MONSTERS[card].name for card in state.returned),
        # Who has seen each known top card of the Monster deck (never which card it is).
        "top_seen_by": [sorted(knowers) for _, knowers in state.mon_top],
        "ritual_deck": len(state.rit_deck),
        "location_deck": len(state.loc_deck) + len(state.loc_bottom),
        "character_deck": len(state.char_deck),
        "offer": _offer(state),
        "votes": list(state.votes) if state.step in ("vote", "tiebreak") else None,
        "vote_kind": state.vote_kind or None,
        "ritual": ritual,
        "last_flip": flip,
        "last_attack": attack,
        "extra_adversaries_left": state.chain_left,
        "log": state.log[-LOG_LINES:],
        "move": None,
    }
    outcome = state.outcome()
    if outcome is not None:
        frame["result"] = {
            "reason": outcome.reason,
            "reason_words": dict(INFO.reasons).get(outcome.reason, outcome.reason),
            "why": state.log[-1] if state.log else "",
            "players_won": any(seat < state.P for seat in outcome.winners),
            "winners": list(outcome.winners),
            "turns": state.turn,
            "damage": list(state.damage_dealt),
        }
    return frame


# -- what one seat alone saw ---------------------------------------------------------------------------


def private(states: Sequence[WatchingUsState], actions: Sequence[int], seat: int) -> list[dict[str, Any]]:
    """Return, per frame, what only ``seat`` saw: its dealt cards before the choice, the top Monsters it knows."""
    return [_private(state, seat) for state in states]


def _private(state: WatchingUsState, seat: int) -> dict[str, Any]:
    if not 0 <= seat < state.num_players:
        return {}
    layer: dict[str, Any] = {}
    if seat < state.P and state.hands[seat]:
        layer["dealt"] = [
            {"card": card, "character": CHARACTERS[card].character, "item": CHARACTERS[card].item}
            for card in state.hands[seat]
        ]
    known = [
        {"position": position, "card": card, "name": MONSTERS[card].name}
        for position, (card, knowers) in enumerate(state.mon_top)
        if seat in knowers
    ]
    if known:
        layer["known_top"] = known
    return layer
