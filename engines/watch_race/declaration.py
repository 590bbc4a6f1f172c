"""The Watch race (rulebook 001), as the rest of the system sees it."""

from __future__ import annotations

from engines.declaration import (
    DemoSeason,
    GameDeclaration,
    RatingConstants,
    Viewer,
    numbered_seats,
    one_game_per_player,
)
from engines.watch_race import viewer
from engines.watch_race.game import WatchRaceGame

DECLARATION = GameDeclaration(
    game=WatchRaceGame,
    # A series of n games among n players, one point a game, often shares the top (a draw
    # between the players who share it): 20 %.
    rating=RatingConstants(draw_probability=0.20),
    # The rulebook's option 1: "as many games as you have players", each player starting one.
    series=one_game_per_player("a race series"),
    # Seats are named as the engine's notation names them ("swap 0 with P2.1", "P0 won"), so the
    # labels match the move list word for word; P0 starts every game. Six seats at most.
    seat_labels=numbered_seats(6),
    name_step=viewer.name_step,
    viewer=Viewer.of(viewer),
    # Each reference bot entered by three demo users, so that four-player series (four games, each
    # player starting one) never seat two versions of one bot.
    demo=DemoSeason(title="Demo race season", players=4, games=4, owners_per_bot=3, bot_prefix="race-"),
)
