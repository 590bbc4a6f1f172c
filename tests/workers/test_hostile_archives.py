"""Hostile bot archives: each is refused with a clear reason, cheaply, with nothing left behind.

The cases the trust-boundary issue found: 500 nested folders in a 3.5 KB zip,
a tar.gz declaring a 100 MB pax header or a 50 MB GNU long name, a bot.toml
nested 20,000 deep, a directory bot with a hard link to a host file, a
setuid bit, a 300-byte file name (whose refusal named a server path).
"""

from __future__ import annotations

import io
import os
import stat
import tarfile
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from tests.workers.test_botpkg import GOOD, MANIFEST, assert_refused, make_tar_gz, make_zip, zip_member
from workers.botpkg import MAX_DEPTH, MAX_TAR_HEADER_BYTES, load_bot_package


def nested(depth: int) -> str:
    return "d/" * depth + "x.txt"


@pytest.fixture
def work_dir(tmp_path: Path) -> Path:
    """Where packages unpack; a refused one must leave it empty."""
    directory = tmp_path / "work"
    directory.mkdir()
    return directory


@pytest.mark.parametrize("make", [make_zip, make_tar_gz])
def test_folders_nested_past_the_limit_are_refused(make, tmp_path: Path, work_dir: Path) -> None:
    archive = make(tmp_path / f"deep.{'zip' if make is make_zip else 'tar.gz'}", {**GOOD, nested(500): b"x"})
    assert archive.stat().st_size < 20_000
    assert_refused(archive, work_dir, f"nested more than {MAX_DEPTH} directories deep")


def test_nesting_within_the_limit_is_fine(tmp_path: Path, work_dir: Path) -> None:
    package = load_bot_package(make_zip(tmp_path / "ok.zip", {**GOOD, nested(MAX_DEPTH - 1): b"x"}), work_dir)
    assert (package.directory / nested(MAX_DEPTH - 1)).read_bytes() == b"x"


@pytest.mark.parametrize("make", [make_zip, make_tar_gz])
def test_a_300_byte_file_name_is_refused_without_naming_a_server_path(make, tmp_path: Path, work_dir: Path) -> None:
    archive = make(tmp_path / f"long.{'zip' if make is make_zip else 'tar.gz'}", {**GOOD, "n" * 300: b"x"})
    refusal = assert_refused(archive, work_dir, "longer than 255 bytes")
    assert str(work_dir) not in str(refusal)
    assert str(tmp_path) not in str(refusal)


def huge_header_tar(path: Path, kind: bytes, size: int) -> Path:
    """A tar.gz whose first member is a pax header or GNU long name declaring ``size`` bytes of zeros."""
    header = tarfile.TarInfo("././@LongLink" if kind == tarfile.GNUTYPE_LONGNAME else "pax")
    header.type = kind
    header.size = size
    block = header.tobuf(format=tarfile.USTAR_FORMAT if kind != tarfile.GNUTYPE_LONGNAME else tarfile.GNU_FORMAT)
    import gzip

    with gzip.open(path, "wb", compresslevel=9) as out:
        out.write(block)
        zeros = b"\0" * (1024 * 1024)
        for _ in range(size // len(zeros)):
            out.write(zeros)
        out.write(b"\0" * (size % len(zeros)) + b"\0" * 1024)
    return path


@pytest.mark.parametrize(
    ("kind", "size"), [(tarfile.XHDTYPE, 100 * 1024 * 1024), (tarfile.GNUTYPE_LONGNAME, 50 * 1024 * 1024)]
)
def test_a_huge_tar_header_is_refused_before_it_is_read(kind: bytes, size: int, tmp_path: Path, work_dir: Path) -> None:
    archive = huge_header_tar(tmp_path / "header.tar.gz", kind, size)
    assert archive.stat().st_size < 200_000  # zeros compress: a small upload
    tracemalloc.start()
    try:
        assert_refused(archive, work_dir, f"the limit is {MAX_TAR_HEADER_BYTES // 1024} KiB")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, f"refusing it took {peak / 1e6:.0f} MB"


def test_a_manifest_nested_twenty_thousand_deep_is_a_refusal_not_a_crash(tmp_path: Path, work_dir: Path) -> None:
    manifest = MANIFEST + b"x = " + b"[" * 20000 + b"]" * 20000 + b"\n"
    archive = make_zip(tmp_path / "toml.zip", {"bot.toml": manifest, "main.py": GOOD["main.py"]})
    assert_refused(archive, work_dir, "nests tables or arrays too deeply")


def test_a_hard_link_in_a_directory_bot_is_refused(tmp_path: Path, work_dir: Path) -> None:
    source = tmp_path / "bot"
    source.mkdir()
    for name, data in GOOD.items():
        (source / name).write_bytes(data)
    outside = tmp_path / "host-file"
    outside.write_text("a host secret")
    os.link(outside, source / "linked.txt")
    with pytest.raises(Exception, match="a hard link"):
        load_bot_package(source, work_dir)


@pytest.mark.parametrize("bits", [stat.S_ISUID, stat.S_ISGID, stat.S_ISVTX])
def test_setuid_setgid_and_sticky_bits_are_refused(bits: int, tmp_path: Path, work_dir: Path) -> None:
    tar = make_tar_gz(tmp_path / "suid.tar.gz", GOOD, modes={"main.py": 0o755 | bits})
    assert_refused(tar, work_dir, "setuid, setgid or sticky bit")
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w") as bundle:
        zip_member(bundle, "bot.toml", MANIFEST)
        zip_member(bundle, "main.py", GOOD["main.py"], mode=stat.S_IFREG | 0o755 | bits)
    (tmp_path / "suid.zip").write_bytes(raw.getvalue())
    assert_refused(tmp_path / "suid.zip", work_dir, "setuid, setgid or sticky bit")
    source = tmp_path / "dir-bot"
    source.mkdir()
    for name, data in GOOD.items():
        (source / name).write_bytes(data)
    (source / "main.py").chmod(0o755 | bits)
    with pytest.raises(Exception, match="setuid, setgid or sticky bit"):
        load_bot_package(source, work_dir)
