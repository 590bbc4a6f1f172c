"""Complete series result documents for tests that write only the fields they are about.

Recording refuses a document the result type (engines/result.py) cannot read, so a test's
hand-written document goes through :func:`result_document`, which fills in what a referee
always writes (protocol, clocks, limits, each game's actions and returns...) and leaves
every field the test gave as it gave it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.result import PROTOCOL_VERSION, SeriesResult

#: What a game record holds when a test leaves it out.
GAME_DEFAULTS: Mapping[str, Any] = {
    "actions": [],
    "forfeit": None,
    "winners": [],
    "reason": "timer",
    "stats": {},
    "returns": None,
    "bank_ms_left": [],
}


def game_document(index: int, seats: Sequence[int], **fields: Any) -> dict[str, Any]:
    """Return game ``index`` of a result document, seated ``seats``, with ``fields`` over the defaults."""
    return {"index": index, "seats": list(seats), **GAME_DEFAULTS, **fields}


def result_document(
    players: Sequence[Mapping[str, str]],
    games: Sequence[Mapping[str, Any]],
    score: Mapping[str, Any],
    **top: Any,
) -> dict[str, Any]:
    """Return a whole protocol 2 result document: ``players``, ``games`` and ``score`` as given, the rest filled in.

    Each game gets the fields it lacks from :data:`GAME_DEFAULTS`; ``top`` sets (or overrides)
    any top-level field (``game``, ``games_planned``, ``stderr``, ``started_at``...).
    """
    document: dict[str, Any] = {
        "protocol": PROTOCOL_VERSION,
        "game": "watch",
        "rules_version": "1",
        "config": {},
        "games_planned": len(games),
        "time_control": {"decision_ms": 2000, "bank_ms": 60000, "increment_ms": 0},
        "limits": {"memory_mb": 256},
        "sandbox": "none",
        "players": [dict(player) for player in players],
        "games": [{**GAME_DEFAULTS, **game} for game in games],
        "score": {"game_wins": [0] * len(players), "winner": None, "steps": [], **score},
        "stderr": [],
        "wall_seconds": 0.0,
        "referee_stall_ms": 0.0,
        **top,
    }
    SeriesResult.from_json(document)  # a test's mistake shows here, not as a refused result
    return document
