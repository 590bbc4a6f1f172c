"""/api/bots/ and /api/versions/: browsing, filters, the owner-only status reason and archive download."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.bots.models import BotVersion
from arena.bots.submissions import mark_validation_result, submit_version
from arena.seasons.models import Season

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def failed(owner: Any, artifact_dir: Path) -> BotVersion:
    """owner's bot "broken": version 1 failed validation, with the reason only its owner should read."""
    version = submit_version(owner, "broken", REPO / "bots" / "watch" / "packages" / "random")
    return mark_validation_result(version, False, "validation series: game 1: crash: secret traceback")


def test_bots_filter_by_owner_and_game(recorded_season: Season, client_for: Callable) -> None:
    client = client_for(None)

    def names(query: str) -> list[str]:
        return [bot["name"] for bot in client.get(f"/api/bots/?{query}").json()["results"]]

    assert names("") == ["greedy", "chatty"]  # by owner: mallory, owner
    assert names("owner=owner") == ["chatty"]
    assert names("owner=nobody") == []
    assert names("game=watch") == ["greedy", "chatty"]
    for query in ("game=chess", "owner=%00", "owner=a%20b"):
        assert client.get(f"/api/bots/?{query}").status_code == 400, query


def test_a_bot_lists_its_versions(recorded_season: Season, client_for: Callable) -> None:
    version = BotVersion.objects.get(bot__name="chatty")
    body = client_for(None).get(f"/api/bots/{version.bot_id}/").json()
    assert (body["name"], body["owner"]) == ("chatty", "owner")
    assert body["versions"] == [
        {"id": version.pk, "number": 1, "status": "active", "uploaded_at": body["versions"][0]["uploaded_at"]}
    ]
    assert client_for(None).get("/api/bots/99999/").status_code == 404
    assert client_for(None).get("/api/bots/99999/versions/").status_code == 404


def test_a_version_shows_its_ratings_per_season(recorded_season: Season, client_for: Callable) -> None:
    version = BotVersion.objects.get(bot__name="chatty")
    body = client_for(None).get(f"/api/versions/{version.pk}/").json()
    (rating,) = body["ratings"]
    stored = version.ratings.get()
    assert (rating["season"], rating["season_name"], rating["game"]) == (recorded_season.pk, "API ladder", "watch")
    assert (rating["mu"], rating["sigma"], rating["series_played"]) == (stored.mu, stored.sigma, 1)


@pytest.mark.parametrize(("who", "sees"), [("anonymous", False), ("other", False), ("owner", True), ("staff", True)])
def test_the_status_reason_is_for_the_owner_and_staff(
    failed: BotVersion, who: str, sees: bool, owner: Any, other: Any, staff: Any, client_for: Callable
) -> None:
    user = {"anonymous": None, "other": other, "owner": owner, "staff": staff}[who]
    client = client_for(user)
    body = client.get(f"/api/versions/{failed.pk}/").json()
    assert body["status"] == "failed_validation"  # the status is public
    assert body["status_reason"] == (failed.status_reason if sees else None)
    listed = client.get("/api/versions/?status=failed_validation").json()["results"]
    assert ("secret traceback" in str(listed)) is sees


def test_versions_filter_by_bot_and_status(failed: BotVersion, client_for: Callable) -> None:
    client = client_for(None)
    assert client.get(f"/api/versions/?bot={failed.bot_id}").json()["count"] == 1
    assert client.get(f"/api/versions/?bot={failed.bot_id + 1}").json()["count"] == 0
    assert client.get("/api/versions/?status=active").json()["count"] == 0
    for query in ("status=good", "bot=x", "bot=0"):
        assert client.get(f"/api/versions/?{query}").status_code == 400, query


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("other", 403), ("owner", 200), ("staff", 200)])
def test_the_archive_is_for_the_owner_and_staff(
    failed: BotVersion,
    artifact_dir: Path,
    who: str,
    status: int,
    owner: Any,
    other: Any,
    staff: Any,
    client_for: Callable,
) -> None:
    user = {"anonymous": None, "other": other, "owner": owner, "staff": staff}[who]
    response = client_for(user).get(f"/api/versions/{failed.pk}/archive/")
    assert response.status_code == status
    if status == 200:
        assert b"".join(response.streaming_content) == (artifact_dir / failed.archive_key).read_bytes()
        assert response["Content-Disposition"] == 'attachment; filename="broken-v1.tar.gz"'
    else:
        assert "archive" not in response.get("Content-Disposition", "")


def test_a_missing_archive_file_is_404_saying_so(
    failed: BotVersion, artifact_dir: Path, owner: Any, client_for: Callable
) -> None:
    (artifact_dir / failed.archive_key).unlink()
    response = client_for(owner).get(f"/api/versions/{failed.pk}/archive/")
    assert response.status_code == 404
    assert "missing from the artifact store" in response.json()["detail"]
