"""The local command line for bot authors: ``arena play`` and ``arena roundrobin``.

Both commands load bot packages (a directory or an archive, docs/bot-package.md)
and run them through the same referee and sandbox as the platform, so a bot
that behaves here behaves on the ladder. docs/cli.md shows every flag and real
output.

Exit codes: 0 when the command ran (whatever the bots did: a forfeit is a
result), 2 for a usage mistake or a bad bot package (the message says how to
fix it), 1 for anything else, such as a host where the sandbox cannot run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import secrets
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import IO, Any

import trueskill
from tqdm import tqdm

import engines
from engines.declaration import MU, SIGMA
from engines.result import SeriesResult
from engines.text import format_points, format_series, render_table
from workers import apiclient
from workers.botpkg import BotPackage, BotPackageError, load_bot_package
from workers.referee import SandboxFailure, SeriesSpec, TimeControl, play_series, reason_words, write_replay
from workers.sandbox import Limits, SandboxError

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # the shell's code for Ctrl-C

LOG_PREVIEW_LINES = 20

# TrueSkill for the local round robin: the platform's scale (engines/declaration.py);
# β, τ and the draw probability are the game's own (its declaration), as a season's.
TRUESKILL_MU = MU
TRUESKILL_SIGMA = SIGMA

NO_SANDBOX_WARNING = """\
WARNING: --no-sandbox: the bots run as ordinary processes with YOUR privileges.
WARNING: they can read and change your files, use the network and start programs.
WARNING: only do this with bots whose code you wrote or have read yourself.
"""


class UsageError(Exception):
    """A mistake in the command line; the message says what to change."""


# -- argument parsing -------------------------------------------------------------------


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {value}")
    return value


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {value}")
    return value


def _series_games(text: str) -> int:
    return _positive_int(text)


def _config(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise argparse.ArgumentTypeError(f"not JSON ({exc.msg} at character {exc.pos}): {text!r}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"a JSON object of the game's settings, not {type(value).__name__}")
    return value


def check_config(game: str, config: dict[str, Any]) -> dict[str, Any]:
    """Return ``config`` if ``game`` accepts it; raise UsageError with the engine's reason otherwise."""
    try:
        engines.get(game, config)
    except engines.ConfigError as exc:
        known = ", ".join(f"{key}={value!r}" for key, value in engines.get(game).config.items()) or "none"
        raise UsageError(f"--config: {exc} (the game's settings and defaults: {known})") from None
    return config


def check_series_games(game: str, games: int | None, players: int, config: dict[str, Any] | None = None) -> int:
    """Return the series length to play: ``games``, or the game's default; refuse what the referee would.

    A solo series (one bot of a game with a score ladder) defaults to the ladder's deals; a team
    game's series is asked about its player seats, the ones that rotate.
    """
    kind = engines.declaration(game).kind(players)
    if games is None:
        return kind.default_games(players, config or {})
    problem = kind.check_games(players, config or {}, games)
    if problem:
        raise UsageError(problem)
    return games


def _game_name(text: str) -> str:
    if text not in engines.names():
        raise argparse.ArgumentTypeError(f"unknown game {text!r}; registered games: {', '.join(engines.names())}")
    return text


def _add_series_flags(parser: argparse.ArgumentParser) -> None:
    defaults = TimeControl()
    games = ", ".join(engines.names())
    parser.add_argument("game", type=_game_name, metavar="GAME", help=f"the game to play ({games})")
    parser.add_argument(
        "--games",
        type=_series_games,
        default=None,
        metavar="N",
        help="games per series (default: the game's usual length for that many bots; the game checks it)",
    )
    parser.add_argument("--seed", type=int, metavar="S", help="seed of boards and bots (default: random, printed)")
    parser.add_argument(
        "--config",
        type=_config,
        default={},
        metavar="JSON",
        help="the game's settings as a JSON object, as a season sets them (default: the game's own), "
        """e.g. '{"mode": "challenge"}'""",
    )
    limits = (
        ("--decision-ms", _positive_int, defaults.decision_ms, "MS", "most time for one move, in ms"),
        ("--bank-ms", _positive_int, defaults.bank_ms, "MS", "time bank per bot per game, in ms"),
        ("--increment-ms", _non_negative_int, defaults.increment_ms, "MS", "added to the bank after each move, in ms"),
        ("--memory-mb", _positive_int, Limits().memory_mb, "MB", "memory limit per bot, in MB"),
    )
    for flag, number, default, metavar, what in limits:
        parser.add_argument(flag, type=number, default=default, metavar=metavar, help=f"{what} (default {default})")
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run the bots as plain processes with your privileges (your own bots only)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")


