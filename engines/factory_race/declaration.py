"""The factory race (rulebook 003), as the rest of the system sees it."""

from __future__ import annotations

from pathlib import Path

from engines.declaration import GameDeclaration, RatingConstants, SeriesRules
from engines.factory_race.game import FactoryRaceGame

PACKAGES = Path(__file__).resolve().parents[2] / "bots" / "factory_race" / "packages"


def check_games(players: int, games: int) -> str | None:
    """A series is as many games as players, the first player rotating (each player starts one)."""
    if games != players:
        return f"a factory race series is as many games as players (each starts one): {players} games, not {games}"
    return None


DECLARATION = GameDeclaration(
    game=FactoryRaceGame,
    # A point per game won among n players, shared wins included: a series often ends with
    # two players level at the top, as in the Watch race: 20 %.
    rating=RatingConstants(draw_probability=0.20),
    reference_bots={name: PACKAGES / name for name in ("random", "heuristic", "search")},
    validation_bot="random",
    series=SeriesRules(default_games=lambda players: players, check_games=check_games),
    # Named as the engine's notation and text name them ("P0 won"); four factories at most.
    seat_labels=tuple(f"P{seat}" for seat in range(4)),
    policies="bots.factory_race",
)
