"""submit_version: a bot package checked before anything is stored, then stored once under its sha256."""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from arena.bots import signals
from arena.bots.models import Bot, BotVersion
from arena.bots.submissions import SubmissionError, submit_version
from workers.botpkg import load_bot_package

pytestmark = pytest.mark.django_db


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def zip_of(directory: Path, destination: Path) -> Path:
    with zipfile.ZipFile(destination, "w") as bundle:
        for path in sorted(directory.rglob("*")):
            bundle.write(path, path.relative_to(directory).as_posix())
    return destination


def test_it_stores_a_directory_as_a_content_addressed_tar_gz(
    user: Any,
    write_bot: Callable[..., Path],
    artifact_dir: Path,
    files_under: Callable[[Path], list[str]],
    tmp_path: Path,
) -> None:
    version = submit_version(user, "my-bot", write_bot())
    sha = version.archive_sha256
    assert files_under(artifact_dir) == [f"bots/{sha[:2]}/{sha}.tar.gz"]
    stored = artifact_dir / version.archive_key
    assert sha256_of(stored) == sha
    assert stored.stat().st_size == version.archive_size
    # What a match worker will fetch loads as the same bot.
    package = load_bot_package(stored, tmp_path / "worker")
    assert (package.name, package.entry, package.games) == ("my-bot", "main.py", ("watch",))
    assert (package.directory / "main.py").read_text() == "print('hi')\n"
    assert str(version) == "alice/my-bot v1"
    assert version.status == BotVersion.Status.VALIDATING
    assert (version.number, version.predecessor) == (1, None)
    assert version.manifest == {"name": "my-bot", "entry": "main.py", "games": ["watch"]}
    assert (version.entry, version.games, version.archive_format) == ("main.py", ["watch"], "tar.gz")


def test_it_stores_a_zip_as_uploaded(
    user: Any,
    write_bot: Callable[..., Path],
    artifact_dir: Path,
    files_under: Callable[[Path], list[str]],
    tmp_path: Path,
) -> None:
    upload = zip_of(write_bot(), tmp_path / "upload.zip")
    version = submit_version(user, "my-bot", upload)
    assert version.archive_sha256 == sha256_of(upload)
    assert version.archive_format == "zip"
    assert files_under(artifact_dir) == [version.archive_key]
    assert (artifact_dir / version.archive_key).read_bytes() == upload.read_bytes()


def test_it_stores_a_tar_gz_as_uploaded(
    user: Any, write_bot: Callable[..., Path], artifact_dir: Path, tmp_path: Path
) -> None:
    upload = tmp_path / "upload.tgz"
    with tarfile.open(upload, "w:gz") as bundle:
        bundle.add(write_bot(), arcname="mybot")  # one top-level folder holding the bot: accepted
    version = submit_version(user, "my-bot", upload)
    assert version.archive_sha256 == sha256_of(upload)
    assert (artifact_dir / version.archive_key).read_bytes() == upload.read_bytes()


def test_it_stores_the_same_content_once(
    user: Any,
    django_user_model: Any,
    write_bot: Callable[..., Path],
    artifact_dir: Path,
    files_under: Callable[[Path], list[str]],
) -> None:
    first = submit_version(user, "my-bot", write_bot("one"))
    # The same files elsewhere, with a __pycache__ left by a local run: the same archive.
    again = write_bot("two", **{"__pycache__/main.cpython-311.pyc": "junk"})
    second = submit_version(django_user_model.objects.create_user("bob"), "copycat", again)
    assert first.archive_sha256 == second.archive_sha256
    assert files_under(artifact_dir) == [first.archive_key]
    assert BotVersion.objects.count() == 2


def test_it_numbers_versions_and_links_each_to_its_predecessor(
    user: Any, write_bot: Callable[..., Path], artifact_dir: Path, files_under: Callable[[Path], list[str]]
) -> None:
    first = submit_version(user, "my-bot", write_bot("v1"))
    second = submit_version(user, "my-bot", write_bot("v2", main="print('better')\n"))
    other = submit_version(user, "other-bot", write_bot("v3", main="print('other')\n"))
    assert (first.number, second.number, other.number) == (1, 2, 1)
    assert second.predecessor == first
    assert other.predecessor is None
    assert second.bot == first.bot
    assert Bot.objects.filter(owner=user).count() == 2
    assert len(files_under(artifact_dir)) == 3


def test_it_announces_the_new_version_once_committed(
    user: Any, write_bot: Callable[..., Path], artifact_dir: Path, django_capture_on_commit_callbacks: Any
) -> None:
    received: list[Any] = []

    def receiver(sender: Any, version: BotVersion, **kwargs: Any) -> None:
        received.append(version)

    signals.version_submitted.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            version = submit_version(user, "my-bot", write_bot())
        assert received == []  # not before the commit: a task must find the row
        for callback in callbacks:
            callback()
    finally:
        signals.version_submitted.disconnect(receiver)
    assert received == [version]


# -- refusals: each leaves no row and no file behind ---------------------------------------------------


