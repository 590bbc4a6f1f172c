"""Watching Us' replay frames: one per position, JSON-ready, the public table only, each seat's secrets apart.

A frame shows what the whole table sees: the Locations and who stands where, the
Characters with HP, Ritual Dice and Items, the monster line, the Time Tracker,
the turn's Ritual with its dice and damage, the log and the result. The cards
dealt before the choice, the order of the Monsters the GM put back and a peeked
Monster stay out of it (and out of the public words of the moves); a seat's
private layer holds exactly what that seat saw.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engines
from engines.watching_us import viewer
from engines.watching_us.data import CHARACTERS, LOCATIONS, MONSTERS, TIMES
from engines.watching_us.game import DEAL, DIE, DRAW_MON, ORDER, WatchingUsState

GAME = engines.get("watching_us")
CARD_NAMES = [c.character for c in CHARACTERS] + [c.item for c in CHARACTERS] + [m.name for m in MONSTERS]
#: Keys that would hold a secret anywhere in a public frame.
SECRET_KEYS = {"hand", "hands", "known_top", "dealt_cards", "mon_top", "deck_order"}


def played(
    seed: int, num_players: int, config: dict[str, Any] | None = None
) -> tuple[list[WatchingUsState], list[int]]:
    """Return every state and action of a whole random game (chance drawn with its probabilities)."""
    rng = random.Random(seed)
    state = GAME.new_initial_state(seed=seed, num_players=num_players, config=config)
    states, actions = [state.clone()], []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        states.append(state.clone())
        actions.append(action)
    return states, actions


def replay(*moves: str, num_players: int = 3) -> tuple[list[WatchingUsState], list[int]]:
    """Return the states and actions of a game played from notation."""
    state = GAME.new_initial_state(seed=0, num_players=num_players)
    states, actions = [state.clone()], []
    for move in moves:
        action = state.parse_action(move)
        state.apply_checked(action)
        states.append(state.clone())
        actions.append(action)
    return states, actions


def walk(value: Any) -> list[tuple[str, Any]]:
    """Return every (key, value) pair anywhere in a JSON value."""
    found: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((key, item))
            found += walk(item)
    elif isinstance(value, list):
        for item in value:
            found += walk(item)
    return found


GAMES = [
    pytest.param(seed, seats, config, id=f"{'builtin' if config else 'gm-seat'}-{seats}-seed{seed}")
    for seed, seats, config in (
        (0, 3, None),
        (4, 4, None),
        (3, 6, None),
        (0, 2, {"gm": "builtin"}),
        (3, 2, {"gm": "builtin"}),
        (2, 5, {"gm": "builtin"}),
    )
]


@pytest.mark.parametrize(("seed", "seats", "config"), GAMES)
def test_one_json_frame_per_position_with_the_public_table(seed: int, seats: int, config: Any) -> None:
    states, actions = played(seed, seats, config)
    frames = viewer.frames(states, actions)
    assert len(frames) == len(states)
    assert [frame["ply"] for frame in frames] == list(range(len(states)))
    assert json.loads(json.dumps(frames)) == frames
    assert json.loads(json.dumps(viewer.board(GAME.merged_config(config)))) is not None
    builtin = bool(config)
    for frame, state in zip(frames, states, strict=True):
        assert frame["gm_seat"] == (None if builtin else seats - 1)
        assert frame["gm"] == ("the built-in GM" if builtin else f"P{seats - 1}")
        assert (frame["turn"], frame["time_name"]) == (state.turn, TIMES[state.time])
        assert [loc["name"] for loc in frame["locations"]] == [
            f"{LOCATIONS[a].adjective} {LOCATIONS[p].place}" for a, p in state.locations
        ]
        for loc in frame["locations"]:
            assert loc["here"] == [
                p for p in range(state.P) if state.character[p] >= 0 and state.loc[p] == loc["index"]
            ]
        assert len(frame["characters"]) == state.P
        for p, character in enumerate(frame["characters"]):
            assert (character["hp"], character["dice"], character["alive"]) == (
                state.hp[p],
                state.dice[p],
                state.alive[p],
            )
            assert character["dead"] == (state.turn > 0 and not state.alive[p])
            assert character["items"] == [CHARACTERS[c].item for c in state.items[p]]
            assert character["dealt"] == len(state.hands[p])
        assert [(m["name"], m["hp"]) for m in frame["adversaries"]] == [
            (MONSTERS[c].name, hp) for c, hp in state.adversaries
        ]
        assert [m["to_hit"] for m in frame["adversaries"]] == [str(state.to_hit(c, True)) for c, _ in state.adversaries]
        assert [(m["name"], m["hp"]) for m in frame["proxies"]] == [(MONSTERS[c].name, hp) for c, hp in state.proxies]
        assert frame["log"] == state.log[-viewer.LOG_LINES :]
    assert frames[0]["move"] is None
    assert all(frame["move"]["notation"] for frame in frames[1:])
    # The time tracker moved, a Monster attacked, and a Ritual was drawn and performed in these games.
    assert len({frame["time_name"] for frame in frames}) > 1
    assert any(frame["last_attack"] for frame in frames) or frames[-1]["turn"] <= 2


def test_a_ritual_shows_its_draw_choice_result_dice_and_damage() -> None:
    rolled = []
    for seed in range(6):
        states, actions = played(seed, 3)
        frames = viewer.frames(states, actions)
        for ply, frame in enumerate(frames):
            ritual = frame["ritual"]
            if not ritual or not ritual["rolled"] or not ritual["done"] or frames[ply - 1]["ritual"] == ritual:
                continue
            assert len(ritual["drawn"]) == 2
            assert ritual["chosen"] in ritual["drawn"]
            assert ritual["result"] in ("success", "failure")
            assert ritual["dice_gained"] is not None
            assert len(ritual["rolled"]) == ritual["dice"]
            assert all(1 <= face <= 6 for face in ritual["rolled"])
            # The damage is what the target's To Hit gives the dice (as modified), as the engine reckons it.
            before = states[ply - 1]
            p = ritual["by"]
            entry, adversary = before._monster_entry(
                next(c for c in range(len(MONSTERS)) if MONSTERS[c].name == ritual["target"])
            )
            assert entry is not None
            bonus = sum(e.amount for e in before.passives(p, "roll_bonus"))
            assert ritual["values"] == [face + bonus for face in ritual["rolled"]]
            damage = before.to_hit(entry[0], adversary).damage(ritual["values"], proxy=not adversary)
            if damage:
                damage += sum(e.amount for e in before.passives(p, "extra_damage"))
            assert ritual["damage"] == damage
            assert ritual["killed"] == (MONSTERS[entry[0]].name in frame["slain"] and damage >= entry[1])
            rolled.append(ritual)
    assert rolled, "no Ritual rolled its dice in six games"
    assert any(r["damage"] for r in rolled)
    assert any(not r["damage"] for r in rolled)


@pytest.mark.parametrize(("seed", "seats", "config"), GAMES)
def test_nothing_hidden_reaches_a_public_frame_or_a_public_move(seed: int, seats: int, config: Any) -> None:
    states, actions = played(seed, seats, config)
    frames = viewer.frames(states, actions)
    words = viewer.public_moves(states, actions)
    assert len(words) == len(actions)
    for frame, state in zip(frames, states, strict=True):
        assert not SECRET_KEYS & {key for key, _ in walk(frame)}
        text = json.dumps(frame)
        # A card still in a dealt hand is named nowhere in the frame (it is in no other public place yet).
        for hand in state.hands:
            for card in hand:
                assert CHARACTERS[card].character not in text, (frame["ply"], card)
        # A Monster known on top of the deck is named only as one of the returned pair.
        for card, _knowers in state.mon_top:
            if card not in state.returned:
                assert MONSTERS[card].name not in text, (frame["ply"], MONSTERS[card].name)
        assert all(
            isinstance(seats_, list) and all(isinstance(s, int) for s in seats_) for seats_ in frame["top_seen_by"]
        )
    for ply, (before, action) in enumerate(zip(states, actions, strict=False), start=1):
        need = before.need
        assert need is not None
        secret = (
            (need[0] == "chance" and need[1] == "char" and need[3][0] == "hand")
            or (need[0] == "chance" and need[1] == "mon" and need[3][0] == "peek")
            or (need[0] == "decide" and need[3] in ("order", "choose"))
        )
        assert (words[ply - 1] is not None) == secret, (ply, before.action_to_string(action))
        assert frames[ply]["move"]["hidden"] == secret
        if secret:
            said = words[ply - 1]
            assert before.action_to_string(action) not in said
            assert not any(name in said for name in CARD_NAMES), said
        if DEAL <= action < DEAL + len(CHARACTERS) and need[3][0] == "hand":
            assert "face down" in words[ply - 1]


def test_a_dealt_hand_is_a_count_until_the_choice_and_private_to_its_seat(wu) -> None:
    deal_one = (
        "card 1 Detective",
        "card 2 Pastor",
        "card 3 Arsonist",
        "card 4 Teacher",
        "card 5 Artist",
        "card 6 Hiker",
    )
    deal_two = (
        "card 1 Detective",
        "card 7 Nurse",
        "card 3 Arsonist",
        "card 8 Priest",
        "card 5 Artist",
        "card 9 Mechanic",
    )
    one, one_actions = replay(*deal_one, "choose 1")
    two, two_actions = replay(*deal_two, "choose 1")
    public_one, public_two = viewer.frames(one, one_actions), viewer.frames(two, two_actions)
    # Seat 1's cards differ, seat 0's do not: every public frame and public word is the same.
    for a, b in zip(public_one, public_two, strict=True):
        assert a == b
    assert viewer.public_moves(one, one_actions) == viewer.public_moves(two, two_actions)
    assert public_one[-1]["characters"][0]["character"] == "Arsonist"  # seat 0 chose its second card
    assert public_one[-1]["characters"][1]["dealt"] == 3
    # Each seat's private layer: its own cards, in the dealt order; the GM and the other seat see none of them.
    mine = viewer.private(one, one_actions, 1)
    assert [d["character"] for d in mine[-1]["dealt"]] == ["Pastor", "Teacher", "Hiker"]
    assert [d["character"] for d in viewer.private(two, two_actions, 1)[-1]["dealt"]] == ["Nurse", "Priest", "Mechanic"]
    assert viewer.private(one, one_actions, 0)[-1] == {}
    assert viewer.private(one, one_actions, 2) == viewer.private(two, two_actions, 2)
    assert all(layer == {} for layer in viewer.private(one, one_actions, 2))
    assert viewer.private(one, one_actions, 7)[-1] == {}


SETUP = (
    "card 1 Detective",
    "card 4 Teacher",
    "card 3 Arsonist",
    "card 5 Artist",
    "card 7 Nurse",
    "card 6 Hiker",
    "choose 1",
    "choose 0",
    "location Grimy/Alleyway",
    "location Haunted/Lake",
    "vote 0",
    "vote 0",
    "monster Police Detective",
    "monster Boo",
    "monster The Stray",
    "vote 0",
    "vote 0",
)


def test_the_gm_alone_sees_the_order_of_the_returned_monsters() -> None:
    one, one_actions = replay(*SETUP, "top 0")
    two, two_actions = replay(*SETUP, "top 1")
    # Up to the GM's decision the two games are one; its words do not say which Monster went on top.
    assert viewer.frames(one, one_actions)[:-1] == viewer.frames(two, two_actions)[:-1]
    words = viewer.public_moves(one, one_actions)
    assert words == viewer.public_moves(two, two_actions)
    assert words[-1] == "P2 puts the two other Monsters back on top of the deck (in an order only the GM knows)"
    assert one_actions[-1] == ORDER
    before = viewer.frames(one, one_actions)[-2]
    assert before["offer"] == {"kind": "adversary", "cards": ["Boo", "The Stray"]}
    assert viewer.private(one, one_actions, 2)[-2] == {}
    # The first turn's flip takes the top card at once: the table sees it then, and the other stays on top,
    # its place known to the GM alone (the table knows only that it is one of the returned pair).
    last_one, last_two = viewer.frames(one, one_actions)[-1], viewer.frames(two, two_actions)[-1]
    assert last_one["last_flip"]["name"] == "Boo"
    assert last_two["last_flip"]["name"] == "The Stray"
    assert last_one["returned_on_top"] == ["The Stray"]
    assert last_one["top_seen_by"] == [[2]]
    gm_one, gm_two = viewer.private(one, one_actions, 2)[-1], viewer.private(two, two_actions, 2)[-1]
    assert [k["name"] for k in gm_one["known_top"]] == ["The Stray"]
    assert [k["name"] for k in gm_two["known_top"]] == ["Boo"]
    for seat in (0, 1):
        assert "known_top" not in viewer.private(one, one_actions, seat)[-1]


def test_with_the_builtin_gm_nobody_sees_the_returned_order() -> None:
    states, actions = played(3, 2, {"gm": "builtin"})
    frames = viewer.frames(states, actions)
    start = next(ply for ply, state in enumerate(states) if state.returned)
    assert frames[start]["gm"] == "the built-in GM"
    assert frames[start]["top_seen_by"]
    assert all(seen == [] for seen in frames[start]["top_seen_by"])
    for seat in (0, 1):
        assert "known_top" not in viewer.private(states, actions, seat)[start]


def test_a_peek_is_in_the_peekers_private_layer_alone() -> None:
    # "her Pastor's Cross lets her look at the top card of the Monster deck" (only she sees it)
    base = (
        "card 2 Pastor",
        "card 4 Teacher",
        "card 3 Arsonist",
        "card 5 Artist",
        "card 7 Nurse",
        "card 6 Hiker",
        "choose 1",
        "choose 0",
        "location Grimy/Alleyway",
        "location Haunted/Lake",
        "vote 0",
        "vote 0",
        "monster Police Detective",
        "monster Boo",
        "monster Charlie",
        "vote 0",
        "vote 0",
        "top 0",
        "use Nurse's Kit",
        "use Artist's Camera",
        "monster Rat King",
    )
    results = [replay(*base, f"monster {peeked}") for peeked in ("Whisper", "Lake Thing")]
    (one, one_actions), (two, two_actions) = results
    assert one_actions[-1] == DRAW_MON + MONSTERS.index(next(m for m in MONSTERS if m.name == "Whisper"))
    assert viewer.frames(one, one_actions) == viewer.frames(two, two_actions)
    said = viewer.public_moves(one, one_actions)[-1]
    assert said == "P0 looks at the top of the Monster deck (face down)"
    assert said == viewer.public_moves(two, two_actions)[-1]
    assert "Whisper" not in json.dumps(viewer.frames(one, one_actions))
    peeker = viewer.private(one, one_actions, 0)[-1]["known_top"]
    assert [k["name"] for k in peeker] == ["Whisper"]
    assert [k["name"] for k in viewer.private(two, two_actions, 0)[-1]["known_top"]] == ["Lake Thing"]
    assert viewer.frames(one, one_actions)[-1]["top_seen_by"] == [[0]]
    for seat in (1, 2):
        layer = viewer.private(one, one_actions, seat)[-1]
        assert "Whisper" not in json.dumps(layer)


@pytest.mark.parametrize(("seed", "seats", "config"), GAMES)
def test_private_layers_hold_only_what_that_seat_saw(seed: int, seats: int, config: Any) -> None:
    states, actions = played(seed, seats, config)
    for seat in range(seats):
        layers = viewer.private(states, actions, seat)
        assert len(layers) == len(states)
        assert json.loads(json.dumps(layers)) == layers
        for layer, state in zip(layers, states, strict=True):
            assert set(layer) <= {"dealt", "known_top"}
            dealt = [d["card"] for d in layer.get("dealt", [])]
            assert dealt == (state.hands[seat] if seat < state.P else [])
            known = [(k["position"], k["card"]) for k in layer.get("known_top", [])]
            assert known == [(i, card) for i, (card, knowers) in enumerate(state.mon_top) if seat in knowers]


@pytest.mark.parametrize(("seed", "seats", "config"), GAMES)
def test_the_final_frame_says_who_won_and_why(seed: int, seats: int, config: Any) -> None:
    states, actions = played(seed, seats, config)
    last = viewer.frames(states, actions)[-1]
    final = states[-1]
    outcome = final.outcome()
    assert outcome is not None
    result = last["result"]
    assert result["reason"] == outcome.reason
    assert result["winners"] == list(outcome.winners)
    assert result["players_won"] == (outcome.reason == "players_won")
    assert result["reason_words"] == dict(GAME.info.reasons)[outcome.reason]
    assert result["why"] == final.log[-1]
    assert result["turns"] == final.turn
    assert last["to_move"] is None
    assert all("result" not in frame for frame in viewer.frames(states, actions)[:-1])


def test_dice_and_draws_read_as_words() -> None:
    states, actions = played(0, 3)
    frames = viewer.frames(states, actions)
    moves = [frame["move"]["notation"] for frame in frames[1:]]
    assert any(move.startswith("a Ritual Die shows ") for move in moves)
    assert any(move.startswith("flips monster ") for move in moves)
    assert any(move.startswith(("performs Ritual ", "draws Ritual ")) for move in moves)
    die = next(ply for ply, a in enumerate(actions, 1) if DIE <= a < DIE + 6)
    assert frames[die]["move"]["notation"] == f"a Ritual Die shows {actions[die - 1] - DIE + 1}"
