"""The Watch factory (rulebook 000), as the rest of the system sees it."""

from __future__ import annotations

from engines.declaration import (
    DemoSeason,
    GameDeclaration,
    RatingConstants,
    ScoreLadder,
    Viewer,
    numbered_seats,
    one_game_per_player,
)
from engines.watch_factory import viewer
from engines.watch_factory.data import SOLO_TITLES
from engines.watch_factory.game import WatchFactoryGame
from engines.win_points import name_step

DECLARATION = GameDeclaration(
    game=WatchFactoryGame,
    # Rank points per game, ties sharing: level series are rarer than in the win-point games, since
    # every game splits its points by the victory points' order: 10 %.
    rating=RatingConstants(draw_probability=0.10),
    # As many games as players, the start player rotating (each player starts one).
    series=one_game_per_player("a Watch factory series"),
    seat_labels=numbered_seats(4),
    name_step=name_step,
    viewer=Viewer.of(viewer),
    demo=DemoSeason(
        title="Demo Watch factory season", players=3, games=3, owners_per_bot=2, bot_prefix="watchfactory-"
    ),
    # Solo: a score ladder on the same 20 seeded deals for every version, titled by the rulebook's
    # benchmarks ("Score 75 - You barely keep your job" ... "Score 160 - Behold a true hero").
    score_ladder=ScoreLadder(titles=SOLO_TITLES, deals=20, forfeit_score=0.0),
    solo_demo=DemoSeason(title="Demo Watch factory solo ladder", players=1, games=20, bot_prefix="watchfactory-"),
)
