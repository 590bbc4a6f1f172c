"""Load a bot package: validate its manifest and, for an archive, unpack it safely.

A bot is a directory, or a ``.zip`` / ``.tar.gz`` archive of one, with a
``bot.toml`` manifest at its top (docs/bot-package.md). Archives are untrusted
input: they are read member by member, every name and type is checked before
anything is written, sizes are counted while extracting (a declared size is
never trusted), and the files are written by this module into a fresh
directory under ``work_dir`` (never through ``extractall``), which is removed
again if anything is wrong. Every :class:`BotPackageError` says what is wrong
and how to fix it.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import stat
import tarfile
import tempfile
import tomllib
import unicodedata
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any

import engines
from workers.bot_text import BIDI_CONTROLS, QUOTE_LIMIT, quote
from workers.sandbox import BOT_DIR, python_bot_command

__all__ = [
    "MAX_ARCHIVE_BYTES",
    "MAX_FILES",
    "MAX_UNPACKED_BYTES",
    "BotPackage",
    "BotPackageError",
    "load_bot_package",
]

MB = 1024 * 1024
#: Largest archive accepted, as uploaded.
MAX_ARCHIVE_BYTES = 20 * MB
#: Largest total size of the files in a package, unpacked.
MAX_UNPACKED_BYTES = 100 * MB
#: Most files and directories in a package.
MAX_FILES = 2000
#: Largest manifest: bot.toml is a few lines.
MAX_MANIFEST_BYTES = 64 * 1024
#: Longest path inside a package, in bytes (Linux allows 4096; 255 per component).
MAX_PATH_BYTES = 1024
#: Directories a path may go down (a 3.5 KB zip can hold 500 nested folders), and bytes in one name
#: (the file system's own limit: past it, creating the file fails with a message naming the server's path).
MAX_DEPTH = 32
MAX_NAME_BYTES = 255
#: A tar member's extended header (pax) or GNU long name is read whole into memory: bound it first.
MAX_TAR_HEADER_BYTES = 64 * 1024

MANIFEST = "bot.toml"
MANIFEST_KEYS = ("name", "entry", "games", "roles")
NAME_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")
#: Folders an archiver adds beside the bot (macOS Finder): skipped, never unpacked.
IGNORED_TOP_LEVEL = frozenset({"__MACOSX"})
#: Folders left by running a bot locally: not part of a directory's digest.
IGNORED_DIRECTORIES = frozenset({"__pycache__"})
DOCS = "see docs/bot-package.md"
CHUNK = 64 * 1024


class BotPackageError(ValueError):
    """A bot package that cannot be used; the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class BotPackage:
    """A validated bot, ready to start in the sandbox."""

    name: str
    #: The bot's directory on this host (unpacked under work_dir for an archive).
    directory: Path
    #: Relative path of the entry file inside the package.
    entry: str
    #: The command that starts the bot, as seen inside the sandbox (cwd /bot).
    command: list[str]
    #: Games the manifest says the bot plays (empty: not stated).
    games: tuple[str, ...]
    #: sha256 of the archive file, or of a deterministic tar of the directory.
    sha256: str
    #: The roles it plays in the team games it lists (engines/teams.py); empty: every role.
    roles: tuple[str, ...] = ()


