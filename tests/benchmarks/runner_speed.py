"""Benchmark: the match runner, sandboxed and plain, beside a bare JSON echo between two processes.

Run: ``.venv/bin/python tests/benchmarks/runner_speed.py`` (as root, where the
sandbox gets its own uid and cgroups; ``--series 20`` for a quicker run). It
pins itself and its children to one core and prints Markdown tables:

* start-up of a trivial SDK bot, from process start to its first answer,
  plain and sandboxed;
* the bare yardstick: a parent writes a Watch request line (a real
  mid-dressing request, about 2 kB) to a child Python that parses it and
  answers ``{"action": ...}``; median round trip;
* the referee's cost per decision in steady state, sandboxed and plain:
  one long series of 40 games between trivial SDK bots, wall time less the
  start-up and shutdown, divided by the decisions; and its ratio to the echo;
* 4-game Watch series per second between two trivial sandboxed bots,
  start-up and teardown of both sandboxes included;
* as a diagnosis of where the time goes, the same per-decision figure with
  freezing switched off (not a mode the referee offers), with every
  observation replaced by ``{}`` (the most a request that sends only what
  changed could save), and with both; the start-up of the interpreter
  without ``site`` (as bots run) and of ``import json``; and what leasing a
  series' worker slot costs (workers/slots.py: a lock file per slot, in a
  directory of its own here), with the preferred slot free and with 64
  leased ahead of it.

Figures and the command are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import engines  # noqa: E402
from workers.botpkg import load_bot_package  # noqa: E402
from workers.referee import SeriesSpec, TimeControl, run_series  # noqa: E402
from workers.sandbox import BotProcess, Limits, python_bot_command, shared_staging, start_bot  # noqa: E402
from workers.slots import UIDS_PER_SLOT, lease_slot  # noqa: E402

TRIVIAL_BOT = "from bots.sdk import run\nrun(lambda observation, legal_actions: legal_actions[0])\n"
ECHO_CHILD = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    request = json.loads(line)\n"
    "    sys.stdout.write(json.dumps({'action': request['legal_actions'][0]}) + '\\n')\n"
    "    sys.stdout.flush()\n"
)


def trivial_package(work: Path):  # type: ignore[no-untyped-def]
    bot = work / "trivial"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "trivial"\nentry = "main.py"\n')
    (bot / "main.py").write_text(TRIVIAL_BOT)
    return load_bot_package(bot, work)


def sample_request() -> bytes:
    """Return a real request line from the middle of the dressing phase."""
    state = engines.get("watch").new_initial_state()
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    request = {
        "type": "request",
        "game_index": 0,
        "observation": state.observation(0),
        "legal_actions": state.legal_actions(),
        "clock": {"decision_ms": 2000, "bank_ms": 60000.0},
    }
    return json.dumps(request, separators=(",", ":")).encode() + b"\n"


def echo_round_trip_us(rounds: int) -> float:
    """Return the median round trip of a request line through a plain child Python, in µs."""
    child = subprocess.Popen(
        ["/usr/bin/python3", "-c", ECHO_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert child.stdin is not None
    assert child.stdout is not None
    # Buffered reads, as fast as this can be written: a raw pipe's readline() would read one byte
    # per system call and flatter the referee's ratio (19 µs against 14 µs measured).
    replies = io.BufferedReader(child.stdout, buffer_size=65536)  # type: ignore[arg-type]
    line = sample_request()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        child.stdin.write(line)
        replies.readline()
        times.append((time.perf_counter() - started) * 1e6)
    child.stdin.close()
    child.wait()
    return statistics.median(times[rounds // 10 :])


def startup_ms(package, mode: str, repeats: int) -> float:  # type: ignore[no-untyped-def]
    """Return the median time from starting the bot to its first answer, in ms."""
    staging = shared_staging()
    bot_dir = staging.add_bot(package.directory, package.sha256)
    start = {"type": "start", "protocol": 2, "game": "watch", "rules_version": "1", "player": 0, "num_players": 2,
             "games": 2, "seed": 1, "config": {}, "time_control": {}}  # fmt: skip
    messages = json.dumps(start).encode() + b"\n" + sample_request()
    times = []
    with lease_slot() as lease:  # the bot's uid, as a referee leases it
        for _ in range(repeats):
            started = time.perf_counter()
            bot = start_bot(python_bot_command("main.py"), bot_dir, runtime_dir=staging.runtime, limits=Limits(),
                            slot=lease.slot * UIDS_PER_SLOT, mode=mode)  # fmt: skip
            assert bot.popen.stdin is not None
            assert bot.popen.stdout is not None
            bot.popen.stdin.write(messages)
            bot.popen.stdin.flush()
            bot.popen.stdout.readline()
            times.append((time.perf_counter() - started) * 1000)
            bot.kill()
    return statistics.median(times)


def steady_decision_us(package, mode: str) -> float:  # type: ignore[no-untyped-def]
    """Return the referee's wall time per decision over a 40-game series, start-up excluded, in µs."""
    spec = SeriesSpec(bots=[package, package], games=40, sandbox=mode, time_control=TimeControl(bank_ms=600_000))
    document = run_series(spec)
    decisions = sum(len(g["actions"]) for g in document["games"])
    short = run_series(SeriesSpec(bots=[package, package], games=2, sandbox=mode))
    short_decisions = sum(len(g["actions"]) for g in short["games"])
    # The 2-game series costs the same start-up and shutdown: the difference is pure decisions.
    per_decision = (document["wall_seconds"] - short["wall_seconds"]) / (decisions - short_decisions)
    return per_decision * 1e6