def players_by_game() -> str:
    """Return how many bots each registered game seats, as the help says it: "2 for a, 2 to 6 for b"."""
    parts = []
    for name in engines.names():
        info = engines.declaration(name).game.info
        players = (
            str(info.min_players)
            if info.min_players == info.max_players
            else f"{info.min_players} to {info.max_players}"
        )
        parts.append(f"{players} for {name}")
    return ", ".join(parts)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser for ``arena``."""
    parser = argparse.ArgumentParser(
        prog="arena",
        description="Run bot packages against each other locally, through the platform's referee and sandbox.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser(
        "play",
        help="play one series between bots",
        description=f"Play one series between bots ({players_by_game()}): each game and the score.",
    )
    _add_series_flags(play)
    play.set_defaults(command_parser=play)
    play.add_argument("bots", nargs="+", metavar="BOT", help="a bot package (directory or archive), one per seat")
    play.add_argument(
        "--builtin-gm",
        action="store_true",
        help="a team game: every bot is a player and the engine plays the GM (default: the last bot is the GM)",
    )
    play.add_argument("--replay", type=Path, metavar="FILE", help="write the gzip JSON replay to FILE")
    play.add_argument(
        "--show-logs",
        action="store_true",
        help=f"print the first {LOG_PREVIEW_LINES} lines each bot wrote to stderr",
    )

    roundrobin = commands.add_parser(
        "roundrobin",
        help="every pair of bots plays; rank them by TrueSkill",
        description="Every pair of bots plays --rounds series; rank the bots by TrueSkill (μ − 3σ).",
    )
    _add_series_flags(roundrobin)
    roundrobin.set_defaults(command_parser=roundrobin)
    roundrobin.add_argument("bots", nargs="+", metavar="BOT", help="two or more bot packages")
    roundrobin.add_argument(
        "--rounds",
        type=_positive_int,
        default=1,
        metavar="R",
        help="series per pair of bots (default 1; who starts alternates by round)",
    )
    roundrobin.add_argument("--quiet", action="store_true", help="no progress bar")
    apiclient.add_commands(commands)  # upload, status: the platform's API (workers/apiclient.py)
    return parser


# -- loading bots -----------------------------------------------------------------------


@dataclass
class LoadedBot:
    """A bot package and the name it is shown under."""

    path: Path
    package: BotPackage
    label: str


def load_bots(paths: Sequence[str], game: str, work_dir: Path) -> list[LoadedBot]:
    """Load every bot package; raise UsageError or BotPackageError with a how-to-fix message."""
    bots = []
    for number, text in enumerate(paths, start=1):
        path = Path(text)
        if not path.exists():
            raise UsageError(f"bot path {text!r} does not exist (give a bot package directory or archive)")
        try:
            package = load_bot_package(path, work_dir / f"bot-{number}")
        except BotPackageError as exc:
            message = str(exc)
            if not message.startswith(path.name):
                message = f"{text}: {message}"
            raise BotPackageError(message) from None
        if package.games and game not in package.games:
            raise BotPackageError(
                f"{text}: the bot {package.name!r} plays {', '.join(package.games)}, not {game}; "
                f'add "{game}" to games in its bot.toml if it can'
            )
        bots.append(LoadedBot(path=path, package=package, label=package.name))
    names = [bot.package.name for bot in bots]
    for bot in bots:
        if names.count(bot.package.name) > 1:
            same = [b for b in bots if b.package.name == bot.package.name]
            bot.label = f"{bot.package.name} ({same.index(bot) + 1})"
    return bots


def _series_spec(args: argparse.Namespace, packages: Sequence[BotPackage], seed: int) -> SeriesSpec:
    return SeriesSpec(
        bots=list(packages),
        game=args.game,
        config=dict(args.config),
        games=args.games,
        seed=seed,
        time_control=TimeControl(decision_ms=args.decision_ms, bank_ms=args.bank_ms, increment_ms=args.increment_ms),
        limits=Limits(memory_mb=args.memory_mb),
        sandbox="none" if args.no_sandbox else "auto",
    )


@contextlib.contextmanager
def _bots_loaded(args: argparse.Namespace) -> Iterator[list[LoadedBot]]:
    with tempfile.TemporaryDirectory(prefix="arena-bots-") as work_dir:
        yield load_bots(args.bots, args.game, Path(work_dir))


# -- formatting -------------------------------------------------------------------------


def render_series(result: SeriesResult, bots: Sequence[LoadedBot], seed: int) -> str:
    """Return the series as its game writes it (per-game table, score), under a header naming the bots.

    ``seed`` is the local series' ``--seed`` (the result document carries none: on the platform the
    series' chance comes from a secret).
    """
    labels = [bot.label for bot in bots]
    lines = [
        f"{result.game} (rules {result.rules_version}): {' vs '.join(labels)}, "
        f"{result.games_planned} games, seed {seed}, sandbox {result.sandbox}",
    ]
    lines += [f"  player {i}: {bot.label}  ({bot.path})" for i, bot in enumerate(bots)]
    lines.append("")
    formatter = engines.declaration(result.game).format_series or format_series
    lines += formatter(result, labels, reason_words(result.game))
    lines.append(f"Wall time: {result.wall_seconds:.1f} s")
    return "\n".join(lines)


def _log_base(replay: Path | None) -> tuple[Path, str]:
    if replay is not None:
        name = replay.name
        for suffix in (".gz", ".json"):
            name = name.removesuffix(suffix)
        return replay.parent, name + "."
    return Path(tempfile.mkdtemp(prefix="arena-logs-")), ""


def save_logs(result: SeriesResult, bots: Sequence[LoadedBot], replay: Path | None, show: bool) -> str:
    """Write each bot's captured stderr to a file and return lines saying where (or showing it)."""
    lines = ["Bot logs (stderr):"]
    base: tuple[Path, str] | None = None
    for entry in result.stderr:
        bot = bots[entry.player]
        text = entry.text
        if not text and not entry.truncated_bytes:
            lines.append(f"  {bot.label}: wrote nothing")
            continue
        if base is None:
            base = _log_base(replay)
        directory, prefix = base
        safe = re.sub(r"[^A-Za-z0-9_-]+", "-", bot.label).strip("-")
        path = directory / f"{prefix}player{entry.player}-{safe}.stderr.txt"
        path.write_text(text, encoding="utf-8")
        count = len(text.splitlines())
        dropped = f", {entry.truncated_bytes} more bytes dropped at the cap" if entry.truncated_bytes else ""
        lines.append(f"  {bot.label}: {path} ({count} lines{dropped})")
        if show:
            lines += [f"    | {line}" for line in text.splitlines()[:LOG_PREVIEW_LINES]]
            if count > LOG_PREVIEW_LINES:
                lines.append(f"    | ... {count - LOG_PREVIEW_LINES} more lines in the file")
    return "\n".join(lines)


