"""A kind of game is one strategy (engines/kinds.py): chosen through one table, and branched on nowhere else.

Versus, free for all, team against the GM and solo on the score ladder each
own their seating, forfeits, series score, season checks and validation
series. Code outside the strategy modules asks the kind; the scan below
fails on a branch of the old shape (``season.is_team``, ``teams is None``...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest

import engines
from engines import kinds
from engines.kinds import KINDS, FreeForAll, Kind, SoloScoreLadder, TeamVsGM, Versus, kind_of
from tests.toygame.coop import DECLARATION as COOP

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("platform", "workers", "engines", "bots")
#: The strategy modules: the only places that may ask what kind a game is.
STRATEGIES = ("engines/kinds.py",)
BRANCH = re.compile(
    r"is_team|is_solo|plays_solo|teams is None|teams is not None|score_ladder is None|score_ladder is not None"
    r"|roles is None|roles is not None|kind\.name ==|isinstance\([^)]*\b(Versus|FreeForAll|TeamVsGM|SoloScoreLadder)\b"
)


def scanned_files() -> list[Path]:
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".html") or "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            if path.relative_to(ROOT).as_posix() in STRATEGIES:
                continue
            found.append(path)
    return found


def branches(paths: Iterable[Path]) -> list[str]:
    """Return ``path:line: text`` for every line of ``paths`` that branches on a kind of game."""
    offences = []
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if BRANCH.search(line):
                offences.append(f"{path}:{number}: {line.strip()}")
    return offences


def test_no_code_outside_the_strategies_branches_on_a_kind_of_game() -> None:
    assert branches(scanned_files()) == []


def test_the_check_sees_a_planted_branch(tmp_path: Path) -> None:
    # The check above would pass on an empty file list: make sure it reads what it should.
    scanned = {path.relative_to(ROOT).as_posix() for path in scanned_files()}
    assert {"workers/referee.py", "platform/arena/results/recording.py", "engines/declaration.py"} <= scanned
    assert "platform/arena/web/templates/web/series.html" in scanned
    assert "engines/kinds.py" not in scanned
    planted = tmp_path / "planted.py"
    planted.write_text("def board(season):\n    if season.is_team:\n        return 1\n    return 0\n")
    template = tmp_path / "planted.html"
    template.write_text("{% if series.season.is_solo %}a score{% endif %}\n")
    clean = tmp_path / "clean.py"
    clean.write_text("def board(season):\n    return BOARDS[season.kind.ranking](season)\n")
    assert [line.split(": ", 1)[1] for line in branches([planted, template, clean])] == [
        "if season.is_team:",
        "{% if series.season.is_solo %}a score{% endif %}",
    ]


@pytest.mark.parametrize(
    ("game", "players", "kind"),
    [
        ("watch", 2, Versus),
        ("factory_race", 2, Versus),
        ("factory_race", 3, FreeForAll),
        ("factory_race", 4, FreeForAll),
        ("watch_race", 2, Versus),
        ("watch_race", 6, FreeForAll),
        ("watch_factory", 1, SoloScoreLadder),
        ("watch_factory", 2, Versus),
        ("watch_factory", 4, FreeForAll),
        ("watching_us", 3, TeamVsGM),
        ("watching_us", 6, TeamVsGM),
    ],
)
def test_each_game_and_number_of_players_is_one_kind(game: str, players: int, kind: type[Kind]) -> None:
    chosen = kind_of(engines.declaration(game), players)
    assert type(chosen) is kind
    assert engines.declaration(game).kind(players) == chosen


def test_every_kind_is_in_the_table_once_with_its_own_name() -> None:
    assert len({kind.name for kind in KINDS}) == len(KINDS) == 4
    assert {kind.ranking for kind in KINDS} == set(kinds.RANKINGS)


def test_seats_rotate_each_game_but_a_team_games_gm_keeps_its_seat() -> None:
    versus = kind_of(engines.declaration("watch"), 2)
    assert [versus.seat_order(index, 2, None) for index in range(2)] == [[0, 1], [1, 0]]
    team = kind_of(COOP, 3)
    roles = team.seat_roles(3, {})
    assert roles == ("player", "player", "gm")
    assert [team.seat_order(index, 3, roles) for index in range(2)] == [[0, 1, 2], [1, 0, 2]]
    assert team.rotating_seats(3, {}) == 2
    assert team.seat_roles(3, {"gm": "builtin"}) == ("player",) * 3


def test_a_forfeit_gives_the_game_to_the_other_player_the_other_side_or_nobody() -> None:
    assert kind_of(engines.declaration("watch"), 2).forfeit_winners([1, 0], None, 1) == [0]
    assert kind_of(engines.declaration("watch_race"), 3).forfeit_winners([0, 1, 2], None, 1) == []
    team = kind_of(COOP, 3)
    assert team.forfeit_winners([0, 1, 2], ("player", "player", "gm"), 0) == [2]
    assert team.forfeit_winners([0, 1, 2], ("player", "player", "gm"), 2) == [0, 1]
    assert team.forfeit_winners([0, 1, 2], ("player",) * 3, 1) == []  # the built-in GM has no seat


def test_only_the_solo_kind_plays_the_same_deals_and_is_not_rated() -> None:
    solo = kind_of(engines.declaration("watch_factory"), 1)
    assert (solo.same_deals, solo.scored, solo.ranking, solo.min_seats) == (True, True, kinds.SCORE_LADDER, 1)
    assert solo.default_games(1, {}) == engines.declaration("watch_factory").score_ladder.deals
    for kind in (kind_of(engines.declaration("watch_factory"), 2), kind_of(COOP, 3)):
        assert (kind.same_deals, kind.scored, kind.min_seats) == (False, False, 2)
    assert kind_of(COOP, 3).ranking == kinds.RATED_PER_ROLE
    assert kind_of(engines.declaration("watch_race"), 4).ranking == kinds.RATED


def test_a_season_is_checked_by_its_kind() -> None:
    watch = kind_of(engines.declaration("watch"), 1)
    assert watch.check_season(1, 2, {}) == (
        "players_per_series",
        "watch has no score ladder, so it has no solo seasons: a season of it seats 2 to 2 players a series",
    )
    solo = kind_of(engines.declaration("watch_factory"), 1)
    field, problem = solo.check_season(1, 1, {}) or ("", "")
    assert field == "games_per_series"
    assert "deals" in problem
    assert solo.check_season(1, 20, {}) is None
    team = kind_of(COOP, 2)
    assert team.check_season(2, 2, {}) is None
    field, problem = team.check_season(7, 7, {}) or ("", "")
    assert field == "players_per_series"
    assert "is a team game: players_per_series counts its player seats" in problem


def test_the_validation_series_is_the_kinds_shape() -> None:
    assert kind_of(engines.declaration("watch"), 2).validation_series("", 2) == (2, 0, 2)
    assert kind_of(engines.declaration("watch_factory"), 1).validation_series("", 2) == (1, 0, 2)
    team = kind_of(COOP, 3)
    assert team.validation_roles() == ("player", "gm")
    seats, version_seat, games = team.validation_series("gm", 2)
    assert version_seat == seats - 1
    assert games == seats - 1
    assert team.validation_series("player", 2)[1] == 0


def test_a_new_kind_is_one_new_class_in_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    class Duel(Versus):
        """Two players, and a forfeit is a draw."""

        name = "duel"
        label = "a duel"

        @classmethod
        def fits(cls, declared: engines.GameDeclaration, players: int) -> bool:
            return declared.name == "watch" and players == 2

        def forfeit_winners(self, seats: list[int], roles: tuple[str, ...] | None, forfeiter: int) -> list[int]:
            return []

    monkeypatch.setattr(kinds, "KINDS", (Duel, *KINDS))
    assert kind_of(engines.declaration("watch"), 2).forfeit_winners([0, 1], None, 0) == []
    assert type(kind_of(engines.declaration("watch_race"), 2)) is Versus


def test_a_declaration_that_contradicts_its_kinds_is_refused() -> None:
    with pytest.raises(ValueError, match="a team game is for two or more seats"):
        replace(engines.declaration("watch_factory"), teams=COOP.teams)
    declared = engines.declaration("watch")
    assert declared.demo is not None
    with pytest.raises(ValueError, match="a demo season of one player is a solo_demo"):
        replace(declared, demo=replace(declared.demo, players=1))