@contextlib.contextmanager
def empty_observation() -> Iterator[None]:
    """Diagnosis only: every request carries ``{}`` as its observation, the most a leaner request could save."""
    state_type = type(engines.get("watch").new_initial_state())
    saved = state_type.observation
    state_type.observation = lambda self, player: {}  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        state_type.observation = saved  # type: ignore[method-assign]


@contextlib.contextmanager
def freezing_switched_off() -> Iterator[None]:
    """Diagnosis only: make freeze and thaw do nothing, to see what they cost."""
    saved = BotProcess.freeze, BotProcess.thaw
    BotProcess.freeze = BotProcess.thaw = lambda self: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        BotProcess.freeze, BotProcess.thaw = saved  # type: ignore[method-assign]


def command_ms(command: list[str], repeats: int = 20) -> float:
    """Return the median wall time of running ``command``, in ms."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        subprocess.run(command, env={}, check=True)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def slot_lease_us(taken: int, repeats: int = 2000) -> float:
    """Return the median time to lease a slot and give it back, in µs, with ``taken`` slots leased ahead of it."""
    with tempfile.TemporaryDirectory() as work:
        directory = Path(work) / "slots"
        held = [lease_slot(0, directory=directory) for _ in range(taken)]
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            lease_slot(0, directory=directory).release()
            times.append((time.perf_counter() - started) * 1e6)
        for lease in held:
            lease.release()
    return statistics.median(times)


def series_per_second(package, mode: str, count: int) -> float:  # type: ignore[no-untyped-def]
    """Return how many 4-game series run per second, everything included."""
    started = time.perf_counter()
    for seed in range(count):
        run_series(SeriesSpec(bots=[package, package], games=4, seed=seed, sandbox=mode))
    return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=40, help="4-game series to time per mode")
    parser.add_argument("--rounds", type=int, default=3000, help="echo round trips")
    args = parser.parse_args()
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    print(f"Python {sys.version.split()[0]}, uid {os.geteuid()}, one core; bots on /usr/bin/python3\n")
    with tempfile.TemporaryDirectory() as work:
        package = trivial_package(Path(work))
        echo = echo_round_trip_us(args.rounds)
        rows = []
        for mode in ("bwrap", "none"):
            start = startup_ms(package, mode, 15)
            decision = steady_decision_us(package, mode)
            rate = series_per_second(package, mode, args.series)
            with freezing_switched_off():
                unfrozen = steady_decision_us(package, mode)
            with empty_observation():
                bare = steady_decision_us(package, mode)
                with freezing_switched_off():
                    bare_unfrozen = steady_decision_us(package, mode)
            rows.append((mode, start, decision, unfrozen, rate, bare, bare_unfrozen))
    python_start = command_ms(["/usr/bin/python3", "-c", "pass"])
    print(f"Bare JSON echo round trip (request line {len(sample_request())} bytes): {echo:.0f} µs median")
    print(f"`/usr/bin/python3 -c pass`: {python_start:.1f} ms median\n")
    print(
        "| runner | bot start-up to first answer | vs `python3 -c pass` "
        "| referee per decision | vs echo | 4-game series/s |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for mode, start, decision, _, rate, _, _ in rows:
        name = "sandboxed (bwrap, cgroup, seccomp)" if mode == "bwrap" else "plain processes (--no-sandbox)"
        print(
            f"| {name} | {start:.1f} ms | {start / python_start:.2f}x "
            f"| {decision:.0f} µs | {decision / echo:.2f}x | {rate:.1f} |"
        )
    print("\nDiagnosis:\n")
    print("| what | time |")
    print("|---|---:|")
    for mode, _, decision, unfrozen, _, bare, bare_unfrozen in rows:
        print(
            f"| referee per decision, {mode}, freezing switched off | {unfrozen:.0f} µs ({unfrozen / echo:.2f}x echo) |"
        )
        print(f"| ... so freezing and thawing cost, {mode} | {decision - unfrozen:.0f} µs |")
        print(f"| ... with an empty observation (the bound on any leaner request), {mode} | {bare:.0f} µs "
              f"({bare / echo:.2f}x echo) |")  # fmt: skip
        print(f"| ... with an empty observation and freezing switched off, {mode} | {bare_unfrozen:.0f} µs "
              f"({bare_unfrozen / echo:.2f}x echo) |")  # fmt: skip
    for flags, code in (("-S", "pass"), ("-s", "import json")):
        print(
            f"| /usr/bin/python3 {flags} -c '{code}' | {command_ms(['/usr/bin/python3', flags, '-c', code]):.1f} ms |"
        )
    for taken in (0, 64):
        print(f"| a series' slot lease and its release, {taken} slots leased ahead | {slot_lease_us(taken):.1f} µs |")


if __name__ == "__main__":
    main()
