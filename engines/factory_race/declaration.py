"""The factory race (rulebook 003), as the rest of the system sees it."""

from __future__ import annotations

from engines.declaration import (
    DemoSeason,
    GameDeclaration,
    RatingConstants,
    Viewer,
    numbered_seats,
    one_game_per_player,
)
from engines.factory_race import viewer
from engines.factory_race.game import FactoryRaceGame
from engines.win_points import name_step

DECLARATION = GameDeclaration(
    game=FactoryRaceGame,
    # A point per game won among n players, shared wins included: a series often ends with
    # two players level at the top, as in the Watch race: 20 %.
    rating=RatingConstants(draw_probability=0.20),
    # As many games as players, the first player rotating (each player starts one).
    series=one_game_per_player("a factory race series"),
    # Named as the engine's notation and text name them ("P0 won"); four factories at most.
    seat_labels=numbered_seats(4),
    name_step=name_step,
    viewer=Viewer.of(viewer),
    # Three-player series (three games, each player starting one), each reference bot entered by two
    # demo users so that no series seats two versions of one bot.
    demo=DemoSeason(title="Demo factory race season", players=3, games=3, owners_per_bot=2, bot_prefix="factory-"),
)
