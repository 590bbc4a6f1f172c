"""The Watch race (rulebook 001), as the rest of the system sees it."""

from __future__ import annotations

from pathlib import Path

from engines.declaration import DemoSeason, GameDeclaration, RatingConstants, SeriesRules, Viewer
from engines.watch_race import viewer
from engines.watch_race.game import WatchRaceGame


def check_games(players: int, games: int) -> str | None:
    """The rulebook's option 1: "as many games as you have players", each player starting one."""
    if games != players:
        return f"a race series is as many games as players (each starts one): {players} games, not {games}"
    return None


DECLARATION = GameDeclaration(
    game=WatchRaceGame,
    # A series of n games among n players, one point a game, often shares the top (a draw
    # between the players who share it): 20 %.
    rating=RatingConstants(draw_probability=0.20),
    series=SeriesRules(default_games=lambda players: players, check_games=check_games),
    # Seats are named as the engine's notation names them ("swap 0 with P2.1", "P0 won"), so the
    # labels match the move list word for word; P0 starts every game. Six seats at most.
    seat_labels=tuple(f"P{seat}" for seat in range(6)),
    name_step=viewer.name_step,
    viewer=Viewer(
        frames=viewer.frames,
        board=viewer.board,
        script=Path(__file__).parent / "static" / "viewer.js",
        style=Path(__file__).parent / "static" / "viewer.css",
    ),
    # Its two reference bots each entered by three demo users, so that four-player series (four
    # games, each player starting one) never seat two versions of one bot.
    demo=DemoSeason(title="Demo race season", players=4, games=4, owners_per_bot=3, bot_prefix="race-"),
)
