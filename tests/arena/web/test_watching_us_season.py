"""A Watching Us season: player bots against GM bots, scheduled, played in the sandbox, rated as teams.

Three versions of the reference random bot (which plays both roles) enter a
season of two player seats: the matchmaker seats two of them as the players
and the third as the GM, the referee plays one game per player seat (the GM
keeping its seat), and the platform rates the players' team against the GM
with TrueSkill's teams: each version has a rating per role it played, shown
on the season page's two leaderboards. A version whose bot.toml says it only
plays the player role is never seated as the GM; a season with no GM-role
bots plays against the built-in GM.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django.urls import reverse

from tests.arena.conftest import play_rounds

RANDOM = Path(__file__).resolve().parents[3] / "bots" / "watching_us" / "packages" / "random"


def player_only(tmp_path: Path) -> Path:
    """The random bot as a package that declares it plays the player role only."""
    package = tmp_path / "player-only"
    package.mkdir()
    (package / "main.py").write_text((RANDOM / "main.py").read_text())
    (package / "bot.toml").write_text(
        'name = "player-only"\nentry = "main.py"\ngames = ["watching_us"]\nroles = ["player"]\n'
    )
    return package


def enter(season: Any, user: Any, name: str, package: Path) -> Any:
    from arena.bots.models import BotVersion
    from arena.bots.submissions import submit_version
    from arena.bots.validation import validate_version
    from arena.seasons.models import SeasonEntry

    version = validate_version(submit_version(user, name, package).pk)
    assert version.status == BotVersion.Status.ACTIVE, version.status_reason
    SeasonEntry.objects.create(season=season, version=version)
    return version


def test_player_bots_and_gm_bots_are_rated_as_teams_on_two_leaderboards(
    settings: Any,
    tmp_path: Path,
    make_user: Callable[..., Any],
    client_of: Callable[[Any], Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from arena.ratings.models import Rating
    from arena.seasons.models import Season

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(name="Watching Us ladder", game="watching_us", players_per_series=2)
    versions = [enter(season, make_user(owner), f"{owner}-random", RANDOM) for owner in ("ann", "bob", "cy")]
    keen = enter(season, make_user("dee"), "dee-player", player_only(tmp_path))
    season.transition(Season.Status.RUNNING)
    played = play_rounds(season, 3, 1, django_capture_on_commit_callbacks)

    for series in played:
        document = series.result
        seats = list(series.seats.order_by("seat").values_list("version_id", flat=True))
        assert len(seats) == 3  # two players and the GM, last
        assert keen.pk not in seats[2:]  # a player-only bot is never the GM
        assert [game["seats"] for game in document["games"]] == [[0, 1, 2], [1, 0, 2]]  # the GM keeps its seat
        for game in document["games"]:
            assert [game["stats"][str(p)]["role"] for p in range(3)] == ["player", "player", "gm"]
    roles = set(Rating.objects.filter(season=season).values_list("role", flat=True))
    assert roles == {"player", "gm"}
    assert not Rating.objects.filter(season=season, role="gm", version=keen).exists()
    assert Rating.objects.filter(season=season, role="player").count() >= 2

    page = html.unescape(client_of(None).get(reverse("season", args=[season.pk])).content.decode())
    _players, after = page.split("Player bots</h2>")[1].split("GM bots</h2>")
    gm_board = after.split("</table>")[0]
    gm_names = {r.version.bot.name for r in Rating.objects.filter(season=season, role="gm")}
    for name in gm_names:
        assert name in gm_board
    assert "dee-player" not in gm_board
    assert "built-in GM sat" not in page
    assert {v.bot.name for v in versions} & gm_names

    # The series page says who played which side, in the bots' names.
    series = played[0]
    text = html.unescape(client_of(None).get(reverse("series", args=[series.pk])).content.decode())
    names = [f"{seat.version.bot.name} v1" for seat in series.seats.order_by("seat")]
    assert re.search(
        rf"game 1: ({re.escape(names[0])} and {re.escape(names[1])} defeated the Adversary in \d+ turns"
        rf"|the GM, {re.escape(names[2])}, won: )",
        text,
    ), names


def test_without_gm_bots_the_players_face_the_built_in_gm(
    settings: Any,
    tmp_path: Path,
    make_user: Callable[..., Any],
    client_of: Callable[[Any], Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    from arena.ratings.models import Rating
    from arena.seasons.models import Season

    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    season = Season.objects.create(name="Watching Us solo GM", game="watching_us", players_per_series=2)
    package = player_only(tmp_path)
    for owner in ("ann", "bob"):
        enter(season, make_user(owner), f"{owner}-player", package)
    season.transition(Season.Status.RUNNING)
    (series,) = play_rounds(season, 1, 1, django_capture_on_commit_callbacks)
    assert series.result["config"]["gm"] == "builtin"
    assert series.seats.count() == 2
    assert not Rating.objects.filter(season=season, role="gm").exists()
    page = html.unescape(client_of(None).get(reverse("season", args=[season.pk])).content.decode())
    assert "the built-in GM" in page
    assert re.search(r"\d+ %", page.split("Player bots</h2>")[1])  # a win rate with its interval
