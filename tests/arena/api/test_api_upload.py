"""POST /api/versions/: a new version of your own bot; hostile uploads are 400 with the reason and store nothing."""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from arena.api.bots import safe_upload_name
from arena.bots.models import Bot, BotVersion

pytestmark = pytest.mark.django_db

MANIFEST = b'name = "my-bot"\nentry = "main.py"\ngames = ["watch"]\n'


def tar_gz(files: dict[str, bytes]) -> bytes:
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as bundle:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            bundle.addfile(info, io.BytesIO(content))
    return data.getvalue()


def zip_of(files: dict[str, bytes]) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as bundle:
        for name, content in files.items():
            bundle.writestr(name, content)
    return data.getvalue()


GOOD = {"bot.toml": MANIFEST, "main.py": b"print('hi')\n"}


def upload(client: Any, content: bytes, name: str = "bot.tar.gz", bot: str = "my-bot") -> Any:
    return client.post("/api/versions/", {"bot": bot, "archive": SimpleUploadedFile(name, content)})


def assert_nothing_stored(artifact_dir: Path) -> None:
    assert not BotVersion.objects.exists()
    assert not Bot.objects.exists()
    assert not artifact_dir.exists() or not any(p.is_file() for p in artifact_dir.rglob("*"))


def test_it_stores_a_new_validating_version(owner: Any, client_for: Callable, artifact_dir: Path) -> None:
    response = upload(client_for(owner), tar_gz(GOOD))
    assert response.status_code == 201, response.content
    body = response.json()
    version = BotVersion.objects.get()
    assert response["Location"] == f"/api/versions/{version.pk}/"
    assert (body["id"], body["bot_name"], body["owner"], body["number"]) == (version.pk, "my-bot", "owner", 1)
    assert body["status"] == "validating"
    assert body["manifest"] == {"name": "my-bot", "entry": "main.py", "games": ["watch"]}
    assert (artifact_dir / version.archive_key).is_file()
    second = upload(client_for(owner), zip_of({**GOOD, "main.py": b"print('v2')\n"}), "bot.zip").json()
    assert (second["number"], second["predecessor"], second["archive_format"]) == (2, version.pk, "zip")


def test_a_version_shows_up_in_its_bots_list(owner: Any, client_for: Callable, artifact_dir: Path) -> None:
    upload(client_for(owner), tar_gz(GOOD))
    bot = Bot.objects.get()
    versions = client_for(None).get(f"/api/bots/{bot.pk}/versions/").json()["results"]
    assert [(v["number"], v["status"]) for v in versions] == [(1, "validating")]


@pytest.mark.parametrize(
    ("content", "name", "message"),
    [
        (b"just some text, not an archive", "bot.tar.gz", "not a bot directory, .zip or .tar.gz"),
        (tar_gz({**GOOD, "../evil.py": b"x"}), "bot.tar.gz", "evil.py"),
        (tar_gz({**GOOD, "/etc/cron.d/evil": b"x"}), "bot.tar.gz", "evil"),
        (zip_of({**GOOD, "../../evil.py": b"x"}), "bot.zip", "evil.py"),
        (tar_gz({"main.py": b"print('hi')\n"}), "bot.tar.gz", "bot.toml"),
        (tar_gz({"bot.toml": b"name = my-bot\n", "main.py": b""}), "bot.tar.gz", "bot.toml is not valid TOML"),
        (tar_gz({"bot.toml": b'name = "my-bot"\nentry = "gone.py"\n'}), "bot.tar.gz", "gone.py"),
        (b"\x1f\x8b" + b"\x00" * 100, "bot.tar.gz", "bot.tar.gz"),
    ],
)
def test_a_hostile_upload_is_400_with_the_reason_and_stores_nothing(
    owner: Any, client_for: Callable, artifact_dir: Path, content: bytes, name: str, message: str
) -> None:
    response = upload(client_for(owner), content, name)
    assert response.status_code == 400, response.content
    (error,) = response.json()["archive"]
    assert message in error
    assert_nothing_stored(artifact_dir)


@pytest.mark.parametrize(
    ("name", "safe"),
    [
        ("../../../../tmp/escaped.tar.gz", "escaped.tar.gz"),
        ("/tmp/x y.zip", "x_y.zip"),
        ("..", "upload"),
        ("", "upload"),
    ],
)
def test_the_uploaded_file_name_cannot_leave_the_scratch_folder(name: str, safe: str) -> None:
    assert safe_upload_name(name) == safe


def test_an_upload_named_like_a_path_is_stored_by_its_hash(
    owner: Any, client_for: Callable, artifact_dir: Path
) -> None:
    content = tar_gz(GOOD)
    response = upload(client_for(owner), content, "../../../../tmp/escaped.tar.gz")
    assert response.status_code == 201
    version = BotVersion.objects.get()
    assert (artifact_dir / version.archive_key).read_bytes() == content