def load_bot_package(
    path: Path,
    work_dir: Path,
    *,
    max_archive_bytes: int = MAX_ARCHIVE_BYTES,
    max_unpacked_bytes: int = MAX_UNPACKED_BYTES,
    max_files: int = MAX_FILES,
) -> BotPackage:
    """Return the bot package at ``path`` (a directory, .zip or .tar.gz), or raise :class:`BotPackageError`.

    A directory is validated in place. An archive is unpacked into a new
    directory under ``work_dir``; when loading fails, nothing is left there.
    """
    path = Path(path)
    limits = _Limits(max_archive_bytes, max_unpacked_bytes, max_files)
    if path.is_dir():
        digest = _directory_digest(path, limits)
        return _package_from_directory(path.resolve(), digest)
    if not path.is_file():
        raise BotPackageError(f"{path}: no such file or directory; give the path of a bot directory or archive")
    kind = archive_kind(path)
    size = path.stat().st_size
    if size > max_archive_bytes:
        raise BotPackageError(
            f"{path.name}: the archive is {_size(size)}, over the {_size(max_archive_bytes)} limit; "
            "leave out data the bot does not need (build output, caches, virtualenvs)"
        )
    digest = file_sha256(path)
    work_dir = Path(work_dir)
    work_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=work_dir))
    final: Path | None = None
    try:
        layout = _unpack_zip(path, staging, limits) if kind == "zip" else _unpack_tar_gz(path, staging, limits)
        # The sandbox runs the bot as another uid: whatever the umask, it must read everything.
        for directory in layout.directories:
            (staging / directory).chmod(0o755)
        top = _package_root(layout.files | layout.directories)
        final = Path(tempfile.mkdtemp(prefix=f"bot-{digest[:12]}-", dir=work_dir))
        os.rename(staging / top if top else staging, final)  # replaces the empty directory mkdtemp made
        final.chmod(0o755)  # mkdtemp makes 0700
        package = _package_from_directory(final, digest)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if final is not None:
            shutil.rmtree(final, ignore_errors=True)
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return package