def not_a_bot(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    return path


def missing_manifest(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    directory = write_bot()
    (directory / "bot.toml").unlink()
    return directory


def unknown_manifest_key(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    directory = write_bot()
    (directory / "bot.toml").write_text('name = "my-bot"\nentry = "main.py"\nlanguage = "python"\n')
    return directory


def zip_escaping_its_folder(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    path = zip_of(write_bot(), tmp_path / "evil.zip")
    with zipfile.ZipFile(path, "a") as bundle:
        bundle.writestr("../outside.txt", "gotcha")
    return path


def symlink_in_directory(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    directory = write_bot()
    os.symlink("/etc/passwd", directory / "passwd")
    return directory


def corrupt_tar_gz(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    path = tmp_path / "broken.tar.gz"
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as bundle:
        bundle.add(write_bot(), arcname=".")
    path.write_bytes(data.getvalue()[: len(data.getvalue()) // 2])
    return path


def oversized_archive(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    path = tmp_path / "huge.zip"
    with path.open("wb") as handle:
        handle.write(b"PK\x03\x04")
        handle.truncate(21 * 1024 * 1024)  # sparse: fast to make
    return path


def missing_path(tmp_path: Path, write_bot: Callable[..., Path]) -> Path:
    return tmp_path / "nowhere"


@pytest.mark.parametrize(
    ("make_package", "message"),
    [
        (not_a_bot, "notes.txt: not a bot directory, .zip or .tar.gz archive"),
        (missing_manifest, "no bot.toml at the top of the package"),
        (unknown_manifest_key, "bot.toml has unknown key(s) 'language'"),
        (zip_escaping_its_folder, "evil.zip: the member '../outside.txt' goes up with '..'"),
        (symlink_in_directory, "is a symbolic link"),
        (corrupt_tar_gz, "broken.tar.gz"),
        (oversized_archive, "huge.zip: the archive is 21.0 MB, over the 20.0 MB limit"),
        (missing_path, "nowhere: no such file or directory"),
    ],
)
def test_it_refuses_a_bad_package_and_keeps_nothing(
    user: Any,
    write_bot: Callable[..., Path],
    artifact_dir: Path,
    scratch_dir: Path,
    files_under: Callable[[Path], list[str]],
    tmp_path: Path,
    make_package: Callable[[Path, Callable[..., Path]], Path],
    message: str,
) -> None:
    package = make_package(tmp_path, write_bot)
    with pytest.raises(SubmissionError) as caught:
        submit_version(user, "my-bot", package)
    assert message in str(caught.value)
    assert Bot.objects.count() == 0
    assert BotVersion.objects.count() == 0
    assert files_under(artifact_dir) == []
    assert files_under(scratch_dir) == []
    assert list(scratch_dir.iterdir()) == []


def test_it_refuses_a_bad_second_version_and_keeps_the_first(
    user: Any, write_bot: Callable[..., Path], artifact_dir: Path, files_under: Callable[[Path], list[str]]
) -> None:
    first = submit_version(user, "my-bot", write_bot("good"))
    broken = write_bot("broken")
    (broken / "main.py").unlink()
    with pytest.raises(SubmissionError, match=r"entry 'main.py' is not in the package"):
        submit_version(user, "my-bot", broken)
    assert list(BotVersion.objects.all()) == [first]
    assert files_under(artifact_dir) == [first.archive_key]


@pytest.mark.parametrize("bot_name", ["", "has space", "x" * 41, "../etc", "name\n", "\u202eevil", "y" * 60_000])
def test_it_refuses_a_bad_bot_name(
    user: Any,
    write_bot: Callable[..., Path],
    artifact_dir: Path,
    files_under: Callable[[Path], list[str]],
    bot_name: str,
) -> None:
    with pytest.raises(SubmissionError, match="is not 1-40 letters, digits, '-' or '_'") as caught:
        submit_version(user, bot_name, write_bot())
    assert len(str(caught.value)) < 200  # a short prefix of the name, every character of it visible
    assert "\n" not in str(caught.value)
    assert "\u202e" not in str(caught.value)
    assert Bot.objects.count() == 0
    assert files_under(artifact_dir) == []


def test_it_refuses_an_inactive_owner(
    user: Any, write_bot: Callable[..., Path], artifact_dir: Path, files_under: Callable[[Path], list[str]]
) -> None:
    user.is_active = False
    user.save()
    with pytest.raises(SubmissionError, match="user 'alice' is inactive"):
        submit_version(user, "my-bot", write_bot())
    assert Bot.objects.count() == 0
    assert files_under(artifact_dir) == []


def test_it_keeps_nothing_when_storing_fails(
    user: Any,
    write_bot: Callable[..., Path],
    artifact_dir: Path,
    files_under: Callable[[Path], list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def full_disk(*args: Any, **kwargs: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("arena.bots.artifacts.shutil.copyfileobj", full_disk)
    with pytest.raises(OSError, match="No space left"):
        submit_version(user, "my-bot", write_bot())
    assert Bot.objects.count() == 0
    assert BotVersion.objects.count() == 0
    assert files_under(artifact_dir) == []