# -- commands ---------------------------------------------------------------------------


def _seed(args: argparse.Namespace) -> int:
    return args.seed if args.seed is not None else secrets.randbelow(1_000_000)


def command_play(args: argparse.Namespace, out: IO[str]) -> int:
    """Play one series and print it; return the exit code."""
    if args.replay is not None and not args.replay.parent.is_dir():
        raise UsageError(f"cannot write the replay to {args.replay}: the folder {args.replay.parent} does not exist")
    kind = engines.declaration(args.game).kind(len(args.bots))
    roles = seating(args, kind)
    args.games = check_series_games(args.game, args.games, len(args.bots), args.config)
    check_config(args.game, args.config)
    seed = _seed(args)
    with _bots_loaded(args) as bots:
        check_roles(bots, roles)
        # A local series: its seed is the author's own, kept in what this command writes.
        result = play_series(_series_spec(args, [bot.package for bot in bots], seed))
    document = {**result.to_json(), "seed": seed}
    if args.replay is not None:
        write_replay(document, args.replay)
    if args.json:
        json.dump(document, out, indent=2)
        out.write("\n")
        return EXIT_OK
    print(render_series(result, bots, seed), file=out)
    if sides := kind.sides_line(result.games, [bot.label for bot in bots], roles):
        print(sides, file=out)
    print(save_logs(result, bots, args.replay, args.show_logs), file=out)
    if args.replay is not None:
        print(f"Replay: {args.replay}", file=out)
    if args.seed is None:
        print(f"Play these games again with --seed {seed}", file=out)
    return EXIT_OK


def seating(args: argparse.Namespace, kind: engines.Kind) -> tuple[str, ...] | None:
    """Return each bot's role in a game with roles (the last bot the GM, unless --builtin-gm); None for other games.

    With ``--builtin-gm`` the built-in GM's config is merged into ``args.config``. Raises UsageError
    for a seating the game does not have.
    """
    if args.builtin_gm:
        config = kind.builtin_gm(args.config or {})
        if config is None:
            raise UsageError(f"--builtin-gm is for team games; {args.game} has no GM")
        args.config = config
    config = check_config(args.game, args.config or {})
    game = engines.get(args.game, config)
    problem = kind.check_seats(len(args.bots), game.config)
    if problem:
        raise UsageError(problem + kind.seating_hint(args.builtin_gm))
    return kind.seat_roles(len(args.bots), game.config)


