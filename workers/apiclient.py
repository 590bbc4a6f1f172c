"""``arena upload`` and ``arena status``: a bot author's side of the platform's REST API.

The standard library's urllib and the bot package's own packing (workers/botpkg.py),
nothing else: this runs on bot authors' machines (docs/cli.md, "Installing arena alone"). The
server is ``--server``, else ``ARENA_SERVER``, else http://127.0.0.1:8000; the
API token is ``ARENA_TOKEN``, else the first line of
``~/.config/watch-arena/token`` (create one at <server>/account/tokens/). The
token is sent as ``Authorization: Bearer <key>`` and never printed.
docs/cli.md and docs/api.md show the commands and their output.

Exit codes as the rest of ``arena``: 0 done, 2 a usage mistake or a request
the server refused as invalid (the message says why), 1 anything else
(unreachable server, refused token, a version that failed validation).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from engines.text import render_table
from workers import botpkg
from workers.botpkg import MAX_ARCHIVE_BYTES, BotPackageError

DEFAULT_SERVER = "http://127.0.0.1:8000"
TOKEN_FILE = Path("~/.config/watch-arena/token")
#: Folders never packed: what a local run leaves behind.
SKIPPED_DIRECTORIES = frozenset({"__pycache__", ".git", ".hg", ".svn", ".venv", ".mypy_cache", ".pytest_cache"})
REQUEST_TIMEOUT_S = 120.0
DEFAULT_POLL_INTERVAL_S = 2.0
DEFAULT_WAIT_TIMEOUT_S = 600.0
PAGE_SIZE = 500

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class ClientError(Exception):
    """Something the user must fix or know; the message says what, ``exit_code`` how ``arena`` ends."""

    def __init__(self, message: str, exit_code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.exit_code = exit_code


# -- configuration ----------------------------------------------------------------------


def server_url(given: str | None, environ: Mapping[str, str] | None = None) -> str:
    """Return the server's base URL from --server, ARENA_SERVER or the default; refuse anything but http(s)."""
    environ = os.environ if environ is None else environ
    url = (given or environ.get("ARENA_SERVER") or DEFAULT_SERVER).rstrip("/")
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ClientError(f"the server {url!r} is not an http:// or https:// URL, like {DEFAULT_SERVER}", EXIT_USAGE)
    return url


def read_token(server: str, environ: Mapping[str, str] | None = None, token_file: Path = TOKEN_FILE) -> str:
    """Return the API token from ARENA_TOKEN or the token file; say where to get one when there is none."""
    environ = os.environ if environ is None else environ
    token = environ.get("ARENA_TOKEN", "").strip()
    if token:
        return token
    path = token_file.expanduser()
    try:
        lines = path.read_text(encoding="utf-8").split() if path.is_file() else []
        token = lines[0] if lines else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ClientError(f"cannot read the token file {path}: {exc}") from None
    if not token:
        raise ClientError(
            f"no API token: create one at {server}/account/tokens/ and save it in {TOKEN_FILE} (or set ARENA_TOKEN)"
        )
    return token


# -- packing ----------------------------------------------------------------------------


def pack_directory(directory: Path) -> bytes:
    """Return a .tar.gz of ``directory``'s contents (bot.toml at the top), built in memory, same bytes every time."""
    buffer = io.BytesIO()
    try:
        botpkg.pack_directory(directory, buffer, skip=SKIPPED_DIRECTORIES)
    except BotPackageError as exc:
        raise ClientError(f"{directory}: {exc}", EXIT_USAGE) from None
    return buffer.getvalue()


def archive_for_upload(path: Path) -> tuple[str, bytes]:
    """Return (file name, bytes) to upload for a bot directory (packed) or an archive file (as it is)."""
    if path.is_dir():
        if not (path / "bot.toml").is_file():
            raise ClientError(f"{path} has no bot.toml; a bot package needs one (docs/bot-package.md)", EXIT_USAGE)
        name, content = f"{path.resolve().name or 'bot'}.tar.gz", pack_directory(path)
    elif path.is_file():
        name, content = path.name, path.read_bytes()
    else:
        raise ClientError(f"{path} does not exist: give a bot directory or a .zip / .tar.gz of one", EXIT_USAGE)
    if len(content) > MAX_ARCHIVE_BYTES:
        raise ClientError(
            f"{path} packs to {len(content) / 2**20:.1f} MB; the arena takes at most {MAX_ARCHIVE_BYTES // 2**20} MB: "
            "leave out data files and build output",
            EXIT_USAGE,
        )
    return name, content


