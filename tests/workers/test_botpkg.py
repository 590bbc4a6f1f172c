"""Loading bot packages: good directories and archives load; every hostile or broken one is refused.

Each hostile archive is built here, byte by byte where the standard library
would refuse to write it. A refused archive must leave nothing in work_dir.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import stat
import struct
import tarfile
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from workers.botpkg import MAX_FILES, BotPackageError, load_bot_package
from workers.sandbox import python_bot_command

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = b'name = "test-bot"\nentry = "main.py"\ngames = ["watch"]\n'
MAIN = b"from bots.sdk import run\n\nrun(lambda observation, legal_actions: legal_actions[0])\n"
GOOD = {"bot.toml": MANIFEST, "main.py": MAIN}
SHELL_MANIFEST = b'name = "shell-bot"\nentry = "run"\n'
SHELL_RUN = b"#!/bin/sh\nexit 0\n"


# -- building archives ---------------------------------------------------------------------
def zip_member(
    bundle: zipfile.ZipFile, name: str, data: bytes = b"", mode: int = stat.S_IFREG | 0o644, deflate: bool = False
) -> None:
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.create_system = 3  # Unix, so the mode bits count
    info.external_attr = mode << 16
    info.compress_type = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about duplicate names, which some tests want
        bundle.writestr(info, data)


def make_zip(path: Path, members: dict[str, bytes], modes: dict[str, int] | None = None) -> Path:
    modes = modes or {}
    with zipfile.ZipFile(path, "w") as bundle:
        for name, data in members.items():
            zip_member(bundle, name, data, modes.get(name, stat.S_IFREG | 0o644))
    return path


def tar_member(
    bundle: tarfile.TarFile, name: str, data: bytes = b"", kind: bytes = tarfile.REGTYPE, mode: int = 0o644, **extra
) -> None:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.mode = mode
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    for key, value in extra.items():
        setattr(info, key, value)
    bundle.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)


def make_tar_gz(path: Path, members: dict[str, bytes], modes: dict[str, int] | None = None) -> Path:
    modes = modes or {}
    with tarfile.open(path, "w:gz") as bundle:
        for name, data in members.items():
            tar_member(bundle, name, data, mode=modes.get(name, 0o644))
    return path


def patch_zip_sizes(raw: bytes, name: bytes, size: int) -> bytes:
    """Return ``raw`` with the uncompressed size of member ``name`` rewritten in both of its headers."""
    out = bytearray(raw)
    local = out.find(b"PK\x03\x04")
    while local >= 0:
        name_length = struct.unpack_from("<H", out, local + 26)[0]
        if out[local + 30 : local + 30 + name_length] == name:
            struct.pack_into("<I", out, local + 22, size)
        local = out.find(b"PK\x03\x04", local + 4)
    central = out.find(b"PK\x01\x02")
    while central >= 0:
        name_length = struct.unpack_from("<H", out, central + 28)[0]
        if out[central + 46 : central + 46 + name_length] == name:
            struct.pack_into("<I", out, central + 24, size)
        central = out.find(b"PK\x01\x02", central + 4)
    return bytes(out)


@pytest.fixture
def work_dir(tmp_path: Path) -> Path:
    """The directory packages unpack into; every test leaves it as it found it or holds one bot."""
    directory = tmp_path / "work"
    directory.mkdir()
    return directory


def assert_refused(archive: Path, work_dir: Path, match: str, **limits: int) -> BotPackageError:
    """Load ``archive``, expect a refusal matching ``match``, and check nothing was left behind."""
    with pytest.raises(BotPackageError, match=match) as refusal:
        load_bot_package(archive, work_dir, **limits)
    assert list(work_dir.iterdir()) == [], "a refused package left files in work_dir"
    return refusal.value


# -- good packages ------------------------------------------------------------------------
def test_it_loads_a_bot_directory_in_place(tmp_path: Path, work_dir: Path) -> None:
    package = load_bot_package(ROOT / "bots/watch/packages/solver", work_dir)

    assert package.name == "solver"
    assert package.entry == "main.py"
    assert package.directory == ROOT / "bots/watch/packages/solver"
    assert package.command == python_bot_command("main.py")
    assert package.games == ("watch",)
    assert len(package.sha256) == 64
    assert list(work_dir.iterdir()) == []  # a directory is not copied


def test_it_runs_an_executable_entry_directly(work_dir: Path) -> None:
    package = load_bot_package(ROOT / "bots/starter/watch-shell", work_dir)

    assert package.command == ["/bot/run"]


def test_a_directory_digest_is_deterministic_and_follows_the_content(tmp_path: Path, work_dir: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.toml").write_bytes(MANIFEST)
    (bot / "main.py").write_bytes(MAIN)
    first = load_bot_package(bot, work_dir).sha256
    os.utime(bot / "main.py", (0, 0))  # timestamps do not count
    (bot / "__pycache__").mkdir()  # nor does a local run's cache
    (bot / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"junk")

    assert load_bot_package(bot, work_dir).sha256 == first
    (bot / "main.py").write_bytes(MAIN + b"# changed\n")
    assert load_bot_package(bot, work_dir).sha256 != first


def test_it_unpacks_a_zip(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {**GOOD, "lib/helper.py": b"X = 1\n"})

    package = load_bot_package(archive, work_dir)

    assert package.name == "test-bot"
    assert package.directory.parent == work_dir
    assert (package.directory / "lib" / "helper.py").read_bytes() == b"X = 1\n"
    assert package.sha256 == hashlib.sha256(archive.read_bytes()).hexdigest()
    assert stat.S_IMODE(package.directory.stat().st_mode) == 0o755  # readable by the sandbox's uid
    assert [p.name for p in work_dir.iterdir()] == [package.directory.name]  # no staging left


def test_it_unpacks_a_tar_gz_and_keeps_the_executable_bit(tmp_path: Path, work_dir: Path) -> None:
    archive = make_tar_gz(tmp_path / "bot.tar.gz", {"bot.toml": SHELL_MANIFEST, "run": SHELL_RUN}, {"run": 0o755})

    package = load_bot_package(archive, work_dir)

    assert package.command == ["/bot/run"]
    assert os.access(package.directory / "run", os.X_OK)
    assert stat.S_IMODE((package.directory / "bot.toml").stat().st_mode) == 0o644


def test_it_keeps_the_executable_bit_from_a_zip(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(
        tmp_path / "bot.zip", {"bot.toml": SHELL_MANIFEST, "run": SHELL_RUN}, {"run": stat.S_IFREG | 0o755}
    )

    package = load_bot_package(archive, work_dir)

    assert os.access(package.directory / "run", os.X_OK)


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_it_accepts_a_bot_inside_a_single_top_level_directory(kind: str, tmp_path: Path, work_dir: Path) -> None:
    members = {f"my-bot/{name}": data for name, data in GOOD.items()}
    archive = (make_zip if kind == "zip" else make_tar_gz)(tmp_path / f"bot.{kind}", members)

    package = load_bot_package(archive, work_dir)

    assert (package.directory / "bot.toml").read_bytes() == MANIFEST
    assert [p.name for p in work_dir.iterdir()] == [package.directory.name]


def test_it_accepts_a_tar_made_with_dot_paths(tmp_path: Path, work_dir: Path) -> None:
    # `tar czf bot.tar.gz -C mybot .` stores "./" and "./bot.toml".
    archive = tmp_path / "bot.tar.gz"
    with tarfile.open(archive, "w:gz") as bundle:
        tar_member(bundle, ".", kind=tarfile.DIRTYPE, mode=0o755)
        for name, data in GOOD.items():
            tar_member(bundle, f"./{name}", data)

    assert load_bot_package(archive, work_dir).name == "test-bot"


def test_it_skips_the_macos_resource_folder(tmp_path: Path, work_dir: Path) -> None:
    members = {**{f"my-bot/{n}": d for n, d in GOOD.items()}, "__MACOSX/my-bot/._main.py": b"\x00\x05"}
    archive = make_zip(tmp_path / "bot.zip", members)

    package = load_bot_package(archive, work_dir)

    assert sorted(p.name for p in package.directory.iterdir()) == ["bot.toml", "main.py"]


# -- what kind of file --------------------------------------------------------------------
def test_it_refuses_a_file_that_is_not_an_archive(tmp_path: Path, work_dir: Path) -> None:
    path = tmp_path / "main.py"
    path.write_bytes(MAIN)

    error = assert_refused(path, work_dir, "not a bot directory, .zip or .tar.gz")

    assert "tar czf" in str(error)


def test_it_refuses_an_uncompressed_tar(tmp_path: Path, work_dir: Path) -> None:
    path = tmp_path / "bot.tar"
    with tarfile.open(path, "w") as bundle:
        tar_member(bundle, "bot.toml", MANIFEST)

    assert_refused(path, work_dir, "not a bot directory, .zip or .tar.gz")


def test_it_refuses_a_missing_path(tmp_path: Path, work_dir: Path) -> None:
    assert_refused(tmp_path / "nowhere.zip", work_dir, "no such file or directory")


def test_it_refuses_a_truncated_archive(tmp_path: Path, work_dir: Path) -> None:
    archive = make_tar_gz(tmp_path / "bot.tar.gz", {**GOOD, "data.bin": os.urandom(50_000)})
    archive.write_bytes(archive.read_bytes()[:20_000])

    assert_refused(archive, work_dir, "damaged")


# -- the manifest ----------------------------------------------------------------------------
def test_it_refuses_a_package_without_a_manifest(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {"main.py": MAIN})

    assert_refused(archive, work_dir, r"add a bot.toml with name and entry, see docs/bot-package.md")


def test_it_refuses_a_directory_without_a_manifest(tmp_path: Path, work_dir: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "main.py").write_bytes(MAIN)

    assert_refused(tmp_path / "bot", work_dir, "no bot.toml at the top of the package")


def test_it_refuses_a_manifest_that_is_not_toml_and_names_the_line(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {"bot.toml": b'entry = "main.py"\nname = my-bot\n', "main.py": MAIN})

    assert_refused(archive, work_dir, r"bot.toml is not valid TOML: .*line 2.*strings need quotes")


@pytest.mark.parametrize(
    ("manifest", "match"),
    [
        (b'entry = "main.py"\n', 'has no name; add a line like name = "my-bot"'),
        (b'name = "my bot!"\nentry = "main.py"\n', "name 'my bot!' is not 1-40 letters, digits"),
        (b'name = "' + b"x" * 41 + b'"\nentry = "main.py"\n', "is not 1-40 letters"),
        (b'name = 7\nentry = "main.py"\n', "name 7 is not"),
        (b'name = "bot"\n', 'has no entry; add entry = "main.py"'),
        (b'name = "bot"\nentry = ""\n', "entry must be a file name"),
        (b'name = "bot"\nentry = "main.py"\nversion = "1"\n', r"unknown key\(s\) 'version'; remove them"),
        (b'name = "bot"\nentry = "main.py"\ngames = "watch"\n', "games must be a list of game names"),
        (b'name = "bot"\nentry = "main.py"\ngames = ["chess"]\n', "'chess', which this arena does not run"),
    ],
)
def test_it_refuses_a_bad_manifest_field(manifest: bytes, match: str, tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {"bot.toml": manifest, "main.py": MAIN})

    assert_refused(archive, work_dir, match)


def test_it_refuses_an_entry_that_is_not_in_the_package(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {"bot.toml": MANIFEST, "bot.py": MAIN})

    assert_refused(archive, work_dir, r"entry 'main.py' is not in the package \(top level holds: 'bot.py'\)")


def test_it_refuses_a_non_executable_entry_and_says_chmod(tmp_path: Path, work_dir: Path) -> None:
    archive = make_tar_gz(tmp_path / "bot.tar.gz", {"bot.toml": SHELL_MANIFEST, "run": SHELL_RUN})

    assert_refused(archive, work_dir, r"entry 'run' is not executable .*chmod \+x run")


@pytest.mark.parametrize(
    ("entry", "match"),
    [
        ("../outside.py", "goes up with '..'"),
        ("lib/../../outside.py", "goes up with '..'"),
        ("/etc/passwd", "is an absolute path"),
    ],
)
def test_it_refuses_an_entry_escaping_the_package(entry: str, match: str, tmp_path: Path, work_dir: Path) -> None:
    manifest = f'name = "bot"\nentry = "{entry}"\n'.encode()
    archive = make_zip(tmp_path / "bot.zip", {"bot.toml": manifest, "main.py": MAIN})

    assert_refused(archive, work_dir, match)


def test_it_refuses_an_entry_that_is_a_directory(tmp_path: Path, work_dir: Path) -> None:
    manifest = b'name = "bot"\nentry = "lib"\n'
    archive = make_zip(tmp_path / "bot.zip", {"bot.toml": manifest, "lib/": b"", "lib/x.py": b""})

    assert_refused(archive, work_dir, "entry 'lib' is not a regular file")


# -- hostile names ------------------------------------------------------------------------
@pytest.mark.parametrize("make", [make_zip, make_tar_gz], ids=["zip", "tar.gz"])
@pytest.mark.parametrize(
    ("name", "match"),
    [
        ("../evil.py", "goes up with '..'"),
        ("lib/../../evil.py", "goes up with '..'"),
        ("/etc/evil.py", "is an absolute path"),
        ("evil\x1b[31m.py", "contains a control character"),
        ("lib\\evil.py", "contains a backslash"),
    ],
)
def test_it_refuses_a_member_with_a_hostile_name(
    make: Callable[..., Path], name: str, match: str, tmp_path: Path, work_dir: Path
) -> None:
    suffix = "zip" if make is make_zip else "tar.gz"
    archive = make(tmp_path / f"bot.{suffix}", {**GOOD, name: b"boom"})

    assert_refused(archive, work_dir, match)
    assert list(tmp_path.rglob("evil.py")) == []


def test_it_refuses_a_zip_member_whose_name_has_a_nul_byte(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {**GOOD, "evil_py": b"boom"})
    archive.write_bytes(archive.read_bytes().replace(b"evil_py", b"evil\x00py"))  # same length

    assert_refused(archive, work_dir, "contains a control character")


def test_it_refuses_a_zip_member_whose_name_is_not_utf8(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {**GOOD, "caf_.py": b"x"})
    archive.write_bytes(archive.read_bytes().replace(b"caf_.py", b"caf\xe9.py"))

    assert_refused(archive, work_dir, "not UTF-8")


def test_it_refuses_a_zip_member_flagged_utf8_that_is_not(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {**GOOD, "café.py": b"x"})  # zipfile sets the UTF-8 flag
    archive.write_bytes(archive.read_bytes().replace("café.py".encode(), b"caf\xff\xfe.py"))  # same length

    assert_refused(archive, work_dir, "not valid UTF-8|not UTF-8")


def test_it_refuses_a_tar_member_whose_name_is_not_utf8(tmp_path: Path, work_dir: Path) -> None:
    archive = tmp_path / "bot.tar.gz"
    with tarfile.open(archive, "w:gz", format=tarfile.GNU_FORMAT, encoding="utf-8", errors="surrogateescape") as bundle:
        for name, data in GOOD.items():
            tar_member(bundle, name, data)
        tar_member(bundle, b"caf\xe9.py".decode("utf-8", "surrogateescape"), b"x")

    assert_refused(archive, work_dir, "is not valid UTF-8")


def test_it_refuses_a_directory_holding_a_name_that_is_not_utf8(tmp_path: Path, work_dir: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.toml").write_bytes(MANIFEST)
    (bot / "main.py").write_bytes(MAIN)
    Path(os.fsdecode(os.fsencode(bot) + b"/caf\xe9.py")).write_bytes(b"x")

    assert_refused(bot, work_dir, "is not valid UTF-8")


# -- links, devices, duplicates -------------------------------------------------------------
def test_it_refuses_a_zip_with_a_symlink(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {**GOOD, "link": b"/etc/passwd"}, {"link": stat.S_IFLNK | 0o777})

    assert_refused(archive, work_dir, "'link' is a symbolic link; packages may not contain links")


def test_it_refuses_a_tar_with_a_symlink(tmp_path: Path, work_dir: Path) -> None:
    archive = tmp_path / "bot.tar.gz"
    with tarfile.open(archive, "w:gz") as bundle:
        for name, data in GOOD.items():
            tar_member(bundle, name, data)
        tar_member(bundle, "link", kind=tarfile.SYMTYPE, linkname="/etc/passwd")

    assert_refused(archive, work_dir, "'link' is a symbolic link")


def test_it_refuses_a_tar_with_a_hard_link(tmp_path: Path, work_dir: Path) -> None:
    archive = tmp_path / "bot.tar.gz"
    with tarfile.open(archive, "w:gz") as bundle:
        for name, data in GOOD.items():
            tar_member(bundle, name, data)
        tar_member(bundle, "again.py", kind=tarfile.LNKTYPE, linkname="main.py")

    assert_refused(archive, work_dir, "'again.py' is a hard link")


@pytest.mark.parametrize("kind", [tarfile.FIFOTYPE, tarfile.CHRTYPE, tarfile.BLKTYPE], ids=["fifo", "chr", "blk"])
def test_it_refuses_a_tar_with_a_device_or_fifo(kind: bytes, tmp_path: Path, work_dir: Path) -> None:
    archive = tmp_path / "bot.tar.gz"
    with tarfile.open(archive, "w:gz") as bundle:
        for name, data in GOOD.items():
            tar_member(bundle, name, data)
        tar_member(bundle, "special", kind=kind, devmajor=1, devminor=3)

    assert_refused(archive, work_dir, "'special' is a device, fifo or socket")


def test_it_refuses_a_zip_with_a_device(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {**GOOD, "null": b""}, {"null": stat.S_IFCHR | 0o666})

    assert_refused(archive, work_dir, "'null' is a device, fifo or socket")


def test_it_refuses_a_directory_with_a_symlink(tmp_path: Path, work_dir: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.toml").write_bytes(MANIFEST)
    (bot / "main.py").symlink_to("/etc/passwd")

    assert_refused(bot, work_dir, "'main.py' is a symbolic link")


def test_it_refuses_a_directory_with_a_fifo(tmp_path: Path, work_dir: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.toml").write_bytes(MANIFEST)
    (bot / "main.py").write_bytes(MAIN)
    os.mkfifo(bot / "pipe")

    assert_refused(bot, work_dir, "'pipe' is a device, fifo or socket")


@pytest.mark.parametrize("suffix", ["zip", "tar.gz"])
def test_it_refuses_duplicate_names(suffix: str, tmp_path: Path, work_dir: Path) -> None:
    archive = tmp_path / f"bot.{suffix}"
    if suffix == "zip":
        with zipfile.ZipFile(archive, "w") as bundle:
            for name, data in [*GOOD.items(), ("main.py", b"import os\n")]:
                zip_member(bundle, name, data)
    else:
        with tarfile.open(archive, "w:gz") as bundle:
            for name, data in [*GOOD.items(), ("./main.py", b"import os\n")]:
                tar_member(bundle, name, data)

    assert_refused(archive, work_dir, "'main.py' appears twice in the archive")


def test_it_refuses_a_path_that_is_both_a_file_and_a_directory(tmp_path: Path, work_dir: Path) -> None:
    archive = make_tar_gz(tmp_path / "bot.tar.gz", {**GOOD, "lib": b"x", "lib/helper.py": b"y"})

    assert_refused(archive, work_dir, "'lib' is both a file and a directory")


def test_it_refuses_an_encrypted_zip_member(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", GOOD)
    raw = bytearray(archive.read_bytes())
    for signature, flag_offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        at = raw.find(signature)
        while at >= 0:
            raw[at + flag_offset] |= 0x1
            at = raw.find(signature, at + 4)
    archive.write_bytes(bytes(raw))

    assert_refused(archive, work_dir, "is encrypted; pack the bot without a password")


# -- sizes and counts ---------------------------------------------------------------------------
def test_it_refuses_an_archive_over_the_size_limit(tmp_path: Path, work_dir: Path) -> None:
    archive = make_zip(tmp_path / "bot.zip", {**GOOD, "data.bin": os.urandom(20_000)})

    assert_refused(archive, work_dir, r"the archive is .* over the 10000 bytes limit", max_archive_bytes=10_000)


def test_it_refuses_a_zip_with_more_files_than_the_limit(tmp_path: Path, work_dir: Path) -> None:
    members = {**GOOD, **{f"data/{i}.txt": b"" for i in range(MAX_FILES)}}
    archive = make_zip(tmp_path / "bot.zip", members)

    assert_refused(archive, work_dir, f"more than {MAX_FILES} files")


def test_it_refuses_a_tar_gz_with_more_files_than_the_limit(tmp_path: Path, work_dir: Path) -> None:
    members = {**GOOD, **{f"data/{i}.txt": b"" for i in range(50)}}
    archive = make_tar_gz(tmp_path / "bot.tar.gz", members)

    assert_refused(archive, work_dir, "more than 50 files", max_files=50)


def test_it_refuses_a_directory_with_more_files_than_the_limit(tmp_path: Path, work_dir: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    for name, data in {**GOOD, "a": b"", "b": b""}.items():
        (bot / name).write_bytes(data)

    assert_refused(bot, work_dir, "more than 3 files", max_files=3)


def test_it_refuses_a_zip_bomb_by_its_declared_size(tmp_path: Path, work_dir: Path) -> None:
    archive = tmp_path / "bot.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for name, data in GOOD.items():
            zip_member(bundle, name, data)
        zip_member(bundle, "zeros.bin", bytes(5 * 1024 * 1024), deflate=True)
    assert archive.stat().st_size < 20_000  # a ratio of several hundred

    assert_refused(archive, work_dir, r"add up to more than 1.0 MB unpacked", max_unpacked_bytes=1024 * 1024)


def test_it_refuses_a_zip_bomb_whose_headers_lie_about_its_size(tmp_path: Path, work_dir: Path) -> None:
    archive = tmp_path / "bot.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        for name, data in GOOD.items():
            zip_member(bundle, name, data)
        zip_member(bundle, "zeros.bin", bytes(5 * 1024 * 1024), deflate=True)
    archive.write_bytes(patch_zip_sizes(archive.read_bytes(), b"zeros.bin", 100))

    # The headers now declare 100 bytes; the data inflates to 5 MB and is never written.
    assert_refused(archive, work_dir, "holds more data than its header declares|damaged")


def test_it_refuses_a_tar_gz_bomb(tmp_path: Path, work_dir: Path) -> None:
    archive = make_tar_gz(tmp_path / "bot.tar.gz", {**GOOD, "zeros.bin": bytes(5 * 1024 * 1024)})
    assert archive.stat().st_size < 20_000

    assert_refused(archive, work_dir, r"add up to more than 1.0 MB unpacked", max_unpacked_bytes=1024 * 1024)


def test_it_caps_what_a_hostile_tar_header_can_make_it_read(tmp_path: Path, work_dir: Path) -> None:
    # A pax header declaring 64 MB: tarfile would read all of it into memory.
    header = tarfile.TarInfo("././@PaxHeader")
    header.type = tarfile.XHDTYPE
    header.size = 64 * 1024 * 1024
    archive = tmp_path / "bot.tar.gz"
    with gzip.open(archive, "wb", compresslevel=1) as raw:
        raw.write(header.tobuf(format=tarfile.USTAR_FORMAT))
        chunk = bytes(1024 * 1024)
        for _ in range(64):
            raw.write(chunk)

    # Refused on its declared size, before the header is read (tests/workers/test_hostile_archives.py).
    assert_refused(archive, work_dir, "a tar header extension of 64.0 MB", max_unpacked_bytes=1024 * 1024, max_files=10)


def test_it_refuses_a_directory_over_the_unpacked_limit(tmp_path: Path, work_dir: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    for name, data in {**GOOD, "data.bin": bytes(5000)}.items():
        (bot / name).write_bytes(data)

    assert_refused(bot, work_dir, "add up to more than 4000 bytes", max_unpacked_bytes=4000)


# -- messages that quote the package --------------------------------------------------------
def test_an_error_quotes_at_most_a_short_visible_prefix_of_what_the_package_says(
    tmp_path: Path, work_dir: Path
) -> None:
    """A 60,000-character name must not come back as a 60 KB error (to the API, the upload page, the CLI)."""
    long = "x" * 60_000
    keys = "".join(f"k{index} = 1\n" for index in range(3000))
    bots = {
        "name": (f'name = "{long}"\nentry = "main.py"\n', f"name '{'x' * 80}'… (60,000 characters) is not"),
        "a list as name": (f'name = [{"1, " * 20_000}1]\nentry = "main.py"\n', "name [1, 1, 1"),
        "keys": (
            f'name = "bot"\nentry = "main.py"\n{keys}',
            "unknown key(s) 'k0', 'k1', 'k10', 'k100', 'k1000' and 2995 more",
        ),
        "entry": (f'name = "bot"\nentry = "{long}"\n', "(60,000 characters) is longer than 1024 bytes"),
        "games": (
            'name = "bot"\nentry = "main.py"\ngames = [' + ", ".join(f'"g{i:038d}"' for i in range(1500)) + "]\n",
            "and 1495 more, which this arena does not run",
        ),
        "bidi entry": (
            'name = "bot"\nentry = "\\u202eyp.niam"\n',
            "entry '\\u202eyp.niam' contains a bidirectional control",
        ),
    }
    for label, (manifest, match) in bots.items():
        directory = tmp_path / label
        directory.mkdir()
        (directory / "bot.toml").write_text(manifest)
        (directory / "main.py").write_bytes(MAIN)
        with pytest.raises(BotPackageError) as refusal:
            load_bot_package(directory, work_dir)
        message = str(refusal.value)
        assert match in message, (label, message[:500])
        assert len(message) < 1000, (label, len(message))
        assert "\u202e" not in message, label


@pytest.mark.parametrize("make", [make_zip, make_tar_gz], ids=["zip", "tar.gz"])
def test_it_refuses_a_member_whose_name_would_read_backwards(
    make: Callable[..., Path], tmp_path: Path, work_dir: Path
) -> None:
    suffix = "zip" if make is make_zip else "tar.gz"
    archive = make(tmp_path / f"bot.{suffix}", {**GOOD, "lib/\u202egnp.py": b"x"})  # shown as lib/yp.png

    error = assert_refused(archive, work_dir, r"the member 'lib/\\u202egnp.py' contains a bidirectional control")
    assert "\u202e" not in str(error)
