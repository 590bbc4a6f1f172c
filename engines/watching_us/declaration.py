"""Watching Us (rulebook 002), as the rest of the system sees it.

A team game (engines/teams.py): the player seats against the GM seat, the last one, or against
the engine's own reference GM (``{"gm": "builtin"}``) at a fixed rating when a season has no GM
bots. A series rotates the player seats only, one game per player seat.
"""

from __future__ import annotations

from engines.declaration import (
    DemoSeason,
    GameDeclaration,
    RatingConstants,
    Viewer,
    numbered_seats,
    one_game_per_player,
)
from engines.teams import TeamRules
from engines.watching_us import viewer
from engines.watching_us.game import WatchingUsGame, seat_roles
from engines.win_points import name_step

DECLARATION = GameDeclaration(
    game=WatchingUsGame,
    # A game has no draw (the turn cap is a GM win), but a series of as many games as seats can leave
    # series players level on games won: a small draw probability.
    rating=RatingConstants(draw_probability=0.05),
    # Each player bot sits each player position once.
    series=one_game_per_player("a Watching Us series", seats="player seats"),
    seat_labels=numbered_seats(6),
    name_step=name_step,
    viewer=Viewer.of(viewer),
    # The players' team against the GM seat (the last), or against the engine's reference GM at a
    # fixed rating (mu 25, sigma 1: an average opponent that never moves) when no GM bot entered.
    teams=TeamRules(
        seat_roles=seat_roles,
        builtin_config={"gm": "builtin"},
        builtin_mu=25.0,
        builtin_sigma=1.0,
        builtin_label="the built-in GM",
    ),
    demo=DemoSeason(
        title="Demo Watching Us season",
        players=2,
        games=2,
        # Two demo owners per bot: two versions of each player bot, so a series of two player seats
        # always finds two distinct versions, and two of each GM bot.
        owners_per_bot=2,
        bot_prefix="watchingus-",
    ),
)
