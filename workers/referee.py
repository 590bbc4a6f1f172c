"""Referee a series between bot processes: protocol, clocks, forfeits, result and replay.

The referee owns the only game state. Each bot runs once for the whole series
in its own sandbox (workers/sandbox.py) and sees, over newline-delimited JSON
(docs/protocol.md), only its own observation and the legal actions. A bot that
is not on turn is frozen. Anything a bot does wrong is a forfeit with a
recorded reason, never an exception: a bot's failure is a result.

Clocks, per game and per seat, like a chess clock: each decision may take at
most ``decision_ms`` (wall time, from sending the request to reading the
answer's newline), and its time comes out of a bank of ``bank_ms`` that gains
``increment_ms`` after each decision. A decision is charged the time the
referee waited for the bot and the time it spent resuming and stopping it,
never a stall of the referee itself (:class:`DecisionClock`).

Fair play (docs/protocol.md, "What a bot can know"): chance is drawn from the
series' secret (workers/chance.py), which no message carries; a request holds
the seat's observation, its legal actions and its own clock, nothing counted
over other seats' actions; every message written to a bot off its turn is
written while it is stopped.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import json
import os
import selectors
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import engines
from engines.result import PROTOCOL_VERSION, Action, GameRecord, Player, Score, SeriesResult, StderrTail
from engines.result import Forfeit as ForfeitRecord
from workers import bot_text, chance
from workers.botpkg import BotPackage
from workers.sandbox import STARTED_MARKER, BotProcess, Limits, resolve_mode, shared_staging, start_bot
from workers.slots import SlotError, SlotLease, lease_slot

# Forfeit reasons, as recorded in result documents and shown to bot owners.
ILLEGAL_ACTION = "illegal_action"
MALFORMED_OUTPUT = "malformed_output"
LINE_TOO_LONG = "line_too_long"
DECISION_TIMEOUT = "decision_timeout"
TIME_BANK = "time_bank"
CRASH = "crash"
EARLY_EXIT = "early_exit"
NOT_READING = "not_reading"
#: Each forfeit reason in words, the same for every game (the site, the CLI and the demo show these).
FORFEIT_WORDS = {
    ILLEGAL_ACTION: "answered with a move the rules do not allow",
    MALFORMED_OUTPUT: "answered with something that is not a move",
    LINE_TOO_LONG: "wrote an answer longer than the protocol allows",
    DECISION_TIMEOUT: "took longer than the time allowed for one move",
    TIME_BANK: "used up its time bank",
    CRASH: "crashed",
    EARLY_EXIT: "stopped before the game was over",
    NOT_READING: "stopped reading the referee's messages",
}


def reason_words(game_name: str) -> dict[str, str]:
    """Return every reason a game of ``game_name`` can end for (its own and the forfeits), in words."""
    words = dict(FORFEIT_WORDS)
    if game_name in engines.names():
        words.update(engines.get(game_name).info.reasons)
    return words


@dataclass(frozen=True)
class TimeControl:
    """Per-game clock for each seat."""

    decision_ms: int = 2000
    bank_ms: int = 60000
    increment_ms: int = 0

    def __post_init__(self) -> None:
        for name in ("decision_ms", "bank_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"time control {name} must be a positive integer of milliseconds, not {value!r}")
        if isinstance(self.increment_ms, bool) or not isinstance(self.increment_ms, int) or self.increment_ms < 0:
            raise ValueError(f"time control increment_ms must be a non-negative integer, not {self.increment_ms!r}")


@dataclass(frozen=True)
class SeriesSpec:
    """Everything a series needs; self-contained, so a match worker needs no database."""

    bots: Sequence[BotPackage]
    game: str = ""  # an engine name; empty: the flagship (engines.flagship())
    config: dict[str, Any] = field(default_factory=dict)
    games: int = 2
    # The series' chance secret (workers/chance.py): 32 bytes from the platform, which no bot
    # and no document ever sees. None: a local series, whose secret is a hash of ``seed``, so
    # ``arena play --seed N`` replays exactly.
    secret: bytes | None = None
    seed: int = 0
    time_control: TimeControl = field(default_factory=TimeControl)
    limits: Limits = field(default_factory=Limits)
    sandbox: str = "auto"  # auto (bwrap, or an error saying why not), bwrap, none
    # Worker slot: bot i runs as host uid uid_base + slot * 8 + i. The referee
    # leases a slot host-wide for the length of the series (workers/slots.py),
    # so bots of concurrent series never share a uid (nor its process limit):
    # this one if free, else the next free one. None: the one its pid gives.
    slot: int | None = None
    uid_base: int = 100000
    max_line_bytes: int = 64 * 1024
    stderr_cap_bytes: int = 64 * 1024
    start_timeout_ms: int = 10000  # extra time for a bot's first answer: process start-up and imports
    exit_grace_ms: int = 500


@dataclass
class Seat:
    """One bot process during the series, and the referee's buffers for it."""

    player: int
    package: BotPackage
    process: BotProcess
    out: bytearray = field(default_factory=bytearray)
    pending: bytearray = field(default_factory=bytearray)  # referee -> bot bytes not yet written
    stderr: bytearray = field(default_factory=bytearray)
    stderr_dropped: int = 0
    exited: bool = False
    answered: bool = False  # has answered a request this series (start-up is behind it)
    started: bool = False  # its code has run: the sandbox wrote STARTED_MARKER to stderr
    stderr_head: bytearray = field(default_factory=bytearray)
    setup_errors: bytearray = field(default_factory=bytearray)  # what the sandbox said if it never started


