"""Uploading a bot: a good archive becomes a validating version; every bad one is refused on the form."""

from __future__ import annotations

import html
import io
import shutil
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from arena.bots.models import Bot, BotVersion
from workers.botpkg import MAX_ARCHIVE_BYTES

pytestmark = pytest.mark.django_db

RANDOM_BOT = Path(__file__).resolve().parents[3] / "bots" / "watch" / "packages" / "random"


@pytest.fixture
def store(artifact_dir: Path) -> Callable[[], list[str]]:
    """Return a function listing the files in the (fresh) artifact store."""
    return lambda: sorted(str(p.relative_to(artifact_dir)) for p in artifact_dir.rglob("*") if p.is_file())


@pytest.fixture
def good_zip(tmp_path: Path) -> Path:
    return Path(shutil.make_archive(str(tmp_path / "random-bot"), "zip", root_dir=RANDOM_BOT))


def zip_of(tmp_path: Path, name: str, members: dict[str, str]) -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        for member, text in members.items():
            archive.writestr(member, text)
    return path


def upload(client: Client, name: str, path: Path) -> Any:
    with path.open("rb") as handle:
        return client.post(reverse("upload"), {"bot_name": name, "archive": handle})


def errors_of(response: Any) -> str:
    page = html.unescape(response.content.decode())
    return " ".join(part.split("</ul>", 1)[0] for part in page.split('class="errors"')[1:])


def test_a_good_archive_becomes_a_validating_version_shown_on_the_bot_page(
    user: Any, client_of: Callable[[Any], Client], good_zip: Path, store: Callable[[], list[str]]
) -> None:
    client = client_of(user)
    response = upload(client, "my-random", good_zip)
    version = BotVersion.objects.get(bot__owner=user, bot__name="my-random")
    assert response.status_code == 302
    assert response["Location"] == reverse("bot", args=[version.bot_id])
    assert version.number == 1
    assert version.status == BotVersion.Status.VALIDATING
    assert store() == [version.archive_key]
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "Uploaded my-random version 1. It is being validated" in page
    assert '<span class="status status-validating">validating</span>' in page
    again = upload(client, "my-random", good_zip)
    assert again.status_code == 302
    assert list(Bot.objects.get(owner=user, name="my-random").versions.values_list("number", "status")) == [
        (1, "validating"),
        (2, "validating"),
    ]


def test_the_same_name_as_another_users_bot_makes_the_uploaders_own_bot(
    user: Any,
    make_user: Callable[..., Any],
    make_version: Callable[..., Any],
    client_of: Callable[[Any], Client],
    good_zip: Path,
) -> None:
    bob = make_user("bob")
    theirs = make_version("foo", owner=bob)
    assert upload(client_of(user), "foo", good_zip).status_code == 302
    assert list(Bot.objects.get(pk=theirs.bot_id).versions.values_list("number", flat=True)) == [1]
    mine = Bot.objects.get(owner=user, name="foo")
    assert mine.pk != theirs.bot_id
    assert mine.versions.get().number == 1


@pytest.mark.parametrize(
    ("make_archive", "message"),
    [
        (lambda tmp: (tmp / "bot.zip").write_text("just text") and tmp / "bot.zip", "bot.zip: not a bot directory"),
        (
            lambda tmp: zip_of(tmp, "escape.zip", {"bot.toml": 'name = "x"\nentry = "main.py"\n', "../evil.py": "x"}),
            "escape.zip: the member '../evil.py' goes up with '..'",
        ),
        (
            lambda tmp: zip_of(tmp, "abs.zip", {"bot.toml": 'name = "x"\nentry = "main.py"\n', "/etc/evil": "x"}),
            "abs.zip: the member '/etc/evil' is an absolute path",
        ),
        (lambda tmp: zip_of(tmp, "nomanifest.zip", {"main.py": "print(1)"}), "no bot.toml at the top of the package"),
        (
            lambda tmp: zip_of(tmp, "noentry.zip", {"bot.toml": 'name = "x"\nentry = "missing.py"\n'}),
            "entry 'missing.py' is not in the package",
        ),
    ],
    ids=["not-an-archive", "path-traversal", "absolute-path", "missing-manifest", "missing-entry"],
)
def test_a_bad_archive_is_refused_on_the_form_and_nothing_is_stored(
    user: Any,
    client_of: Callable[[Any], Client],
    tmp_path: Path,
    store: Callable[[], list[str]],
    make_archive: Callable[[Path], Path],
    message: str,
) -> None:
    response = upload(client_of(user), "bad-bot", make_archive(tmp_path))
    assert response.status_code == 400
    assert message in errors_of(response)
    assert not Bot.objects.exists()
    assert not BotVersion.objects.exists()
    assert store() == []