def check_roles(bots: Sequence[LoadedBot], roles: Sequence[str] | None) -> None:
    """Raise BotPackageError when a bot sits in a role its bot.toml does not list (``roles``: None, no roles)."""
    for bot, role in zip(bots, roles or (), strict=False):
        if bot.package.roles and role not in bot.package.roles:
            raise BotPackageError(
                f"{bot.path}: the bot {bot.package.name!r} plays {', '.join(bot.package.roles)} "
                f"(its bot.toml's roles), not {role}; the last bot is the GM (or give --builtin-gm)"
            )


@dataclass
class Standing:
    """One bot's round-robin record and rating."""

    bot: LoadedBot
    rating: trueskill.Rating
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: float = 0.0
    game_wins: int = 0
    forfeits: int = 0

    @property
    def conservative(self) -> float:
        """Return μ − 3σ, the rating leaderboards sort by."""
        return self.rating.mu - 3 * self.rating.sigma

    def to_json(self) -> dict[str, Any]:
        """Return the standing as a JSON-ready dict."""
        return {
            "bot": self.bot.label,
            "path": str(self.bot.path),
            "mu": round(self.rating.mu, 3),
            "sigma": round(self.rating.sigma, 3),
            "conservative": round(self.conservative, 3),
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "points": self.points,
            "game_wins": self.game_wins,
            "forfeits": self.forfeits,
        }


def trueskill_environment(game: str) -> trueskill.TrueSkill:
    """Return the TrueSkill environment of a local round robin of ``game``: its declaration's constants."""
    rating = engines.declaration(game).rating
    return trueskill.TrueSkill(
        mu=TRUESKILL_MU,
        sigma=TRUESKILL_SIGMA,
        beta=rating.beta,
        tau=rating.tau,
        draw_probability=rating.draw_probability,
    )


def schedule(bots: int, rounds: int) -> list[tuple[int, int]]:
    """Return every series to play as (player 0, player 1) bot indexes; colours alternate by round."""
    series = []
    for round_index in range(rounds):
        for first, second in combinations(range(bots), 2):
            series.append((first, second) if round_index % 2 == 0 else (second, first))
    return series


def record_series(env: trueskill.TrueSkill, pair: Sequence[Standing], result: SeriesResult) -> None:
    """Add one finished series (``pair`` as its players 0 and 1) to both bots' records and rate it.

    The module function with an explicit ``env`` is the package's own form:
    the method ``env.rate_1vs1`` is deprecated since trueskill 0.4 and only
    calls it.
    """
    score = result.score
    for player, standing in enumerate(pair):
        standing.played += 1
        standing.points += score.points[player]
        standing.game_wins += score.game_wins[player]
        standing.forfeits += sum(1 for game in result.games if game.forfeit and game.forfeit.player == player)
    winner = score.winner
    if winner is None:
        pair[0].drawn += 1
        pair[1].drawn += 1
        pair[0].rating, pair[1].rating = trueskill.rate_1vs1(pair[0].rating, pair[1].rating, drawn=True, env=env)
        return
    won, lost = pair[winner], pair[1 - winner]
    won.won += 1
    lost.lost += 1
    won.rating, lost.rating = trueskill.rate_1vs1(won.rating, lost.rating, env=env)


def ranked(standings: Sequence[Standing]) -> list[Standing]:
    """Return the standings best first: μ − 3σ, then μ, then the order given."""
    order = {id(s): i for i, s in enumerate(standings)}
    return sorted(standings, key=lambda s: (-s.conservative, -s.rating.mu, order[id(s)]))


def render_standings(standings: Sequence[Standing]) -> str:
    """Return the round-robin table, best first."""
    headers = ["Rank", "Bot", "μ", "σ", "μ−3σ", "Series", "Won", "Drawn", "Lost", "Points", "Game wins", "Forfeits"]
    rows = [
        [
            rank,
            s.bot.label,
            f"{s.rating.mu:.2f}",
            f"{s.rating.sigma:.2f}",
            f"{s.conservative:.2f}",
            s.played,
            s.won,
            s.drawn,
            s.lost,
            format_points(s.points),
            s.game_wins,
            s.forfeits,
        ]
        for rank, s in enumerate(ranked(standings), start=1)
    ]
    return render_table(headers, rows, right=(0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11))