# -- the manifest ---------------------------------------------------------------------
def _package_from_directory(directory: Path, digest: str) -> BotPackage:
    manifest_path = directory / MANIFEST
    if not manifest_path.is_file() or manifest_path.is_symlink():
        raise BotPackageError(f"no {MANIFEST} at the top of the package; add a {MANIFEST} with name and entry, {DOCS}")
    raw = manifest_path.read_bytes()
    if len(raw) > MAX_MANIFEST_BYTES:
        raise BotPackageError(f"{MANIFEST} is {_size(len(raw))}; a manifest is a few lines (name, entry, games)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BotPackageError(f"{MANIFEST} is not UTF-8 text; save it as UTF-8") from None
    try:
        manifest = tomllib.loads(text)
    except RecursionError:
        raise BotPackageError(
            f"{MANIFEST} nests tables or arrays too deeply; a manifest is a few lines, {DOCS}"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise BotPackageError(
            f'{MANIFEST} is not valid TOML: {exc}; fix that line (strings need quotes: name = "my-bot"), {DOCS}'
        ) from None
    unknown = sorted(set(manifest) - set(MANIFEST_KEYS))
    if unknown:
        raise BotPackageError(
            f"{MANIFEST} has unknown key(s) {_listed(unknown)}; remove them (the keys are "
            f"{', '.join(MANIFEST_KEYS)}), {DOCS}"
        )
    name = _manifest_name(manifest)
    entry = _manifest_entry(manifest, directory)
    games = _manifest_games(manifest)
    roles = _manifest_roles(manifest, games)
    command = python_bot_command(entry) if entry.endswith(".py") else [f"{BOT_DIR}/{entry}"]
    return BotPackage(
        name=name, directory=directory, entry=entry, command=command, games=games, sha256=digest, roles=roles
    )


def _manifest_name(manifest: dict[str, Any]) -> str:
    if "name" not in manifest:
        raise BotPackageError(f'{MANIFEST} has no name; add a line like name = "my-bot", {DOCS}')
    name = manifest["name"]
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise BotPackageError(
            f"{MANIFEST}: name {quote(name)} is not 1-40 letters, digits, '-' or '_'; use a name like name = \"my-bot\""
        )
    return name


def _manifest_entry(manifest: dict[str, Any], directory: Path) -> str:
    if "entry" not in manifest:
        raise BotPackageError(
            f'{MANIFEST} has no entry; add entry = "main.py" (or the name of an executable such as "run"), {DOCS}'
        )
    entry = manifest["entry"]
    if not isinstance(entry, str) or not entry.strip():
        raise BotPackageError(f'{MANIFEST}: entry must be a file name in quotes, like entry = "main.py"')
    problem = _path_problem(entry)
    if problem is None and PurePosixPath(entry).is_absolute():
        problem = "is an absolute path"
    if problem is None and ".." in PurePosixPath(entry).parts:
        problem = "goes up with '..'"
    if problem is not None:
        raise BotPackageError(
            f"{MANIFEST}: entry {quote(entry)} {problem}; the entry must be a path inside the package, "
            f'relative to bot.toml, like entry = "main.py"'
        )
    entry = PurePosixPath(entry).as_posix()  # drops "./" and doubled slashes
    target = directory / entry
    resolved = target.resolve()
    if not resolved.is_relative_to(directory.resolve()):
        raise BotPackageError(
            f"{MANIFEST}: entry {quote(entry)} leads outside the package; put the entry file inside the bot directory"
        )
    if not target.exists():
        present = sorted(p.name for p in directory.iterdir() if p.name != MANIFEST)
        raise BotPackageError(
            f"{MANIFEST}: entry {quote(entry)} is not in the package (top level holds: "
            f"{_listed(present, most=10) if present else 'nothing'}); add the file or fix the entry line"
        )
    if target.is_symlink() or not target.is_file():
        raise BotPackageError(f"{MANIFEST}: entry {quote(entry)} is not a regular file; point entry at the file to run")
    if not entry.endswith(".py") and not target.stat().st_mode & 0o111:
        raise BotPackageError(
            f"entry {quote(entry)} is not executable and not a .py file: run `chmod +x {_shell_word(entry)}` "
            "before packing (a zip must be made with a tool that keeps Unix permissions, such as `zip` or `tar czf`), "
            "or make the entry a .py file"
        )
    return entry


def _manifest_games(manifest: dict[str, Any]) -> tuple[str, ...]:
    games = manifest.get("games", [])
    if not isinstance(games, list) or not all(isinstance(g, str) and NAME_PATTERN.fullmatch(g) for g in games):
        raise BotPackageError(
            f"{MANIFEST}: games must be a list of game names, like games = [{json.dumps(engines.flagship())}]"
        )
    known = engines.names()
    unknown = [g for g in games if g not in known]
    if unknown:
        raise BotPackageError(
            f"{MANIFEST}: games lists {_listed(unknown)}, which this arena does not run; "
            f"known games: {', '.join(known)}"
        )
    return tuple(games)


def _manifest_roles(manifest: dict[str, Any], games: tuple[str, ...]) -> tuple[str, ...]:
    """Return the roles bot.toml says the bot plays in its team games; empty when it says none (every role)."""
    if "roles" not in manifest:
        return ()
    roles = manifest["roles"]
    team_games = [game for game in games if engines.declaration(game).roles]
    known: list[str] = []
    for game in team_games:
        known += [role for role in engines.declaration(game).roles if role not in known]
    example = f"roles = [{', '.join(json.dumps(role) for role in known or ['player'])}]"
    if not team_games:
        listed = ", ".join(games) if games else "no games"
        raise BotPackageError(
            f"{MANIFEST}: roles are for team games, and games lists {listed}; list a team game in games "
            f"or remove the roles line, {DOCS}"
        )
    if not isinstance(roles, list) or not all(isinstance(role, str) for role in roles):
        raise BotPackageError(f"{MANIFEST}: roles must be a list of role names in quotes, like {example}")
    if not roles:
        raise BotPackageError(f"{MANIFEST}: roles lists no role; remove the line to play every role, or {example}")
    unknown = [role for role in roles if role not in known]
    if unknown:
        raise BotPackageError(
            f"{MANIFEST}: roles lists {_listed(unknown)}, not a role of {', '.join(team_games)}; "
            f"the roles are {', '.join(known)}"
        )
    doubled = sorted({role for role in roles if roles.count(role) > 1})
    if doubled:
        raise BotPackageError(f"{MANIFEST}: roles lists {_listed(doubled)} more than once; list each once")
    return tuple(roles)


# -- names ----------------------------------------------------------------------------
def _path_problem(name: str) -> str | None:
    """Return why ``name`` cannot be a path in a package, or None (absolute and '..' are checked by the caller)."""
    try:
        encoded = name.encode("utf-8")
    except UnicodeEncodeError:
        return "is not valid UTF-8"
    if len(encoded) > MAX_PATH_BYTES:
        return f"is longer than {MAX_PATH_BYTES} bytes"
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if len(parts) > MAX_DEPTH:
        return f"is nested more than {MAX_DEPTH} directories deep"
    if any(len(part.encode("utf-8")) > MAX_NAME_BYTES for part in parts):
        return f"has a file or directory name longer than {MAX_NAME_BYTES} bytes"
    if any(unicodedata.category(ch) == "Cc" for ch in name):
        return "contains a control character"
    if any(ch in BIDI_CONTROLS for ch in name):
        return "contains a bidirectional control character (which makes a name read other than it is)"
    if "\\" in name:
        return "contains a backslash (an archive made on Windows?)"
    return None


def _member_path(raw_name: str, archive: str) -> PurePosixPath | None:
    """Return the checked relative path of an archive member, or None for the archive's own root ("./")."""
    problem = _path_problem(raw_name)
    if problem is None:
        if raw_name.startswith("/"):
            problem = "is an absolute path"
        elif ".." in raw_name.split("/"):
            problem = "goes up with '..'"
    if problem is not None:
        raise BotPackageError(
            f"{archive}: the member {quote(raw_name)} {problem}; a package may only hold plain relative paths "
            "inside the bot's directory: rebuild the archive from the bot directory"
        )
    parts = [part for part in raw_name.split("/") if part not in ("", ".")]
    return PurePosixPath(*parts) if parts else None


def _shell_word(name: str) -> str:
    """Return ``name`` as a shell word for a command a message suggests, or a placeholder if it is long or odd."""
    return shlex.quote(name) if len(name) <= QUOTE_LIMIT and name.isprintable() else "<the entry file>"


def _listed(values: list[str], most: int = 5) -> str:
    """Return bot-supplied ``values`` for a message: the first ``most``, each quoted short, and how many more."""
    shown = ", ".join(quote(value) for value in values[:most])
    return shown + (f" and {len(values) - most} more" if len(values) > most else "")


class _Layout:
    """The members written so far: rejects duplicates and file/directory clashes."""

    def __init__(self, archive: str, limits: _Limits) -> None:
        self.archive = archive
        self.limits = limits
        self.files: set[PurePosixPath] = set()
        self.directories: set[PurePosixPath] = set()
        self.count = 0
        self.total_bytes = 0

    def count_member(self) -> None:
        """Count one member of the archive, whatever it is."""
        self.count += 1
        if self.count > self.limits.max_files:
            raise _too_many_files_error(self.archive, self.limits)

    def add(self, path: PurePosixPath, is_dir: bool) -> bool:
        """Record ``path``; return False for an already present directory (harmless repeat)."""
        if path in self.files or (not is_dir and path in self.directories):
            raise BotPackageError(
                f"{self.archive}: {quote(str(path))} appears twice in the archive; rebuild it so each path appears once"
            )
        for parent in path.parents:
            if parent in self.files:
                raise BotPackageError(
                    f"{self.archive}: {quote(str(parent))} is both a file and a directory in the archive; "
                    "rebuild it from the bot directory"
                )
        if is_dir:
            if path in self.directories:
                return False
            self.directories.add(path)
        else:
            self.files.add(path)
        self.directories.update(p for p in path.parents if p != PurePosixPath("."))
        return True

    def count_bytes(self, size: int) -> None:
        self.total_bytes += size
        if self.total_bytes > self.limits.max_unpacked_bytes:
            raise _too_big_error(self.archive, self.limits)


@dataclass(frozen=True)
class _Limits:
    max_archive_bytes: int
    max_unpacked_bytes: int
    max_files: int


def _package_root(names: set[PurePosixPath]) -> str | None:
    """Return the single top-level directory holding the bot, or None when bot.toml is at the top."""
    if PurePosixPath(MANIFEST) in names:
        return None
    tops = {path.parts[0] for path in names}
    if len(tops) == 1:
        (top,) = tops
        if PurePosixPath(top, MANIFEST) in names:
            return top
    return None


# -- zip --------------------------------------------------------------------------------
def archive_kind(path: Path) -> str:
    """Return ``zip`` or ``tar.gz`` from the file's first bytes, or raise BotPackageError saying how to pack one."""
    with path.open("rb") as handle:
        magic = handle.read(4)
    if magic[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if magic[:2] == b"\x1f\x8b":
        return "tar.gz"
    raise BotPackageError(
        f"{path.name}: not a bot directory, .zip or .tar.gz archive; pack the bot directory with "
        "`tar czf bot.tar.gz -C mybot .` or `cd mybot && zip -r ../bot.zip .`"
    )


def _zip_name(info: zipfile.ZipInfo, archive: str) -> str:
    # zipfile decodes names without the UTF-8 flag as cp437, which never
    # fails; recover the bytes and insist on UTF-8, as on the bot's Linux.
    raw = info.orig_filename
    if not info.flag_bits & 0x800:
        try:
            raw = raw.encode("cp437").decode("utf-8")
        except UnicodeError:
            shown = quote(raw.encode("cp437").decode("utf-8", "surrogateescape"))
            raise BotPackageError(
                f"{archive}: the member {shown} has a name that is not UTF-8; rename the file with "
                "plain letters, digits and punctuation and rebuild the archive"
            ) from None
    return raw


def _unpack_zip(path: Path, destination: Path, limits: _Limits) -> _Layout:
    archive = path.name
    layout = _Layout(archive, limits)
    try:
        with zipfile.ZipFile(path) as bundle:
            infos = bundle.infolist()
            # The central directory declares every member up front: refuse early.
            if len(infos) > limits.max_files:
                raise _too_many_files_error(archive, limits)
            if sum(info.file_size for info in infos) > limits.max_unpacked_bytes:
                raise _too_big_error(archive, limits)
            for info in infos:
                layout.count_member()
                name = _zip_name(info, archive)
                member = _member_path(name, archive)
                if member is None or member.parts[0] in IGNORED_TOP_LEVEL:
                    continue
                mode = info.external_attr >> 16
                kind = stat.S_IFMT(mode)
                is_dir = info.is_dir() or kind == stat.S_IFDIR
                if kind == stat.S_IFLNK:
                    raise _link_error(archive, name, "a symbolic link")
                if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                    raise _special_error(archive, name)
                if mode & SPECIAL_MODE_BITS:
                    raise _mode_error(archive, name)
                if info.flag_bits & 0x1:
                    raise BotPackageError(f"{archive}: {quote(name)} is encrypted; pack the bot without a password")
                if not layout.add(member, is_dir):
                    continue
                if is_dir:
                    (destination / member).mkdir(parents=True, exist_ok=True)
                    continue
                with bundle.open(info) as source:
                    _write_member(source, destination, member, bool(mode & 0o111), info.file_size, layout)
            return layout
    except BotPackageError:
        raise
    except UnicodeDecodeError:  # a name flagged UTF-8 that is not
        raise BotPackageError(
            f"{archive}: a member's name is not valid UTF-8; rename the file with plain letters, digits and "
            "punctuation and rebuild the archive"
        ) from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, zlib.error, OSError, NotImplementedError) as exc:
        raise _corrupt_error(archive, exc) from None
    except (RuntimeError, ValueError, UnicodeError) as exc:
        raise _corrupt_error(archive, exc) from None


# -- tar.gz --------------------------------------------------------------------------------
class _BoundedTarInfo(tarfile.TarInfo):
    """A tar header whose pax extension or GNU long name is refused before it is read, when it is too big.

    tarfile reads those whole into memory: a 103 KB tar.gz declaring a 100 MB
    pax header cost 350 MB at every load.
    """

    def _proc_member(self, tarfile_: tarfile.TarFile) -> tarfile.TarInfo:
        long_header = (tarfile.GNUTYPE_LONGNAME, tarfile.GNUTYPE_LONGLINK, tarfile.XHDTYPE, tarfile.XGLTYPE)
        if self.type in long_header and self.size > MAX_TAR_HEADER_BYTES:
            raise BotPackageError(
                f"a tar header extension of {_size(self.size)} (the limit is {MAX_TAR_HEADER_BYTES // 1024} KiB); "
                "pack the bot with plain names, e.g. `tar czf bot.tar.gz -C mybot .`"
            )
        return super()._proc_member(tarfile_)  # type: ignore[misc]


class _CappedReader(io.RawIOBase):
    """Reads a decompressing stream but refuses to produce more than ``limit`` bytes.

    tarfile reads some headers (pax, GNU long names) into memory whole; capping
    the decompressed stream bounds what a hostile header can make it allocate.
    """

    def __init__(self, source: IO[bytes] | io.BufferedIOBase, limit: int, archive: str) -> None:
        self.source = source
        self.remaining = limit
        self.limit = limit
        self.archive = archive

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer)
        wanted = min(len(view), self.remaining + 1)
        data = self.source.read(wanted)
        if len(data) > self.remaining:
            raise BotPackageError(
                f"{self.archive}: the archive unpacks to more than {_size(self.limit)}; "
                "leave out data the bot does not need"
            )
        self.remaining -= len(data)
        view[: len(data)] = data
        return len(data)


def _unpack_tar_gz(path: Path, destination: Path, limits: _Limits) -> _Layout:
    archive = path.name
    layout = _Layout(archive, limits)
    # Headers and padding take room too: allow them on top of the file sizes.
    stream_limit = limits.max_unpacked_bytes + (limits.max_files + 16) * 3 * tarfile.BLOCKSIZE + 2 * MB
    data_filter = getattr(tarfile, "data_filter", None)  # Python >= 3.11.4: a second opinion
    try:
        with gzip.open(path, "rb") as unzipped:
            capped = io.BufferedReader(_CappedReader(unzipped, stream_limit, archive), buffer_size=CHUNK)
            with tarfile.open(
                fileobj=capped, mode="r|", encoding="utf-8", errors="surrogateescape", tarinfo=_BoundedTarInfo
            ) as bundle:
                for info in bundle:
                    layout.count_member()
                    member = _member_path(info.name, archive)
                    if member is None or member.parts[0] in IGNORED_TOP_LEVEL:
                        continue
                    if info.issym():
                        raise _link_error(archive, info.name, "a symbolic link")
                    if info.islnk():
                        raise _link_error(archive, info.name, "a hard link")
                    if info.ischr() or info.isblk() or info.isfifo():
                        raise _special_error(archive, info.name)
                    if info.mode & SPECIAL_MODE_BITS:
                        raise _mode_error(archive, info.name)
                    if info.issparse() or not (info.isreg() or info.isdir()):
                        raise BotPackageError(
                            f"{archive}: {quote(info.name)} is an unusual tar member (type {info.type!r}); "
                            "pack only regular files and directories, e.g. with `tar czf bot.tar.gz -C mybot .`"
                        )
                    if data_filter is not None:
                        try:
                            data_filter(info, str(destination))
                        except tarfile.FilterError as exc:
                            raise BotPackageError(
                                f"{archive}: {quote(info.name)} is refused ({quote(str(exc), marks=False)}); "
                                "pack only regular files "
                                "and directories inside the bot directory"
                            ) from None
                    if not layout.add(member, info.isdir()):
                        continue
                    if info.isdir():
                        (destination / member).mkdir(parents=True, exist_ok=True)
                        continue
                    if layout.total_bytes + info.size > limits.max_unpacked_bytes:
                        raise _too_big_error(archive, limits)
                    source = bundle.extractfile(info)
                    assert source is not None  # a regular file always has data
                    _write_member(source, destination, member, bool(info.mode & 0o111), info.size, layout)
        return layout
    except BotPackageError:
        raise
    except (tarfile.TarError, gzip.BadGzipFile, EOFError, zlib.error, OSError) as exc:
        raise _corrupt_error(archive, exc) from None
    except (RuntimeError, ValueError, UnicodeError) as exc:
        raise _corrupt_error(archive, exc) from None


# -- writing -----------------------------------------------------------------------------
def _write_member(
    source: IO[bytes], destination: Path, member: PurePosixPath, executable: bool, declared: int, layout: _Layout
) -> None:
    """Copy one member's data into ``destination``, counting the bytes it really holds."""
    target = destination / member
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = 0o755 if executable else 0o644
    # O_EXCL and O_NOFOLLOW: the directory is new and only this function writes
    # into it, so an existing path here would be a bug worth stopping on.
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    written = 0
    with os.fdopen(fd, "wb") as handle:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if written > declared:
                raise BotPackageError(
                    f"{layout.archive}: {quote(str(member))} holds more data than its header declares "
                    f"({declared} bytes); the archive is corrupt or hostile: rebuild it"
                )
            layout.count_bytes(len(chunk))
            handle.write(chunk)
    os.chmod(target, mode)  # the umask may have narrowed it


def _too_many_files_error(archive: str, limits: _Limits) -> BotPackageError:
    return BotPackageError(
        f"{archive}: more than {limits.max_files} files; a bot package holds the bot, not its build tree: "
        "leave out caches, virtualenvs and data it does not need"
    )


def _too_big_error(archive: str, limits: _Limits) -> BotPackageError:
    return BotPackageError(
        f"{archive}: the files add up to more than {_size(limits.max_unpacked_bytes)} unpacked; "
        "leave out data the bot does not need"
    )


def _link_error(archive: str, name: str, what: str) -> BotPackageError:
    return BotPackageError(
        f"{archive}: {quote(name)} is {what}; packages may not contain links: replace it with a copy of "
        "the file it points to"
    )


def _special_error(archive: str, name: str) -> BotPackageError:
    return BotPackageError(
        f"{archive}: {quote(name)} is a device, fifo or socket; a package holds only regular files and "
        "directories: leave it out"
    )


#: setuid, setgid and sticky: nothing a bot needs, and an archive is stored and served as uploaded.
SPECIAL_MODE_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX


def _mode_error(archive: str, name: str) -> BotPackageError:
    return BotPackageError(
        f"{archive}: {quote(name)} has the setuid, setgid or sticky bit; a bot's files need none of them: "
        "clear them (chmod u-s,g-s,-t) and rebuild the archive"
    )


def _corrupt_error(archive: str, exc: BaseException) -> BotPackageError:
    # An OSError's text names the server's files (its filename): give only what went wrong.
    what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return BotPackageError(
        f"{archive}: the archive is damaged or uses an unsupported feature "
        f"({type(exc).__name__}: {quote(what, marks=False)}); "
        "rebuild it with `tar czf bot.tar.gz -C mybot .` or `cd mybot && zip -r ../bot.zip .`"
    )


# -- digests -------------------------------------------------------------------------------
def file_sha256(path: Path) -> str:
    """Return the hex sha256 of the file at ``path``, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


class _HashWriter(io.RawIOBase):
    def __init__(self) -> None:
        self.digest = hashlib.sha256()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        self.digest.update(data)
        return len(data)


def add_tar_entry(bundle: tarfile.TarFile, relative: str, full: Path, entry_stat: os.stat_result) -> bool:
    """Add one file or directory to ``bundle`` the deterministic way; False for anything else (a link, a device).

    No times, owners or modes but 755/644: the same files give the same bytes, so
    the same archive sha256, wherever and whenever they are packed.
    """
    info = tarfile.TarInfo(relative)
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    if stat.S_ISDIR(entry_stat.st_mode):
        info.type = tarfile.DIRTYPE
        info.mode = 0o755
        bundle.addfile(info)
        return True
    if not stat.S_ISREG(entry_stat.st_mode):
        return False
    info.mode = 0o755 if entry_stat.st_mode & 0o111 else 0o644
    info.size = entry_stat.st_size
    with full.open("rb") as handle:
        bundle.addfile(info, handle)
    return True


def pack_directory(directory: Path, out: IO[bytes], skip: frozenset[str] = IGNORED_DIRECTORIES) -> None:
    """Write a deterministic ``.tar.gz`` of ``directory``'s contents (bot.toml at its top) to ``out``.

    Folders named in ``skip`` are left out; a link or anything but a regular file
    or folder raises :class:`BotPackageError`. Entries are in the order of their
    names' bytes.
    """
    entries = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        base = Path(root)
        for name in dirs + sorted(files):
            full = base / name
            entries.append((full.relative_to(directory).as_posix(), full))
    entries.sort(key=lambda entry: entry[0].encode("utf-8", "surrogateescape"))
    with (
        gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as bundle,
    ):
        for relative, full in entries:
            if not add_tar_entry(bundle, relative, full, full.lstat()):
                raise BotPackageError(
                    f"{quote(relative)} is not a regular file or folder (a link?); remove it from the bot"
                )


def _directory_digest(directory: Path, limits: _Limits) -> str:
    """Return the sha256 of a deterministic tar of ``directory``, checking it as an archive would be."""
    layout = _Layout(directory.name or str(directory), limits)
    sink = _HashWriter()
    with tarfile.open(fileobj=sink, mode="w|", format=tarfile.PAX_FORMAT) as bundle:
        for relative, full, entry_stat in _walk(directory, layout):
            layout.count_member()
            is_dir = stat.S_ISDIR(entry_stat.st_mode)
            layout.add(relative, is_dir=is_dir)
            if not is_dir:
                layout.count_bytes(entry_stat.st_size)
            add_tar_entry(bundle, relative.as_posix(), full, entry_stat)
    return sink.digest.hexdigest()


def _walk(directory: Path, layout: _Layout) -> Iterator[tuple[PurePosixPath, Path, os.stat_result]]:
    """Yield ``(relative path, path, lstat)`` for every entry under ``directory``, in sorted order."""
    pending = [PurePosixPath()]
    while pending:
        relative_dir = pending.pop()
        with os.scandir(directory / relative_dir) as entries:
            children = sorted(entries, key=lambda e: os.fsencode(e.name))
        below = []
        for entry in children:
            relative = relative_dir / entry.name
            problem = _path_problem(entry.name)
            if problem is not None:
                raise BotPackageError(
                    f"{layout.archive}: {quote(str(relative))} {problem}; rename it: a package holds plain "
                    "UTF-8 file names"
                )
            entry_stat = entry.stat(follow_symlinks=False)
            if stat.S_ISLNK(entry_stat.st_mode):
                raise _link_error(layout.archive, str(relative), "a symbolic link")
            if stat.S_ISDIR(entry_stat.st_mode):
                if entry.name in IGNORED_DIRECTORIES:
                    continue
                yield relative, Path(entry.path), entry_stat
                below.append(relative)
            elif stat.S_ISREG(entry_stat.st_mode):
                if entry_stat.st_nlink > 1:
                    # A hard link could be a host file (/etc/hostname) that would be packed into the archive.
                    raise _link_error(layout.archive, str(relative), "a hard link")
                if entry_stat.st_mode & SPECIAL_MODE_BITS:
                    raise _mode_error(layout.archive, str(relative))
                yield relative, Path(entry.path), entry_stat
            else:
                raise _special_error(layout.archive, str(relative))
        pending.extend(reversed(below))


def _size(size: int) -> str:
    return f"{size / MB:.1f} MB" if size >= MB else f"{size} bytes"
