"""The helpers a declaration is written with: a series of one game per player, numbered seats, a viewer module."""

from __future__ import annotations

from pathlib import Path

import engines
from engines.declaration import Viewer, numbered_seats, one_game_per_player
from engines.watch import viewer as watch_viewer
from engines.watch_factory import viewer as watch_factory_viewer

ENGINES = Path(engines.__file__).resolve().parent


def test_a_series_of_one_game_per_player_refuses_any_other_length_in_its_own_words() -> None:
    series = one_game_per_player("a relay series")
    assert series.default_games(3) == 3
    assert series.check_games(3, 3) is None
    assert series.check_games(3, 6) == "a relay series is as many games as players (each starts one): 3 games, not 6"
    seats = one_game_per_player("a siege series", seats="player seats")
    assert seats.check_games(2, 4) == "a siege series is as many games as player seats: 2 games, not 4"


def test_a_series_of_one_player_is_left_to_the_score_ladder() -> None:
    assert one_game_per_player("a solo-capable series").check_games(1, 20) is None


def test_numbered_seats_are_named_as_the_notation_names_players() -> None:
    assert numbered_seats(4) == ("P0", "P1", "P2", "P3")
    assert numbered_seats(2, prefix="Seat ") == ("Seat 0", "Seat 1")


def test_a_viewer_module_gives_its_hooks_and_its_script_beside_it() -> None:
    hidden = Viewer.of(watch_factory_viewer)
    assert (hidden.frames, hidden.board) == (watch_factory_viewer.frames, watch_factory_viewer.board)
    assert (hidden.private, hidden.public_moves) == (watch_factory_viewer.private, watch_factory_viewer.public_moves)
    assert hidden.script == ENGINES / "watch_factory" / "static" / "viewer.js"
    assert hidden.style == ENGINES / "watch_factory" / "static" / "viewer.css"
    public = Viewer.of(watch_viewer, style=False)
    assert (public.private, public.public_moves, public.style) == (None, None, None)
    assert public.script == ENGINES / "watch" / "static" / "viewer.js"


def test_every_declared_viewer_file_exists() -> None:
    for name in engines.names():
        viewer = engines.declaration(name).viewer
        assert viewer is not None
        assert viewer.script.is_file(), viewer.script
        assert viewer.style is None or viewer.style.is_file(), viewer.style
