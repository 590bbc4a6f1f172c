"""Each layer of the platform keys its own work for a kind of game by the kind's ranking (engines/kinds.py).

A new kind that ranks as an existing one needs no edit here; a new ranking
must be in every table, or a season of it would find no board, no recording
and no scheduling.
"""

from __future__ import annotations

from arena.matchmaking.scheduling import GROUPINGS, SCHEDULERS
from arena.ops.management.commands.demo import BOARD_LINES
from arena.results.recording import RANKINGS
from arena.web.views.seasons import BOARDS
from engines import kinds


def test_every_ranking_is_recorded_scheduled_and_shown() -> None:
    every = set(kinds.RANKINGS)
    assert set(RANKINGS) == set(SCHEDULERS) == set(BOARDS) == set(BOARD_LINES) == every
    assert {kind.ranking for kind in kinds.KINDS} == every


def test_only_rated_seasons_are_grouped_by_rating() -> None:
    assert set(GROUPINGS) == {kinds.RATED, kinds.RATED_PER_ROLE}
