"""The factory race (rulebook 003), as the rest of the system sees it."""

from __future__ import annotations

from pathlib import Path

from engines.declaration import DemoSeason, GameDeclaration, RatingConstants, SeriesRules, Viewer
from engines.factory_race import viewer
from engines.factory_race.game import FactoryRaceGame
from engines.win_points import name_step


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
    series=SeriesRules(default_games=lambda players: players, check_games=check_games),
    # Named as the engine's notation and text name them ("P0 won"); four factories at most.
    seat_labels=tuple(f"P{seat}" for seat in range(4)),
    name_step=name_step,
    viewer=Viewer(
        frames=viewer.frames,
        board=viewer.board,
        script=Path(__file__).parent / "static" / "viewer.js",
        style=Path(__file__).parent / "static" / "viewer.css",
        private=viewer.private,
        public_moves=viewer.public_moves,
    ),
    # Three-player series (three games, each player starting one), each reference bot entered by two
    # demo users so that no series seats two versions of one bot.
    demo=DemoSeason(
        title="Demo factory race season",
        players=3,
        games=3,
        owners_per_bot=2,
        bot_prefix="factory-",
    ),
)
