"""Team games with roles: a team of player bots against a GM bot, or against the engine's built-in GM.

The toy team game (tests/toygame/coop.py, "break-in") declares TeamRules; its
packages are a random bot (both roles), a daring and a timid player, a harsh
GM, and a shaky bot that crashes as the GM. Everything goes through real
code: submission, validation in each role in the sandbox, the matchmaker,
the referee's rotation, recording and rating, the pages, the API, the CLI
and the demo.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.bots.validation import validate_version
from arena.ops.operations import finish_season
from arena.ratings.models import Rating, RatingHistory
from arena.ratings.team_boards import team_board
from arena.seasons.models import FinalStanding, Season
from arena.series.models import Series
from engines import teams
from engines.result import game_records
from tests.toygame.coop import PACKAGES
from workers.cli import main

pytestmark = pytest.mark.django_db


# -- validation -------------------------------------------------------------------------------------


def test_a_version_is_validated_in_each_role_it_plays(team_game: Any, user: Any, artifact_dir: Path) -> None:
    version = validate_version(submit_version(user, "both", PACKAGES / "steady").pk)
    assert version.roles == []  # bot.toml lists none: every role
    assert version.status == BotVersion.Status.ACTIVE, version.status_reason
    assert version.status_reason == (
        "breakin as player: passed the validation series (2 games against the reference bot); "
        "breakin as gm: passed the validation series (2 games against the reference bot)"
    )
    runs = {run.role: run.result for run in version.validation_runs.all()}
    assert sorted(runs) == ["gm", "player"]
    # Three seats: two players and the GM; the version in its role, the reference bot everywhere else.
    mine = version.archive_sha256
    assert [p["sha256"] == mine for p in runs["player"]["players"]] == [True, False, False]
    assert [p["sha256"] == mine for p in runs["gm"]["players"]] == [False, False, True]


def test_a_version_that_plays_one_role_is_validated_in_it_alone(team_game: Any, user: Any, artifact_dir: Path) -> None:
    version = validate_version(submit_version(user, "gm-only", PACKAGES / "harsh").pk)
    assert version.status == BotVersion.Status.ACTIVE, version.status_reason
    assert [run.role for run in version.validation_runs.all()] == ["gm"]
    assert version.status_reason.startswith("breakin as gm: passed")


def test_a_version_failing_one_role_fails_validation_saying_which(
    team_game: Any, user: Any, artifact_dir: Path, client: Any
) -> None:
    version = validate_version(submit_version(user, "shaky", PACKAGES / "shaky").pk)
    assert version.status == BotVersion.Status.FAILED_VALIDATION
    assert version.status_reason.startswith("breakin as gm: validation series: game 1, its move 1: crash")
    page = client.get(reverse("bot-version-validation", args=[version.bot_id, version.number])).content.decode()
    assert "breakin as gm: failed" in page


# -- a season with GM bots ----------------------------------------------------------------------------


def test_each_series_seats_two_players_and_a_gm_who_keeps_its_seat(team_season: dict[str, Any]) -> None:
    versions = team_season["versions"]
    gm_capable = {versions[name].pk for name in ("harsh", "random", "random2")}
    player_capable = {versions[name].pk for name in ("daring", "random", "random2")}
    assert len(team_season["series"]) == 8
    for series in team_season["series"]:
        seats = list(series.seats.order_by("seat").values_list("version_id", flat=True))
        assert len(seats) == 3
        assert len(set(seats)) == 3
        assert set(seats[:2]) <= player_capable
        assert seats[2] in gm_capable
        assert series.result["config"] == {"gm": "seat"}
        # The player seats rotate, each player bot sitting each player position once; the GM stays last.
        assert [game["seats"] for game in series.result["games"]] == [[0, 1, 2], [1, 0, 2]]


def test_the_season_page_shows_a_player_and_a_gm_leaderboard(team_season: dict[str, Any], client: Any) -> None:
    season = team_season["season"]
    response = client.get(reverse("season", args=[season.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Player bots</h2>" in page
    assert "GM bots</h2>" in page
    assert "ann-daring" in page
    assert "cid-harsh" in page
    assert "built-in GM sat" not in page
    players = {row.rating.version.bot.name for row in team_board(season, "player")}
    gms = {row.rating.version.bot.name for row in team_board(season, "gm")}
    assert "ann-daring" in players
    assert "ann-daring" not in gms
    assert "cid-harsh" in gms
    assert "cid-harsh" not in players


def test_a_version_in_both_roles_has_a_rating_in_each(team_season: dict[str, Any]) -> None:
    season, both = team_season["season"], team_season["versions"]["random"]
    roles = dict(Rating.objects.filter(season=season, version=both).values_list("role", "series_played"))
    assert sorted(roles) == ["gm", "player"]
    as_gm = Series.objects.filter(season=season, seats__version=both, seats__seat=2).count()
    assert roles["gm"] == as_gm
    assert roles["player"] == 8 - as_gm - Series.objects.filter(season=season).exclude(seats__version=both).count()


def test_the_winning_side_goes_up_and_the_losing_side_down(team_season: dict[str, Any]) -> None:
    moved = set()
    for series in team_season["series"]:
        seats = list(series.seats.order_by("seat"))
        result = teams.series_result(game_records(series.result), ("player", "player", "gm"))
        for seat in seats:
            role = "gm" if seat.seat == 2 else "player"
            history = list(
                RatingHistory.objects.filter(season=series.season, version=seat.version, role=role).order_by("id")
            )
            index = next(i for i, row in enumerate(history) if row.series_id == series.pk)
            change = history[index].mu - history[index - 1].mu
            side = result if role == "player" else -result
            assert change > 0 if side == teams.WIN else change < 0 if side == teams.LOSS else True
            moved.add(side)
            expected_rank = 1 if side == teams.LOSS else 0
            assert seat.rank == expected_rank
    assert {teams.WIN, teams.LOSS} <= moved  # both outcomes were seen


def test_finishing_the_season_ranks_each_role_on_its_own(team_season: dict[str, Any]) -> None:
    season = team_season["season"]
    finish_season(season)
    for role in ("player", "gm"):
        ranks = list(FinalStanding.objects.filter(season=season, role=role).values_list("rank", flat=True))
        assert ranks == list(range(1, Rating.objects.filter(season=season, role=role).count() + 1))


# -- a season without GM bots: the built-in GM --------------------------------------------------------


def test_without_gm_bots_the_builtin_gm_plays_at_a_fixed_rating(builtin_season: dict[str, Any]) -> None:
    season = builtin_season["season"]
    for series in builtin_season["series"]:
        assert series.seats.count() == 2
        assert series.result["config"] == {"gm": "builtin"}
        assert [game["seats"] for game in series.result["games"]] == [[0, 1], [1, 0]]
    assert set(Rating.objects.filter(season=season).values_list("role", flat=True)) == {"player"}
    # A team that won its series went up against the fixed GM, one that lost went down.
    for series in builtin_season["series"]:
        result = teams.series_result(game_records(series.result), ("player", "player"))
        for row in RatingHistory.objects.filter(series=series):
            before = RatingHistory.objects.filter(version=row.version, season=season, id__lt=row.id).latest("id")
            if result != teams.DRAW:
                assert (row.mu > before.mu) == (result == teams.WIN)


def test_without_gm_bots_players_have_a_win_rate_interval_and_turns_to_win(builtin_season: dict[str, Any]) -> None:
    season = builtin_season["season"]
    rows = {row.rating.version.bot.name: row for row in team_board(season, "player")}
    for name, version in builtin_season["versions"].items():
        games = [
            (game, list(series.seats.order_by("seat").values_list("version_id", flat=True)))
            for series in builtin_season["series"]
            if series.seats.filter(version=version).exists()
            for game in series.result["games"]
        ]
        won = [game for game, _ in games if game["returns"][0] > 0]
        row = rows[version.bot.name]
        assert row.rating.games_played == len(games)
        assert row.win_rate == pytest.approx(len(won) / len(games))
        assert (row.low, row.high) == pytest.approx(teams.wilson_interval(len(won), len(games)))
        assert row.low <= row.win_rate <= row.high
        turns = [game["stats"]["0"]["turns"] for game in won]
        assert row.turns_to_win == (pytest.approx(sum(turns) / len(turns)) if turns else None), name


def test_without_gm_bots_the_page_says_so(builtin_season: dict[str, Any], client: Any) -> None:
    season = builtin_season["season"]
    page = client.get(reverse("season", args=[season.pk])).content.decode()
    assert "the built-in GM sat in the GM's seat at a fixed rating (μ 25.00, σ 1.00, never updated)" in page
    assert "Win rate" in page
    assert "95 % interval" in page
    assert "Turns to win" in page
    assert "No GM bot in this season: the built-in GM plays the GM." in page


# -- pages, refusals, the CLI, the demo -------------------------------------------------------------------


def test_the_page_of_a_team_season_with_no_games(team_game: Any, client: Any) -> None:
    season = Season.objects.create(
        name="Empty team season", game=team_game.name, players_per_series=3, games_per_series=3
    )
    response = client.get(reverse("season", args=[season.pk]))
    assert response.status_code == 200
    assert "Nobody is rated as player in this season yet" in response.content.decode()


def test_a_team_season_seats_only_the_player_seats_the_game_has(team_game: Any) -> None:
    with pytest.raises(ValidationError, match=r"is a team game: players_per_series counts its player seats.*3 to 4"):
        Season.objects.create(name="Too many", game=team_game.name, players_per_series=4, games_per_series=4)
    with pytest.raises(ValidationError, match="no solo seasons"):
        Season.objects.create(name="Alone", game=team_game.name, players_per_series=1, games_per_series=20)


def test_arena_play_seats_the_last_bot_as_the_gm(team_game: Any, capsys: pytest.CaptureFixture[str]) -> None:
    bots = [str(PACKAGES / "daring"), str(PACKAGES / "timid"), str(PACKAGES / "daring"), str(PACKAGES / "harsh")]
    assert main(["play", "breakin", *bots, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "breakin (rules 1): daring (1) vs timid vs daring (2) vs harsh, 3 games" in out
    assert "Team series: players (daring (1), timid, daring (2))" in out
    assert " GM (harsh)" in out


def test_arena_play_leaves_the_gm_to_the_engine(team_game: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "breakin", str(PACKAGES / "daring"), str(PACKAGES / "timid"), "--builtin-gm"]) == 0
    out = capsys.readouterr().out
    assert "daring vs timid, 2 games" in out
    assert " GM (the built-in GM)" in out


def test_arena_play_refuses_a_bot_in_a_role_it_does_not_play(
    team_game: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["play", "breakin", str(PACKAGES / "harsh"), str(PACKAGES / "timid"), str(PACKAGES / "daring")])
    assert code == 2
    err = capsys.readouterr().err
    assert "the bot 'harsh' plays gm (its bot.toml's roles), not player" in err


def test_arena_play_refuses_a_seating_the_game_has_not(team_game: Any, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "breakin", str(PACKAGES / "daring"), str(PACKAGES / "harsh")])
    assert code == 2
    assert "breakin with gm 'seat' seats 3 to 4, not 2; give players and the GM last" in capsys.readouterr().err


def test_arena_roundrobin_refuses_a_team_game(team_game: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roundrobin", "breakin", str(PACKAGES / "daring"), str(PACKAGES / "timid")]) == 2
    assert "breakin is a team game (players against a GM): a round robin pairs" in capsys.readouterr().err


@pytest.mark.django_db(transaction=True)  # the demo's validations run on commit, as in the real command
def test_the_demo_runs_a_team_season_with_player_and_gm_bots(team_game: Any, artifact_dir: Any) -> None:
    from arena.matchmaking.scheduling import schedule_round
    from arena.ops.management.commands.demo import ladders, register_reference_bots, start_season, team_board_lines

    (ladder,) = [ladder for ladder in ladders() if ladder.game == team_game.name]
    assert [package.name for package in ladder.packages] == ["daring", "harsh", "timid"]
    season = start_season(ladder, register_reference_bots(ladder))
    assert season.players_per_series == 2
    played = schedule_round(season, 1) + schedule_round(season, 1)
    assert len(played) == 2
    for series in played:
        names = [seat.version.bot.name for seat in series.seats.order_by("seat")]
        assert sorted(names[:2]) == ["daring", "timid"]
        assert names[2] == "harsh"
    lines = team_board_lines(season)
    assert lines[0] == "Player bots:"
    assert "GM bots:" in lines
    assert any(line.split()[:4] == ["1", "harsh", "v1", "demo-harsh"] for line in lines)


def test_the_bot_page_names_the_role_of_each_rating_and_charts_each_apart(
    team_season: dict[str, Any], client: Any
) -> None:
    both = next(
        version
        for version in team_season["versions"].values()
        if set(Rating.objects.filter(version=version).values_list("role", flat=True)) == {"player", "gm"}
    )
    page = html.unescape(client.get(reverse("bot", args=[both.bot_id])).content.decode())
    assert 'v1 <span class="role">as player</span>' in page
    assert 'v1 <span class="role">as GM</span>' in page
    season = team_season["season"].name
    assert re.search(rf"<h3>Rating as player in <a [^>]*>{re.escape(season)}</a></h3>", page)
    assert re.search(rf"<h3>Rating as GM in <a [^>]*>{re.escape(season)}</a></h3>", page)


def test_the_team_season_page_has_the_season_head_and_links_each_rows_bot(
    team_season: dict[str, Any], client: Any
) -> None:
    season = team_season["season"]
    body = client.get(reverse("season", args=[season.pk])).content.decode()
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))
    assert (
        f"· a team game: {season.players_per_series} player bots against a GM, {season.games_per_series} games "
        f"per series · {season.decision_ms} ms a decision, {season.bank_ms} ms bank"
    ) in page
    assert 'id="live"' in body
    for role in ("player", "gm"):
        row = team_board(season, role)[0]
        version = row.rating.version
        assert f'href="{reverse("bot", args=[version.bot_id])}">{version.bot.name}</a>' in body
        assert f'href="{reverse("user", args=[version.bot.owner.get_username()])}">' in body
    assert 'title="provisional: fewer series than a settled rating needs">P</abbr>' in body