def test_an_archive_over_the_limit_is_400(owner: Any, client_for: Callable, artifact_dir: Path) -> None:
    # Just over 20 MB: read, then refused by the package checks.
    response = upload(client_for(owner), b"\x1f\x8b" + b"\x00" * (20 * 2**20 - 1))
    assert response.status_code == 400
    assert "MB" in response.json()["archive"][0]
    assert_nothing_stored(artifact_dir)


def test_a_body_far_over_the_limit_is_refused_before_it_is_read(
    owner: Any, client_for: Callable, artifact_dir: Path
) -> None:
    response = upload(client_for(owner), b"\x00" * (21 * 2**20))
    assert response.status_code == 400
    assert "may be at most 20 MB" in response.json()["archive"][0]
    assert_nothing_stored(artifact_dir)


@pytest.mark.parametrize(
    ("data", "field"),
    [({"bot": "my-bot"}, "archive"), ({}, "bot"), ({"bot": "x" * 41}, "bot")],
)
def test_missing_fields_are_400(owner: Any, client_for: Callable, artifact_dir: Path, data: dict, field: str) -> None:
    response = client_for(owner).post("/api/versions/", data)
    assert response.status_code == 400
    assert field in response.json()
    assert_nothing_stored(artifact_dir)


@pytest.mark.parametrize("bot", ["../other", "has space", "a\x00b", "ünï"])
def test_a_bad_bot_name_is_400(owner: Any, client_for: Callable, artifact_dir: Path, bot: str) -> None:
    response = upload(client_for(owner), tar_gz(GOOD), bot=bot)
    assert response.status_code == 400
    assert "bot name" in str(response.json()) or "bot" in response.json()
    assert_nothing_stored(artifact_dir)


def test_anonymous_uploads_are_401(client_for: Callable, artifact_dir: Path, db: None) -> None:
    response = upload(client_for(None), tar_gz(GOOD))
    assert response.status_code == 401
    assert_nothing_stored(artifact_dir)


def test_the_same_name_from_another_user_is_their_own_bot(
    owner: Any, other: Any, client_for: Callable, artifact_dir: Path
) -> None:
    upload(client_for(owner), tar_gz(GOOD))
    response = upload(client_for(other), tar_gz({**GOOD, "main.py": b"print('evil')\n"}))
    assert response.status_code == 201
    assert response.json()["owner"] == "mallory"
    mine = Bot.objects.get(owner=owner, name="my-bot")
    assert [v.number for v in mine.versions.all()] == [1]
    assert Bot.objects.get(owner=other, name="my-bot").versions.count() == 1


def test_versions_cannot_be_changed_or_deleted(
    owner: Any, staff: Any, client_for: Callable, artifact_dir: Path
) -> None:
    version_id = upload(client_for(owner), tar_gz(GOOD)).json()["id"]
    for user in (owner, staff):
        client = client_for(user)
        assert client.put(f"/api/versions/{version_id}/", {"status": "active"}).status_code == 405
        assert client.patch(f"/api/versions/{version_id}/", {"status": "active"}).status_code == 405
        assert client.delete(f"/api/versions/{version_id}/").status_code == 405
        bot_id = BotVersion.objects.get().bot_id
        assert client.delete(f"/api/bots/{bot_id}/").status_code == 405
    assert BotVersion.objects.get().status == "validating"


def test_too_many_uploads_are_429_with_the_retry_time(
    owner: Any, other: Any, client_for: Callable, artifact_dir: Path, settings: Any
) -> None:
    settings.ARENA_UPLOAD_RATE = "2/h"
    client = client_for(owner)
    assert upload(client, tar_gz(GOOD)).status_code == 201
    assert upload(client, b"not an archive").status_code == 400  # refused uploads count too
    response = upload(client, tar_gz(GOOD))
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600  # the end of the quota's hour window
    assert "throttled" in response.json()["detail"]
    assert BotVersion.objects.count() == 1
    assert client.get("/api/versions/").status_code == 200  # browsing is not limited
    assert upload(client_for(other), tar_gz(GOOD)).status_code == 201  # the limit is per user


def test_a_huge_name_in_bot_toml_is_quoted_short_in_the_400(
    owner: Any, client_for: Callable, artifact_dir: Path
) -> None:
    """bot.toml's name of 60,000 characters (and as many in the bot name field): an error of a line, not 60 KB."""
    manifest = b'name = "' + b"n" * 60_000 + b'"\nentry = "main.py"\n'
    response = upload(client_for(owner), tar_gz({"bot.toml": manifest, "main.py": b""}))
    assert response.status_code == 400, response.content[:500]
    (error,) = response.json()["archive"]
    assert error.startswith(f"bot.toml: name '{'n' * 80}'… (60,000 characters) is not 1-40 letters"), error[:300]
    assert len(response.content) < 1000
    response = upload(client_for(owner), tar_gz(GOOD), bot="b" * 60_000)
    assert response.status_code == 400
    assert len(response.content) < 1000
    assert_nothing_stored(artifact_dir)
