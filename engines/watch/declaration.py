"""Watch (Derick Green), as the rest of the system sees it: the flagship of the platform."""

from __future__ import annotations

from engines.declaration import DemoSeason, GameDeclaration, RatingConstants, SeriesRules, Viewer
from engines.text import name_players
from engines.watch import text, viewer
from engines.watch.game import WatchGame

DEFAULT_GAMES = 4


def check_games(players: int, games: int) -> str | None:
    """A Watch series is an even number of games: each bot has White in half of them."""
    if games <= 0 or games % 2:
        return f"a series is an even number of games (each bot has White in half of them), not {games}"
    return None


DECLARATION = GameDeclaration(
    game=WatchGame,
    # A series is drawn when both bots end on equal points: between equally strong reference
    # bots that happened in 3-6 % of series (random and greedy, 2- and 4-game series, 300 seeds
    # each) and 17 % for solver against solver (4 games, 40 seeds): 10 % sits in that range.
    rating=RatingConstants(draw_probability=0.10),
    series=SeriesRules(default_games=lambda players: DEFAULT_GAMES, check_games=check_games),
    seat_labels=("White", "Black"),
    format_series=text.format_series,
    name_step=name_players,
    viewer=Viewer.of(viewer),
    demo=DemoSeason(title="Demo season", players=2, games=2),
    flagship=True,
)