class SandboxFailure(RuntimeError):
    """The sandbox could not start a bot: an infrastructure error, not the bot's fault.

    The series has no result; a worker retries it (the platform) or the user
    sees the sandbox's own message (the CLI).
    """


class Forfeit(Exception):
    """A bot's failure during a decision; carries the reason recorded in the result."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def _dumps(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


#: The referee waits for an answer in slices of this many seconds, so that a stall of its own is
#: seen as one long gap rather than hidden inside a long wait.
WAIT_SLICE_S = 0.02
#: How much longer than it asked a wait may last before the excess counts as the referee's own stall.
STALL_TOLERANCE_S = 0.05


class DecisionClock:
    """The time one decision is charged: what the bot could use, never a stall of the referee.

    A decision runs from resuming the bot to stopping it again. It is charged
    the wall time the referee waited for the bot's answer, each wait capped at
    what it asked for (:data:`WAIT_SLICE_S` at most) plus
    :data:`STALL_TOLERANCE_S`, and the processor time the referee's own thread
    spent on the decision besides (resuming the bot, writing the request,
    reading, stopping it: a process tree built to make stopping it slow costs
    that bot). A referee that is not running (its worker stopped by SIGSTOP, a
    frozen container, a suspended host, a starved process) is neither waiting
    within its bound nor using the processor, so that time is charged to no
    one: it is counted in :attr:`stalled_s`, and a host stall never forfeits a bot.
    """

    def __init__(self) -> None:
        self._cpu = time.thread_time()
        self._cpu_waiting = 0.0  # the referee's processor time inside the waits, charged as wall time there
        self.waited_s = 0.0
        self.stalled_s = 0.0

    def wait(self, pump: Callable[[float], None], timeout_s: float) -> None:
        """Run ``pump(timeout_s)`` (a wait for the bot) and account for it."""
        cpu, before = time.thread_time(), time.perf_counter()
        pump(timeout_s)
        took = time.perf_counter() - before
        self._cpu_waiting += time.thread_time() - cpu
        if took > timeout_s + STALL_TOLERANCE_S:
            self.stalled_s += took - timeout_s
            took = timeout_s
        self.waited_s += took

    def working_s(self) -> float:
        """The referee's own processor time on the decision so far, outside its waits."""
        return max(0.0, time.thread_time() - self._cpu - self._cpu_waiting)

    def charged_s(self, allowance_s: float = 0.0) -> float:
        """Seconds charged so far: the waits beyond ``allowance_s`` (start-up), and the referee's own work."""
        return max(0.0, self.waited_s - allowance_s) + self.working_s()


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        repeated = next(key for key in keys if keys.count(key) > 1)
        raise ValueError(f"the key {repeated[:40]!r} appears twice")
    return dict(pairs)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_answer_line(line: bytes) -> dict[str, Any]:
    """Return a bot's answer line as a JSON object with ``action``; raise Forfeit(malformed_output) otherwise.

    Strict, so that an answer means one thing to every reader (docs/protocol.md, "The answer"):
    UTF-8 without a byte-order mark, no carriage return (the line ends with a bare LF), no key
    twice in any object (``{"action": 999999, "action": 3}`` is refused, not read as 3), no
    ``NaN`` or ``Infinity``.
    """
    shown = line[:80]
    if line.startswith(b"\xef\xbb\xbf"):
        raise Forfeit(MALFORMED_OUTPUT, f"the answer starts with a UTF-8 byte-order mark: {shown!r}")
    if b"\r" in line:
        raise Forfeit(MALFORMED_OUTPUT, f"a carriage return in the answer (end lines with LF alone): {shown!r}")
    try:
        answer = json.loads(line.decode("utf-8"), object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except RecursionError:
        raise Forfeit(MALFORMED_OUTPUT, f"JSON nested too deep to be an answer: {shown!r}") from None
    except (UnicodeDecodeError, ValueError) as exc:  # ValueError: not JSON, a key twice, an integer of >4300 digits
        raise Forfeit(MALFORMED_OUTPUT, f"not JSON ({str(exc)[:200]}): {shown!r}") from None
    if not isinstance(answer, dict) or "action" not in answer:
        raise Forfeit(MALFORMED_OUTPUT, f'expected {{"action": ...}}, got {shown!r}')
    return answer


class Referee:
    """Runs one series; use :func:`run_series`.

    ``slot_lease``: a slot the caller has leased (workers/slots.py) and gives
    back itself, for its bots; otherwise the referee leases one for the series.
    """

    def __init__(
        self, spec: SeriesSpec, log: Callable[[str], None] | None = None, *, slot_lease: SlotLease | None = None
    ) -> None:
        self.spec = spec
        declared = engines.declaration(spec.game or engines.flagship())
        self.declared = declared
        self.game = declared.game(spec.config)
        # The kind of series (engines/kinds.py) seats, rotates, scores and settles forfeits.
        self.kind = declared.kind(len(spec.bots))
        problem = self.kind.check_seats(len(spec.bots), self.game.config)  # refused here, not in game 1
        if problem:
            raise ValueError(problem)
        # A team game's roles per seat (the GM last); None for other games. Only the player seats rotate.
        self.roles = self.kind.seat_roles(len(spec.bots), self.game.config)
        problem = self.kind.check_games(len(spec.bots), self.game.config, spec.games)
        if problem:
            raise ValueError(problem)
        self.secret = chance.local_secret(spec.seed) if spec.secret is None else bytes(spec.secret)
        if len(self.secret) != chance.SECRET_BYTES:
            raise ValueError(f"a series' chance secret is {chance.SECRET_BYTES} bytes, not {len(self.secret)}")
        self.stalled_s = 0.0  # the referee's own stalls during decisions, charged to no bot
        self.mode = resolve_mode(spec.sandbox)
        if slot_lease is not None and slot_lease.uid_base != spec.uid_base:
            raise ValueError(f"the slot lease is for uid_base {slot_lease.uid_base}, the series' is {spec.uid_base}")
        self.slot = spec.slot if slot_lease is None else slot_lease.slot  # the one leased, from start_bots on
        self._given_lease = slot_lease
        self._lease: SlotLease | None = None  # the one start_bots leased, given back by stop_bots
        self.log = log or (lambda message: None)
        self.seats: list[Seat] = []
        self.selector = selectors.DefaultSelector()

    # -- process plumbing -----------------------------------------------------------
    def start_bots(self) -> None:
        """Start every bot; a bot the host could not start is a :class:`SandboxFailure` of the series.

        A cgroup that vanished under a starting bot, a process or file the host refused: none
        is the bot's doing, so none is a forfeit, and none escapes as a bare ``OSError`` (a
        worker retries a SandboxFailure; the CLI says it in one line). Bots already started
        are stopped by :meth:`run`, as after any error.
        """
        staging = shared_staging()
        lease = self._given_lease
        if lease is None:
            try:
                lease = self._lease = lease_slot(self.slot, self.spec.uid_base)
            except SlotError as exc:
                raise SandboxFailure(f"no worker slot for the bots: {exc}") from exc
        slot = self.slot = lease.slot
        for player, package in enumerate(self.spec.bots):
            try:
                bot_dir = staging.add_bot(package.directory, package.sha256)
                process = start_bot(
                    package.command,
                    bot_dir,
                    runtime_dir=staging.runtime,
                    limits=self.spec.limits,
                    slot=slot * 8 + player,
                    mode=self.mode,
                    uid_base=self.spec.uid_base,
                )
            except OSError as exc:  # start_bot says what failed (SandboxError, a host that cannot sandbox, passes)
                raise SandboxFailure(f"the sandbox could not start {package.name}: {exc}") from exc
            for stream in (process.popen.stdin, process.popen.stdout, process.popen.stderr):
                assert stream is not None
                os.set_blocking(stream.fileno(), False)
            seat = Seat(player=player, package=package, process=process)
            self.seats.append(seat)
            self.selector.register(process.popen.stdout, selectors.EVENT_READ, (seat, "out"))  # type: ignore[arg-type]
            self.selector.register(process.popen.stderr, selectors.EVENT_READ, (seat, "err"))  # type: ignore[arg-type]
            if process.cgroup is not None and process.cgroup.oom_fd is not None:
                self.selector.register(process.cgroup.oom_fd, selectors.EVENT_READ, (seat, "oom"))

    def stop_bots(self) -> None:
        grace = time.monotonic() + self.spec.exit_grace_ms / 1000
        for seat in self.seats:
            with contextlib.suppress(OSError):
                seat.process.thaw()
            self._flush(seat)
            with contextlib.suppress(OSError):
                seat.process.popen.stdin.close()  # type: ignore[union-attr]
        for seat in self.seats:
            while time.monotonic() < grace and seat.process.popen.poll() is None:
                self._pump(seat, 0.01)
            self._pump(seat, 0)
            seat.process.kill()
        self.selector.close()
        if self._lease is not None:  # every bot is dead: its uids are free for the next series
            self._lease.release()
            self._lease = None

    def _send(self, seat: Seat, message: dict[str, Any]) -> None:
        seat.pending += _dumps(message)
        self._flush(seat)

    def _flush(self, seat: Seat) -> None:
        if not seat.pending or seat.exited:
            return
        try:
            written = os.write(seat.process.popen.stdin.fileno(), seat.pending)  # type: ignore[union-attr]
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, ValueError, OSError):
            seat.exited = True
            seat.pending.clear()
            return
        del seat.pending[:written]
        if len(seat.pending) > 4 * 1024 * 1024:
            raise Forfeit(NOT_READING, "the bot has not read 4 MiB of messages from stdin")

    def _pump(self, seat: Seat, timeout: float) -> None:
        """Read whatever the bot has written (stdout and stderr) within ``timeout`` seconds."""
        for key, _ in self.selector.select(timeout):
            owner, kind = key.data
            if kind == "oom":  # out of memory (cgroup v1): the whole bot dies now, as v2's oom.group does
                self.selector.unregister(key.fileobj)
                if owner.process.cgroup is not None and owner.process.cgroup.check_memory():
                    owner.process.cgroup.kill_all()
                continue
            try:
                chunk = os.read(key.fd, 65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                chunk = b""
            if kind == "err":
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                if not owner.started:
                    owner.stderr_head += chunk
                    if len(owner.stderr_head) < len(STARTED_MARKER) and STARTED_MARKER.startswith(owner.stderr_head):
                        continue
                    chunk = bytes(owner.stderr_head)
                    owner.stderr_head.clear()
                    if chunk.startswith(STARTED_MARKER):
                        owner.started = True
                        chunk = chunk[len(STARTED_MARKER) :]
                    else:
                        owner.setup_errors += chunk[:4096]
                        continue
                room = self.spec.stderr_cap_bytes - len(owner.stderr)
                owner.stderr += chunk[: max(room, 0)]
                owner.stderr_dropped += max(len(chunk) - max(room, 0), 0)
            else:
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    owner.exited = True
                    continue
                # Past max_line_bytes the answer is too long whatever follows (_read_reply
                # forfeits it): keep no more, or a bot flooding stdout (say, during the exit
                # grace) grows this buffer by hundreds of MB a second.
                if len(owner.out) <= self.spec.max_line_bytes:
                    owner.out += chunk

    def _read_reply(self, seat: Seat, timeout_ms: float, clock: DecisionClock) -> bytes:
        """Return the bot's answer line, or raise Forfeit; the waits are charged to ``clock``.

        No answer once ``clock`` has charged ``timeout_ms`` is a ``decision_timeout``.
        """
        limit = self.spec.max_line_bytes
        budget_s = timeout_ms / 1000
        while True:
            newline = seat.out.find(b"\n")
            if newline >= 0:
                line = bytes(seat.out[:newline])
                rest = seat.out[newline + 1 :]
                seat.out.clear()
                if len(line) > limit:
                    raise Forfeit(LINE_TOO_LONG, f"an answer of {len(line)} bytes; the limit is {limit}")
                if rest:  # a blank line too: one request, one line
                    raise Forfeit(MALFORMED_OUTPUT, "more than one line written for one request (log to stderr)")
                return line
            if len(seat.out) > limit:
                raise Forfeit(LINE_TOO_LONG, f"more than {limit} bytes without a newline")
            if seat.exited or seat.process.popen.poll() is not None:
                raise self._exit_forfeit(seat, during_decision=True)
            remaining = budget_s - clock.charged_s()  # the start-up allowance is part of budget_s
            if remaining <= 0:
                raise Forfeit(DECISION_TIMEOUT, f"no answer within {timeout_ms:.0f} ms")
            clock.wait(lambda timeout: self._pump(seat, timeout), min(remaining, WAIT_SLICE_S))

    def _exit_forfeit(self, seat: Seat, during_decision: bool) -> Forfeit:
        with contextlib.suppress(Exception):
            seat.process.popen.wait(timeout=0.5)
        self._pump(seat, 0)  # the sandbox's last words, if any
        if not seat.started:
            said = (seat.setup_errors + seat.stderr_head).decode("utf-8", "replace").strip()
            raise SandboxFailure(
                f"the sandbox could not start {seat.package.name} (exit code {seat.process.popen.poll()}): "
                + (said or "it said nothing")
            )
        code = seat.process.popen.poll()
        why = "closed its stdout" if code is None else f"exited with code {code}"
        if code is not None and code < 0:
            why = f"was killed by signal {-code}"
        cgroup = seat.process.cgroup
        if cgroup is not None and cgroup.oom_killed():
            why += " (memory limit)"
        if code == 0 and not during_decision:
            return Forfeit(EARLY_EXIT, f"the bot {why} before the series was over")
        return Forfeit(CRASH if code != 0 else EARLY_EXIT, f"the bot {why}")

    # -- the series ---------------------------------------------------------------------
    def run(self) -> SeriesResult:
        """Play the series and return its result (see :func:`run_series` for the document)."""
        spec = self.spec
        players = len(spec.bots)
        games: list[GameRecord] = []
        started = time.perf_counter()
        try:
            self.start_bots()
            self._start_series(players)
            for index in range(spec.games):
                game = self._play_game(index)
                games.append(game)
                if game.forfeit is not None:
                    break  # a forfeit decides the series
            score = self._score(games)
            for seat in self.seats:
                if not seat.exited:
                    with contextlib.suppress(Forfeit):
                        self._send(seat, {"type": "series_over", "score": score.to_json()})
        finally:
            self.stop_bots()
        info = self.game.info
        return SeriesResult(
            protocol=PROTOCOL_VERSION,
            game=info.name,
            rules_version=info.rules_version,
            config=self.game.config,
            games_planned=spec.games,
            time_control=asdict(spec.time_control),
            limits=asdict(spec.limits),
            sandbox=self.mode,
            players=tuple(Player(name=p.name, sha256=p.sha256) for p in spec.bots),
            games=tuple(games),
            score=score,
            stderr=tuple(
                StderrTail(
                    player=seat.player,
                    text=bot_text.decode(bytes(seat.stderr)),  # no NUL for jsonb, no escapes for pages
                    truncated_bytes=seat.stderr_dropped,
                )
                for seat in self.seats
            ),
            wall_seconds=round(time.perf_counter() - started, 3),
            # The referee's own stalls (its worker stopped or starved) during decisions: charged to no bot.
            referee_stall_ms=round(self.stalled_s * 1000, 1),
        )

    def _start_series(self, players: int) -> None:
        """Send every bot its start message, stopped: it reads it at its first request.

        Each bot is stopped as soon as its sandbox is set up and its code starts (the
        launcher's first act is the started marker, workers/sandbox.py), whatever the others
        are doing, and at the latest when the start-up allowance is over. Not before: until
        then bubblewrap is still making the sandbox (and arranging to die with the worker), so
        a stop would miss the bot's processes, which do not exist yet, and freezing bubblewrap
        itself could leave it stopped for good if the worker died. Not later: the bot would
        do its start-up work while the others start, on no one's clock. A bot that cannot take
        the message, or never started, shows it at its first request.
        """
        spec = self.spec
        deadline = time.monotonic() + spec.start_timeout_ms / 1000
        waiting = list(self.seats)
        while waiting:
            late = time.monotonic() >= deadline
            for seat in list(waiting):
                if late or seat.started or seat.exited or seat.process.popen.poll() is not None:
                    waiting.remove(seat)
                    self._send_off_turn(seat, self._start_message(seat, players))
            if waiting:
                self._pump(waiting[0], min(max(deadline - time.monotonic(), 0.0), WAIT_SLICE_S))

    def _start_message(self, seat: Seat, players: int) -> dict[str, Any]:
        spec = self.spec
        return {
            "type": "start",
            "protocol": PROTOCOL_VERSION,
            "game": self.game.info.name,
            "rules_version": self.game.info.rules_version,
            "player": seat.player,
            "num_players": players,
            "games": spec.games,
            "seed": chance.bot_seed(self.secret, seat.player),  # its own randomness: nothing of the chance
            "config": self.game.config,
            "time_control": asdict(spec.time_control),
        }

    def _send_off_turn(self, seat: Seat, message: dict[str, Any]) -> None:
        """Write ``message`` to a bot that is not on turn, stopping it first.

        A message wakes a bot blocked reading its stdin; written to a stopped
        bot, it is read once the bot is resumed for its next request, on its
        own clock. (A bot left running because it was only waiting for the
        referee, :meth:`~workers.sandbox.BotProcess.waiting_for_referee`, is
        stopped now.) Notices to a bot that stopped reading are not its turn's
        business; if it never reads, its next request times out.
        """
        with contextlib.suppress(OSError):
            seat.process.freeze(force=True)
        self._send_quietly(seat, message)

    def _play_game(self, index: int) -> GameRecord:
        spec = self.spec
        players = len(self.seats)
        seats = self.kind.seat_order(index, players, self.roles)  # seat -> series player, for this game
        # Engines take no randomness from the seed (chance is explicit): none is given, so none is kept.
        state = self.game.new_initial_state(seed=None, num_players=players)
        rng = chance.game_rng(self.secret, index)
        bank = [float(spec.time_control.bank_ms)] * players
        actions: list[Action] = []
        forfeit: ForfeitRecord | None = None
        for seat_index, player in enumerate(seats):
            self._send_off_turn(
                self.seats[player],
                {
                    "type": "game_start",
                    "game_index": index,
                    "seat": seat_index,
                    "seats": seats,
                },
            )
        while not state.is_terminal():
            current = state.current_player()
            if current == engines.CHANCE:
                # Drawn by the referee from the series' secret: the deal, the hidden timer.
                # Recorded with the moves, so a replay is exact; no bot sees it.
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
                actions.append(Action(seat=None, action=action, notation=state.action_to_string(action)))
                state.apply_action(action)
                continue
            player = seats[current]
            seat = self.seats[player]
            legal = state.legal_actions()
            # What the seat may know and nothing more: its observation, its legal actions and its
            # own clock. No count of the game's actions (it would count other seats' secret moves)
            # and no other seat's bank (it would show how often and how long they thought).
            request = _dumps(
                {
                    "type": "request",
                    "game_index": index,
                    "observation": state.observation(current),
                    "legal_actions": legal,
                    "clock": {"decision_ms": spec.time_control.decision_ms, "bank_ms": round(bank[current], 1)},
                }
            )
            budget = min(spec.time_control.decision_ms, bank[current])
            starting = not seat.answered
            if starting:
                # The first answer of the series also covers starting the process and its
                # imports: allowed start_timeout_ms on top, and that start-up is not charged
                # to the bank.
                budget += spec.start_timeout_ms
            clock = DecisionClock()
            try:
                self._pump(seat, 0)
                if seat.out:
                    raise Forfeit(MALFORMED_OUTPUT, "wrote to stdout without a request (log to stderr)")
                # Resuming and stopping a bot's processes is part of its decision: a process tree
                # built to make them slow (forty children resuming one another) stalls nobody else.
                seat.process.thaw()
                seat.pending += request
                self._flush(seat)
                line = self._read_reply(seat, budget, clock)
                seat.process.freeze()
                seat.answered = True
                # Start-up is waited for, up to the allowance, free; stopping the bot never is.
                charged_ms = clock.charged_s(spec.start_timeout_ms / 1000 if starting else 0.0) * 1000
                if charged_ms > spec.time_control.decision_ms:
                    raise Forfeit(DECISION_TIMEOUT, f"no answer within {spec.time_control.decision_ms} ms")
                bank[current] -= charged_ms
                if bank[current] < 0:
                    raise Forfeit(TIME_BANK, f"the time bank of {spec.time_control.bank_ms} ms is used up")
                bank[current] += spec.time_control.increment_ms
                action, notation = self._parse_answer(state, line, legal)
            except Forfeit as exc:
                with contextlib.suppress(OSError):
                    seat.process.freeze()
                if exc.reason == DECISION_TIMEOUT and bank[current] <= spec.time_control.decision_ms:
                    exc = Forfeit(TIME_BANK, f"the time bank ran out ({bank[current]:.0f} ms were left)")
                forfeit = ForfeitRecord(player=player, seat=current, reason=exc.reason, detail=exc.detail)
                break
            finally:
                self.stalled_s += clock.stalled_s
            state.apply_action(action)
            actions.append(
                Action(
                    seat=current,
                    action=action,
                    notation=notation,
                    ms=round(charged_ms, 3),  # what came off its bank (start-up aside)
                    bank_ms=round(bank[current], 1),  # left after this move (and its increment)
                )
            )
        outcome = state.outcome()
        if forfeit is not None:
            winners = self.kind.forfeit_winners(seats, self.roles, forfeit.player)
            reason = forfeit.reason
        else:
            assert outcome is not None
            winners = [seats[s] for s in outcome.winners]
            reason = outcome.reason
        stats = outcome.stats if outcome is not None else self._partial_stats(state)
        record = GameRecord(
            index=index,
            seats=tuple(seats),
            actions=tuple(actions),
            forfeit=forfeit,
            winners=tuple(winners),
            reason=reason,
            stats={str(seats[s]): dict(stats[s]) for s in range(players)},
            # Per series player, as the engine returned them (a solo game's score is returns[0]); None after a forfeit.
            returns=None if outcome is None else tuple(outcome.returns[seats.index(p)] for p in range(players)),
            bank_ms_left=tuple(round(b, 1) for b in bank),
        )
        for player in seats:
            # A forfeit's detail can name the forfeiter's hidden cards (its legal moves): only it is told.
            told = forfeit
            if forfeit is not None and forfeit.player != player:
                told = dataclasses.replace(forfeit, detail=None)
            self._send_off_turn(
                self.seats[player],
                {
                    "type": "game_over",
                    "game_index": index,
                    "outcome": None if outcome is None else outcome.to_json(),
                    "forfeit": None if told is None else told.to_json(),
                },
            )
        return record

    def _send_quietly(self, seat: Seat, message: dict[str, Any]) -> None:
        with contextlib.suppress(Forfeit):
            self._send(seat, message)

    def _partial_stats(self, state: engines.State) -> list[dict[str, Any]]:
        counts = getattr(state, "move_counts", None)
        if counts is None:
            return [{} for _ in self.seats]
        moves = counts()
        return [{"moves": moves[s]} for s in range(len(self.seats))]

    def _parse_answer(self, state: engines.State, line: bytes, legal: list[int]) -> tuple[int, str]:
        answer = parse_answer_line(line)
        value = answer["action"]
        try:
            if isinstance(value, str):
                action = state.parse_action(value)
            elif isinstance(value, int) and not isinstance(value, bool):
                action = value
                if action not in legal:
                    probe = state.clone()
                    probe.apply_checked(action)  # raises with the message listing what was legal
            else:
                raise engines.MalformedActionError(f"an action is an integer id or notation, not {value!r}")
        except engines.ActionError as exc:
            raise Forfeit(ILLEGAL_ACTION, str(exc)[:500]) from None
        return action, state.action_to_string(action)

    def _score(self, games: list[GameRecord]) -> Score:
        return Score.from_json(self.kind.score_series(self.game, games, self.spec.games, len(self.seats)))


def play_series(
    spec: SeriesSpec, log: Callable[[str], None] | None = None, *, slot_lease: SlotLease | None = None
) -> SeriesResult:
    """Run the series that ``spec`` describes and return its result (``slot_lease``: :class:`Referee`)."""
    return Referee(spec, log, slot_lease=slot_lease).run()


def run_series(
    spec: SeriesSpec, log: Callable[[str], None] | None = None, *, slot_lease: SlotLease | None = None
) -> dict[str, Any]:
    """Run the series that ``spec`` describes and return its result document (engines/result.py).

    The JSON document, not the type: what a Celery task returns, the results stream carries
    and the platform stores, one ``json.dumps`` away.
    """
    return play_series(spec, log, slot_lease=slot_lease).to_json()


def write_replay(document: dict[str, Any], path: Path) -> None:
    """Write the result document as a gzip-compressed JSON replay."""
    payload = {"format": "watch-arena-replay", "version": 1, **document}
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(payload, handle, separators=(",", ":"))