def command_roundrobin(args: argparse.Namespace, out: IO[str]) -> int:
    """Play every pair of bots, rate the series with TrueSkill and print the table."""
    if len(args.bots) < 2:
        raise UsageError("a round robin needs at least two bots")
    problem = engines.declaration(args.game).kind(2).round_robin_problem()
    if problem:
        raise UsageError(problem)
    args.games = check_series_games(args.game, args.games, 2)
    check_config(args.game, args.config)
    seed = _seed(args)
    env = trueskill_environment(args.game)
    results: list[dict[str, Any]] = []
    with _bots_loaded(args) as bots:
        standings = [Standing(bot=bot, rating=env.create_rating()) for bot in bots]
        plan = schedule(len(bots), args.rounds)
        progress = tqdm(
            total=len(plan),
            desc="series",
            unit="series",
            file=sys.stderr,
            disable=args.quiet or not sys.stderr.isatty(),
            leave=False,
        )
        with progress:
            for number, (first, second) in enumerate(plan):
                played = play_series(_series_spec(args, [bots[first].package, bots[second].package], seed + number))
                record_series(env, [standings[first], standings[second]], played)
                labels = [bots[first].label, bots[second].label]
                points = list(played.score.points)
                results.append(
                    {
                        "series": number + 1,
                        "bots": labels,
                        "seed": seed + number,
                        "points": points,
                        "game_wins": list(played.score.game_wins),
                        "winner": played.score.winner,
                        "forfeits": [
                            {
                                "game": game.index + 1,
                                "bot": labels[game.forfeit.player],
                                "reason": game.forfeit.reason,
                                "detail": game.forfeit.detail,
                            }
                            for game in played.games
                            if game.forfeit is not None
                        ],
                    }
                )
                score_text = f"{format_points(points[0])}-{format_points(points[1])}"
                progress.set_postfix_str(f"{labels[0]} {score_text} {labels[1]}")
                progress.update()
    if args.json:
        report = {
            "game": args.game,
            "seed": seed,
            "rounds": args.rounds,
            "games_per_series": args.games,
            "trueskill": {
                "mu": TRUESKILL_MU,
                "sigma": TRUESKILL_SIGMA,
                "beta": engines.declaration(args.game).rating.beta,
                "tau": engines.declaration(args.game).rating.tau,
                "draw_probability": engines.declaration(args.game).rating.draw_probability,
            },
            "series": results,
            "standings": [s.to_json() for s in ranked(standings)],
        }
        json.dump(report, out, indent=2)
        out.write("\n")
        return EXIT_OK
    print(
        f"{args.game} round robin: {len(bots)} bots, {args.rounds} round(s), {len(results)} series "
        f"of {args.games} games, seed {seed}",
        file=out,
    )
    print(render_standings(standings), file=out)
    print(
        "Ranked by μ−3σ (TrueSkill, one series = one rated match; more Watch points wins, equal is a draw).",
        file=out,
    )
    forfeits = [(result, forfeit) for result in results for forfeit in result["forfeits"]]
    if forfeits:
        print("Forfeits:", file=out)
        for result, forfeit in forfeits:
            print(
                f"  series {result['series']} ({' vs '.join(result['bots'])}, seed {result['seed']}), "
                f"game {forfeit['game']}: {forfeit['bot']} forfeited ({forfeit['reason']}): {forfeit['detail']}",
                file=out,
            )
    if args.seed is None:
        print(f"Play this round robin again with --seed {seed}", file=out)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """Run ``arena`` with ``argv`` (default: the command line); return the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse has printed the usage and the error
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if getattr(args, "api_command", None) is not None:
        return apiclient.run(args, sys.stdout, sys.stderr)
    if args.no_sandbox:
        sys.stderr.write(NO_SANDBOX_WARNING)
    command = command_play if args.command == "play" else command_roundrobin
    try:
        return command(args, sys.stdout)
    except UsageError as exc:
        args.command_parser.print_usage(sys.stderr)
        print(f"arena {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BotPackageError as exc:
        print(f"arena {args.command}: bad bot package: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except SandboxError as exc:
        print(f"arena {args.command}: the sandbox cannot run here: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except SandboxFailure as exc:
        print(f"arena {args.command}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except (OSError, ValueError) as exc:
        print(f"arena {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:  # the referee has already stopped the bots
        print(f"arena {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
