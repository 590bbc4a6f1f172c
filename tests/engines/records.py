"""Game records for the scoring tests: a typed record (engines/result.py) from the few facts a test names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.result import Forfeit, GameRecord


def record(
    seats: Sequence[int] = (0, 1),
    winners: Sequence[int] = (),
    reason: str = "",
    *,
    forfeit: int | None = None,
    forfeit_reason: str = "illegal_action",
    stats: Mapping[str, Mapping[str, Any]] | None = None,
    returns: Sequence[float] | None = None,
    index: int = 0,
) -> GameRecord:
    """Return a game record; ``forfeit``: the series player who forfeited it (its seat is looked up)."""
    return GameRecord(
        index=index,
        seats=tuple(seats),
        actions=(),
        forfeit=None
        if forfeit is None
        else Forfeit(player=forfeit, seat=list(seats).index(forfeit) if forfeit in seats else 0, reason=forfeit_reason),
        winners=tuple(winners),
        reason=reason,
        stats=dict(stats or {}),
        returns=None if returns is None else tuple(returns),
    )