def test_a_symlink_in_a_tarball_is_refused(
    user: Any, client_of: Callable[[Any], Client], tmp_path: Path, store: Callable[[], list[str]]
) -> None:
    path = tmp_path / "link.tar.gz"
    with tarfile.open(path, "w:gz") as archive:
        manifest = b'name = "x"\nentry = "main.py"\n'
        info = tarfile.TarInfo("bot.toml")
        info.size = len(manifest)
        archive.addfile(info, io.BytesIO(manifest))
        link = tarfile.TarInfo("main.py")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    response = upload(client_of(user), "linky", path)
    assert response.status_code == 400
    assert "link.tar.gz" in errors_of(response)
    assert not BotVersion.objects.exists()
    assert store() == []


def test_an_archive_over_the_limit_is_refused_without_being_stored(
    user: Any, client_of: Callable[[Any], Client], tmp_path: Path, store: Callable[[], list[str]]
) -> None:
    path = tmp_path / "huge.zip"
    with path.open("wb") as out:
        out.write(b"PK\x03\x04")
        out.truncate(MAX_ARCHIVE_BYTES + 1)
    response = upload(client_of(user), "huge", path)
    assert response.status_code == 400
    assert "over the 20.0 MB limit" in errors_of(response)
    assert html.unescape(response.content.decode()).count('value="huge"') == 1  # the name is kept on the form
    assert not BotVersion.objects.exists()
    assert store() == []


@pytest.mark.parametrize("name", ["", "has space", "../../etc", "x" * 41, "<script>"])
def test_a_bad_bot_name_is_refused_on_the_form(
    user: Any, client_of: Callable[[Any], Client], good_zip: Path, name: str
) -> None:
    response = upload(client_of(user), name, good_zip)
    assert response.status_code == 400
    assert "<script>" not in response.content.decode()
    assert errors_of(response)
    assert not BotVersion.objects.exists()


def test_a_missing_file_is_refused_on_the_form(user: Any, client_of: Callable[[Any], Client]) -> None:
    response = client_of(user).post(reverse("upload"), {"bot_name": "nofile"})
    assert response.status_code == 400
    assert "This field is required." in errors_of(response)


def test_anonymous_visitors_are_sent_to_log_in(client_of: Callable[[Any], Client], good_zip: Path, db: None) -> None:
    response = upload(client_of(None), "sneaky", good_zip)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not BotVersion.objects.exists()


def test_a_post_without_the_csrf_token_is_refused(user: Any, good_zip: Path) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    form = client.get(reverse("upload"))
    assert 'name="csrfmiddlewaretoken"' in form.content.decode()
    response = upload(client, "no-token", good_zip)
    assert response.status_code == 403
    assert "security token" in response.content.decode()
    assert not BotVersion.objects.exists()


def test_uploads_are_rate_limited_per_user_with_a_429_saying_when_to_retry(
    user: Any, make_user: Callable[..., Any], client_of: Callable[[Any], Client], settings: Any, tmp_path: Path
) -> None:
    settings.ARENA_UPLOAD_RATE = "2/h"
    client = client_of(user)
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip")
    assert [upload(client, "rl", junk).status_code for _ in range(2)] == [400, 400]
    limited = upload(client, "rl", junk)
    assert limited.status_code == 429
    retry = int(limited["Retry-After"])
    assert 0 < retry <= 3600
    assert f"Try again in {retry} second" in limited.content.decode()
    assert upload(client_of(make_user("other")), "rl", junk).status_code == 400  # per user, not global