def multipart(fields: dict[str, str], file_field: str, file_name: str, content: bytes) -> tuple[bytes, str]:
    """Return a multipart/form-data body and its Content-Type header."""
    boundary = f"arena-{secrets.token_hex(16)}"
    parts = []
    for name, value in fields.items():
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    safe_name = file_name.replace('"', "_").replace("\r", "_").replace("\n", "_")
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{file_field}"; filename="{safe_name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


# -- talking to the server --------------------------------------------------------------


class ArenaClient:
    """The platform's REST API as this client uses it; every failure is a readable ClientError."""

    def __init__(self, server: str, token: str, timeout: float = REQUEST_TIMEOUT_S) -> None:
        self.server = server
        self._token = token
        self.timeout = timeout

    def request(self, method: str, path: str, body: bytes | None = None, content_type: str | None = None) -> Any:
        """Send one request and return its JSON answer."""
        url = self.server + path
        request = urllib.request.Request(url, data=body, method=method)
        request.add_header("Authorization", f"Bearer {self._token}")
        request.add_header("Accept", "application/json")
        if content_type:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise self._error(exc) from None
        except urllib.error.URLError as exc:
            raise ClientError(
                f"cannot reach the arena at {self.server} ({exc.reason}); is it running? Check --server or ARENA_SERVER"
            ) from None
        except (TimeoutError, OSError) as exc:
            raise ClientError(f"no answer from {self.server} ({exc}); try again later") from None
        except ValueError:
            raise ClientError(f"{url} did not answer with JSON: is {self.server} a Watch Arena server?") from None

    def _error(self, exc: urllib.error.HTTPError) -> ClientError:
        try:
            body = json.loads(exc.read() or b"null")
        except ValueError:
            body = None
        message = error_message(body)
        if exc.code == 401:
            return ClientError(f"your token was refused: create one at {self.server}/account/tokens/")
        if exc.code == 429:
            retry = exc.headers.get("Retry-After")
            when = f"try again in {retry} seconds" if retry else "try again later"
            return ClientError(f"too many requests: {when} ({message or 'rate limited'})")
        if exc.code == 400:
            return ClientError(f"the server refused it: {message}", EXIT_USAGE)
        if exc.code >= 500:
            return ClientError(f"the server failed (HTTP {exc.code}); try again later, or tell its operator")
        return ClientError(f"HTTP {exc.code}: {message or exc.reason}")

    def pages(self, path: str) -> Iterator[dict[str, Any]]:
        """Yield every item of a paginated list, following its pages."""
        separator = "&" if "?" in path else "?"
        offset = 0
        while True:
            page = self.request("GET", f"{path}{separator}limit={PAGE_SIZE}&offset={offset}")
            yield from page["results"]
            offset += len(page["results"])
            if not page["results"] or offset >= page["count"]:
                return

    def upload(self, bot: str, file_name: str, content: bytes) -> dict[str, Any]:
        body, content_type = multipart({"bot": bot}, "archive", file_name, content)
        return self.request("POST", "/api/versions/", body, content_type)

    def version(self, version_id: int) -> dict[str, Any]:
        return self.request("GET", f"/api/versions/{version_id}/")


def error_message(body: Any) -> str:
    """Return the messages of a DRF error body ({"detail": ...} or {"field": [...]}) as one line."""
    if isinstance(body, dict):
        parts = []
        for field, value in body.items():
            texts = value if isinstance(value, list) else [value]
            text = "; ".join(str(t) for t in texts)
            parts.append(text if field in ("detail", "non_field_errors") else f"{field}: {text}")
        return "; ".join(parts)
    if isinstance(body, list):
        return "; ".join(str(item) for item in body)
    return "" if body is None else str(body)


# -- commands ---------------------------------------------------------------------------


def add_commands(commands: Any) -> None:
    """Add ``upload`` and ``status`` to the ``arena`` subparsers ``commands``."""
    upload = commands.add_parser(
        "upload",
        help="upload a new version of your bot to an arena",
        description="Pack a bot directory (or take a .zip / .tar.gz) and upload it as your bot's next version.",
    )
    upload.add_argument("path", type=Path, metavar="PATH", help="the bot directory or archive")
    upload.add_argument("--bot", required=True, metavar="NAME", help="your bot's name on the arena")
    upload.add_argument("--wait", action="store_true", help="wait for the validation series and show its verdict")
    upload.add_argument(
        "--timeout", type=float, default=DEFAULT_WAIT_TIMEOUT_S, metavar="S", help="longest --wait, in seconds"
    )
    _add_server_flag(upload)
    upload.set_defaults(command_parser=upload, api_command=command_upload)

    status = commands.add_parser(
        "status",
        help="your bots on an arena: versions, status, ratings",
        description="List your bots' versions with their status and their rating in each season.",
    )
    status.add_argument("--bot", metavar="NAME", help="only this bot")
    _add_server_flag(status)
    status.set_defaults(command_parser=status, api_command=command_status)


def _add_server_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", metavar="URL", help=f"the arena (default: $ARENA_SERVER, else {DEFAULT_SERVER})")


def client_from(args: argparse.Namespace) -> ArenaClient:
    server = server_url(args.server)
    return ArenaClient(server, read_token(server))


def command_upload(
    args: argparse.Namespace,
    out: IO[str],
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Upload a version, print it; with --wait poll until it is validated. Return the exit code."""
    client = client_from(args)
    file_name, content = archive_for_upload(args.path)
    version = client.upload(args.bot, file_name, content)
    print(
        f"Uploaded {version['bot_name']} version {version['number']} (id {version['id']}, "
        f"{len(content):,} bytes, sha256 {version['archive_sha256'][:12]}): {version['status'].replace('_', ' ')}",
        file=out,
    )
    if not args.wait:
        if version["status"] == "validating":
            print("It plays a validation series before it enters seasons; see `arena status`.", file=out)
        return EXIT_OK
    deadline = clock() + args.timeout
    while version["status"] == "validating":
        if clock() >= deadline:
            print(f"Still validating after {args.timeout:.0f} s; check later with `arena status`.", file=out)
            return EXIT_ERROR
        sleep(DEFAULT_POLL_INTERVAL_S)
        version = client.version(version["id"])
    return _report_verdict(version, out)


def _report_verdict(version: dict[str, Any], out: IO[str]) -> int:
    label = f"{version['bot_name']} v{version['number']}"
    reason = version.get("status_reason") or ""
    if version["status"] == "active":
        print(f"{label}: active" + (f" ({reason})" if reason else "") + "; it now plays in its seasons.", file=out)
        return EXIT_OK
    status = version["status"].replace("_", " ")
    print(f"{label}: {status}" + (f": {reason}" if reason else ""), file=out)
    return EXIT_OK if version["status"] == "retired" else EXIT_ERROR


def command_status(args: argparse.Namespace, out: IO[str]) -> int:
    """Print the user's bots, their versions and status, and each version's rating per season."""
    client = client_from(args)
    me = client.request("GET", "/api/me/")
    owner = urllib.parse.quote(me["username"])
    bots = [bot for bot in client.pages(f"/api/bots/?owner={owner}") if args.bot in (None, bot["name"])]
    if not bots:
        which = f"no bot named {args.bot!r}" if args.bot else "no bots yet"
        print(
            f"{me['username']} has {which} on {client.server}; upload one with `arena upload DIR --bot NAME`.", file=out
        )
        return EXIT_OK
    rows, notes = [], []
    for bot in bots:
        for version in client.pages(f"/api/bots/{bot['id']}/versions/"):
            rows += _status_rows(bot, version)
            if version.get("status_reason") and version["status"] in ("failed_validation", "disabled"):
                notes.append(f"  {bot['name']} v{version['number']}: {version['status_reason']}")
    print(f"{me['username']} on {client.server}:", file=out)
    headers = ["Bot", "Version", "Status", "Uploaded", "Season", "μ−3σ", "μ", "σ", "Series", "W-D-L", "Points"]
    print(render_table(headers, rows, right=(1, 5, 6, 7, 8, 10)), file=out)
    if notes:
        print("Why:", file=out)
        print("\n".join(notes), file=out)
    return EXIT_OK


def _status_rows(bot: dict[str, Any], version: dict[str, Any]) -> list[list[Any]]:
    base = [
        bot["name"],
        version["number"],
        version["status"].replace("_", " "),
        version["uploaded_at"][:16].replace("T", " "),
    ]
    if not version["ratings"]:
        return [[*base, "-", "", "", "", "", "", ""]]
    rows = []
    for rating in version["ratings"]:
        mark = " (provisional)" if rating["provisional"] else ""
        rows.append(
            [
                *base,
                rating["season_name"] + mark,
                f"{rating['conservative']:.2f}",
                f"{rating['mu']:.2f}",
                f"{rating['sigma']:.2f}",
                rating["series_played"],
                f"{rating['won']}-{rating['drawn']}-{rating['lost']}",
                f"{rating['series_points']:g}",
            ]
        )
    return rows


def run(args: argparse.Namespace, out: IO[str], err: IO[str]) -> int:
    """Run an API command from ``arena``'s parsed arguments; print a failure to ``err``. Return the exit code."""
    try:
        return args.api_command(args, out)
    except ClientError as exc:
        if exc.exit_code == EXIT_USAGE and "refused it" not in str(exc):
            args.command_parser.print_usage(err)
        print(f"arena {args.command}: {exc}", file=err)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"arena {args.command}: interrupted", file=err)
        return 130
