"""The series result document: every shape ever stored loads, malformed ones are refused by field, no seed comes out."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engines.result import Forfeit, ResultFormatError, SeriesResult, game_records

# A protocol 2 document as the referee writes it: a Watch series, one forfeit in its second game.
CURRENT: dict[str, Any] = {
    "protocol": 2,
    "game": "watch",
    "rules_version": "1",
    "config": {},
    "games_planned": 2,
    "time_control": {"decision_ms": 2000, "bank_ms": 60000, "increment_ms": 0},
    "limits": {"memory_mb": 256, "pids": 64, "cpu_seconds": 600},
    "sandbox": "bwrap",
    "players": [{"name": "ann", "sha256": "a" * 64}, {"name": "bob", "sha256": "b" * 64}],
    "games": [
        {
            "index": 0,
            "seats": [0, 1],
            "actions": [
                {"seat": 0, "action": 12, "notation": "e2", "ms": 3.25, "bank_ms": 59996.8},
                {"seat": 1, "action": 7, "notation": "b3", "ms": 1.5, "bank_ms": 59998.5},
            ],
            "forfeit": None,
            "winners": [0],
            "reason": "timer",
            "stats": {"0": {"moves": 1}, "1": {"moves": 1}},
            "returns": [1.0, -1.0],
            "bank_ms_left": [59996.8, 59998.5],
        },
        {
            "index": 1,
            "seats": [1, 0],
            "actions": [{"seat": None, "action": 4, "notation": "deal 4"}],
            "forfeit": {"player": 1, "seat": 0, "reason": "illegal_action", "detail": "no; legal now: a1, a2"},
            "winners": [0],
            "reason": "illegal_action",
            "stats": {"1": {"moves": 0}, "0": {"moves": 0}},
            "returns": None,
            "bank_ms_left": [60000.0, 60000.0],
        },
    ],
    "score": {
        "points": [2.0, 0.0],
        "white_totals": [1, 0],
        "black_totals": [0, 1],
        "game_wins": [2, 0],
        "games": 2,
        "winner": 0,
        "forfeits": [{"game": 1, "player": 1, "reason": "illegal_action"}],
        "steps": ["player 1 forfeited game 2 (illegal_action): 0 points, the opponent 2"],
    },
    "stderr": [{"player": 0, "text": "", "truncated_bytes": 0}, {"player": 1, "text": "oops\n", "truncated_bytes": 9}],
    "wall_seconds": 1.234,
    "referee_stall_ms": 0.0,
    "started_at": 1764320000.5,
}

# Protocol 1, the first shape (e484855): the series seed, no chance actions, no bank per move, no returns,
# no referee_stall_ms, no started_at; a win-points score.
PROTOCOL_1: dict[str, Any] = {
    "protocol": 1,
    "game": "watch_race",
    "rules_version": "1",
    "config": {},
    "seed": 7,
    "games_planned": 2,
    "time_control": {"decision_ms": 2000, "bank_ms": 60000, "increment_ms": 0},
    "limits": {"memory_mb": 256},
    "sandbox": "none",
    "players": [{"name": "ann", "sha256": "a" * 64}, {"name": "bob", "sha256": "b" * 64}],
    "games": [
        {
            "index": 0,
            "seats": [0, 1],
            "actions": [{"seat": 0, "action": 3, "notation": "3", "ms": 2.0}],
            "forfeit": None,
            "winners": [0],
            "reason": "timer",
            "stats": {"0": {}, "1": {}},
            "bank_ms_left": [59998.0, 60000.0],
        }
    ],
    "score": {"points": [1, 0], "game_wins": [1, 0], "ranking": [0, 1], "winner": 0, "steps": ["x"]},
    "stderr": [{"player": 0, "text": "", "truncated_bytes": 0}],
    "wall_seconds": 0.5,
}


def with_changes(document: dict[str, Any], **top: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed.update(top)
    return changed


def test_a_current_document_reads_back_byte_for_byte() -> None:
    result = SeriesResult.from_json(CURRENT)
    assert json.dumps(result.to_json()) == json.dumps(CURRENT)
    assert result.games[1].forfeit == Forfeit(1, 0, "illegal_action", "no; legal now: a1, a2")
    assert result.games[1].actions[0].is_chance
    assert result.games[0].stat(1, "moves") == 1
    assert result.score.winner == 0
    assert result.score.detail("white_totals") == [1, 0]
    assert result.stderr_of(1).truncated_bytes == 9


def test_a_protocol_1_document_loads_with_what_it_lacks_filled_in_and_its_seed_dropped() -> None:
    result = SeriesResult.from_json(PROTOCOL_1)
    assert result.protocol == 1
    assert result.games[0].returns is None
    assert result.games[0].actions[0].bank_ms is None
    assert result.referee_stall_ms is None
    assert result.started_at is None
    document = result.to_json()
    assert "seed" not in document
    assert document["games"][0]["actions"][0] == {"seat": 0, "action": 3, "notation": "3", "ms": 2.0}
    assert document["games"][0]["returns"] is None
    assert document["score"] == PROTOCOL_1["score"]


def test_the_shapes_between_load() -> None:
    # After the replay clocks (9fdbe3a): bank_ms per move, still no returns; after score ladders (e376ec1):
    # returns; both protocol 1 with a seed. A replay file's wrapper keys are read and dropped too.
    clocks = copy.deepcopy(PROTOCOL_1)
    clocks["games"][0]["actions"][0]["bank_ms"] = 59998.0
    ladders = copy.deepcopy(clocks)
    ladders["games"][0]["returns"] = [1.0, -1.0]
    replay = {"format": "watch-arena-replay", "version": 1, **CURRENT}
    assert SeriesResult.from_json(clocks).games[0].actions[0].bank_ms == 59998.0
    assert SeriesResult.from_json(ladders).games[0].returns == (1.0, -1.0)
    assert SeriesResult.from_json(replay).to_json() == CURRENT


def test_no_seed_ever_comes_out() -> None:
    seeded = with_changes(CURRENT, seed=1234)
    result = SeriesResult.from_json(seeded)
    assert "seed" not in json.dumps(result.to_json())
    assert "seed" not in json.dumps(result.to_json(with_stderr=False))
    redacted = result.redacted(lambda game: None, "hidden", "a move")
    assert "seed" not in json.dumps(redacted.to_json())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("games"), "result.games is missing"),
        (lambda d: d.update(protocol=3), "result.protocol 3 is none of"),
        (lambda d: d.update(players=[{"name": "ann"}]), r"result.players\[0\].sha256 is missing"),
        (lambda d: d["games"][1].update(seats=[1, "0"]), r"result.games\[1\].seats\[1\] must be an integer"),
        (lambda d: d["games"][0]["actions"][1].update(action=True), r"games\[0\].actions\[1\].action must be"),
        (lambda d: d["games"][1]["forfeit"].pop("reason"), r"result.games\[1\].forfeit.reason is missing"),
        (lambda d: d["games"][0].update(stats=[]), r"result.games\[0\].stats must be an object"),
        (lambda d: d["score"].update(points="2-0"), "result.score.points must be a list"),
        (lambda d: d.update(chance_secret="ab"), "unknown field 'chance_secret'"),
    ],
)
def test_a_malformed_document_is_refused_naming_the_field(change: Any, message: str) -> None:
    document = copy.deepcopy(CURRENT)
    change(document)
    with pytest.raises(ResultFormatError, match=message):
        SeriesResult.from_json(document)


def test_a_document_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ResultFormatError, match="the result document must be an object"):
        SeriesResult.from_json([1, 2])


def test_the_public_document_has_no_stderr() -> None:
    document = SeriesResult.from_json(CURRENT).to_json(with_stderr=False)
    assert "stderr" not in document
    assert list(document) == [key for key in CURRENT if key != "stderr"]


def test_a_redacted_result_shows_hidden_moves_in_words_and_hides_a_forfeits_legal_moves() -> None:
    result = SeriesResult.from_json(CURRENT)

    def public_moves(game: Any) -> list[str | None] | None:
        return [None, "a hidden move"] if game.index == 0 else None

    redacted = result.redacted(public_moves, "hidden moves in words", "a move (hidden)").to_json()
    assert next(iter(redacted)) == "redacted"
    assert redacted["redacted"] == "hidden moves in words"
    first, second = redacted["games"]
    assert first["actions"][0] == CURRENT["games"][0]["actions"][0]
    assert first["actions"][1] == {**CURRENT["games"][0]["actions"][1], "notation": "a hidden move", "action": None}
    assert second["actions"] == [{"seat": None, "action": None, "notation": "a move (hidden)"}]  # does not replay
    assert second["forfeit"]["detail"] == "no; legal now: (hidden)"
    assert SeriesResult.from_json(redacted).redacted_note == "hidden moves in words"


def test_the_game_records_alone_are_read_checked() -> None:
    assert [game.index for game in game_records(CURRENT)] == [0, 1]
    with pytest.raises(ResultFormatError, match=r"result.games\[0\].winners is missing"):
        game_records({"games": [{k: v for k, v in CURRENT["games"][0].items() if k != "winners"}]})
