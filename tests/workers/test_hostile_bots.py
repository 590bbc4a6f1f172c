"""Hostile bots that abuse resources or the protocol, run through the real sandbox.

Each test runs a two-game series between a bot from ``hostile/`` (player 0,
so it gets the first request) and a well-behaved opponent, and asserts the
forfeit reason the referee records (or that the series completes when the
sandbox simply refuses the abuse). The ``arena`` fixture (conftest.py) checks
the host after every series: no process of the bots' uids left running, no
cgroup left, the referee's canary secret nowhere in the result.
docs/sandbox.md maps each bot to the sandbox layer it tests.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import workers.referee
import workers.sandbox
from workers.referee import CRASH, DECISION_TIMEOUT, LINE_TOO_LONG, MALFORMED_OUTPUT, TIME_BANK, Referee, TimeControl
from workers.slots import lock_name, slot_dir

REPO = Path(__file__).resolve().parents[2]


# -- processes and threads ------------------------------------------------------------------
def test_fork_bomb_is_capped_by_the_pids_limit_and_forfeits(arena) -> None:
    # Sixteen Python processes come close to 64 MB, and the first OOM would end the bot before
    # its time does (test_a_storm_of_memory_hogs...): memory to spare, so only the pids limit bites.
    limits = dataclasses.replace(arena.limits, memory_mb=256)
    series = arena.play("fork_bomb", time_control=arena.short, limits=limits)
    series.assert_forfeit(DECISION_TIMEOUT)
    assert "Resource temporarily unavailable" in series.reports()["fork"]  # EAGAIN: the pids cgroup said no


def test_thread_bomb_gets_fewer_threads_than_the_pids_limit_and_plays_on(arena) -> None:
    series = arena.play("thread_bomb")
    series.assert_completed()
    outcome = series.reports()["threads"]
    assert "can't start new thread" in outcome
    assert 0 < int(outcome.split()[0]) < arena.limits.pids


def test_a_daemon_left_behind_dies_with_the_series(arena) -> None:
    series = arena.play("daemon")
    series.assert_completed()
    assert "left behind" in series.reports()["daemon"]
    # arena.play has checked that no process of the bot's uid survived.


# -- memory ------------------------------------------------------------------------------------
@pytest.mark.parametrize("bot", ["memory_heap", "memory_mmap"])
def test_memory_hog_is_killed_at_the_memory_limit(arena, bot: str) -> None:
    series = arena.play(bot, time_control=arena.short)
    forfeit = series.assert_forfeit(CRASH)
    assert "(memory limit)" in forfeit["detail"]
    mib = [int(outcome.split()[0]) for probe, outcome in series.reports().items() if probe in ("heap", "mmap")]
    assert max(mib, default=0) < arena.limits.memory_mb


@pytest.mark.parametrize(("bot", "probe"), [("memory_tmp", "tmp"), ("memory_shm", "shm")])
def test_filling_tmp_or_shm_stops_at_the_tmpfs_size(arena, bot: str, probe: str) -> None:
    series = arena.play(bot)
    series.assert_completed()
    outcome = series.reports()[probe]
    assert "No space left on device" in outcome
    size = arena.limits.tmp_mb if probe == "tmp" else arena.limits.shm_mb
    assert int(outcome.split()[0]) <= size


def test_a_tmp_larger_than_the_memory_limit_is_still_bounded_by_the_memory_cgroup(arena) -> None:
    # tmpfs pages are charged to the bot's memory cgroup: a generous /tmp cannot hold more than memory_mb.
    limits = dataclasses.replace(arena.limits, tmp_mb=256)
    series = arena.play("memory_tmp", limits=limits)
    if series.forfeits:
        assert "(memory limit)" in series.assert_forfeit(CRASH)["detail"]
    else:
        outcome = series.reports()["tmp"]
        assert int(outcome.split()[0]) < arena.limits.memory_mb, outcome


# -- CPU and the clocks -------------------------------------------------------------------------
def test_cpu_spin_times_out_and_its_cpu_is_bounded(arena) -> None:
    series = arena.play("cpu_spin", time_control=arena.short)
    series.assert_forfeit(DECISION_TIMEOUT)
    # Spinning at most cpu_cores through its first decision (with the start-up allowance) and the exit grace.
    bound = arena.limits.cpu_cores * (arena.start_timeout_ms + arena.short.decision_ms + 500) / 1000 + 0.5
    assert series.cpu_seconds[0] is not None
    assert series.cpu_seconds[0] < bound, series.cpu_seconds


def test_spinning_children_do_not_run_while_the_bot_is_frozen(arena) -> None:
    # The opponent takes 40 ms a move, so the hostile bot spends over a second frozen.
    series = arena.play("cpu_spin_children", "polite_slow")
    series.assert_completed()
    cpu_frozen, wall_frozen = series.frozen[0]
    assert wall_frozen > 0.5
    assert cpu_frozen < 0.1 * wall_frozen, series.frozen
    # All its CPU went into its own decisions (four spinners and the bot share one core's quota).
    on_turn = sum(series.decision_ms(0)) / 1000
    assert series.cpu_seconds[0] < arena.limits.cpu_cores * on_turn + 0.6, (series.cpu_seconds, on_turn)


def test_a_fork_and_exit_runner_does_not_run_while_the_bot_is_frozen(arena) -> None:
    series = arena.play("fork_runner", "polite_slow")
    series.assert_completed()
    cpu_frozen, wall_frozen = series.frozen[0]
    assert wall_frozen > 0.5
    assert cpu_frozen < 0.1 * wall_frozen, series.frozen


def test_slow_answers_empty_the_time_bank(arena) -> None:
    # 200 ms an answer: each under decision_ms, but a 500 ms bank lasts two and a half of them.
    series = arena.play("slow_bank", time_control=TimeControl(decision_ms=300, bank_ms=500))
    series.assert_forfeit(TIME_BANK)
    answered = series.decision_ms(0)
    assert len(answered) >= 2, answered


def test_sleeping_past_the_deadline_while_ignoring_sigterm_times_out_promptly(arena) -> None:
    series = arena.play("sleep_ignore_term", time_control=arena.short)
    series.assert_forfeit(DECISION_TIMEOUT)
    # The referee killed it (SIGKILL, whole cgroup): no waiting on a polite signal it ignores.
    assert series.document["wall_seconds"] < 5


def test_stopping_itself_times_out(arena) -> None:
    series = arena.play("stop_self", time_control=arena.short)
    series.assert_forfeit(DECISION_TIMEOUT)


# -- the pipes ------------------------------------------------------------------------------------
def test_never_reading_stdin_times_out(arena) -> None:
    series = arena.play("no_read", time_control=arena.short)
    series.assert_forfeit(DECISION_TIMEOUT)


@pytest.fixture
def most_buffered(monkeypatch) -> list[int]:
    """The most stdout the referee held for any bot at once, measured after every read."""
    buffered = [0]
    pump = Referee._pump

    def measuring_pump(self: Referee, seat: Any, timeout: float) -> None:
        pump(self, seat, timeout)
        buffered[0] = max(buffered[0], *(len(s.out) for s in self.seats))

    monkeypatch.setattr(workers.referee.Referee, "_pump", measuring_pump)
    return buffered


def test_flooding_stdout_without_a_newline_is_line_too_long_and_not_buffered(arena, most_buffered) -> None:
    series = arena.play("stdout_flood", time_control=arena.short, max_line_bytes=4096)
    series.assert_forfeit(LINE_TOO_LONG)
    # The bot floods on through the exit grace; the referee keeps at most a line and a read's worth.
    assert most_buffered[0] <= 4096 + 65536, most_buffered


def test_flooding_stdout_from_the_start_is_a_forfeit_and_not_buffered(arena, most_buffered) -> None:
    bot = arena.package("stdout_flood", files={"flood_at_start": ""})
    series = arena.play(bot, time_control=arena.short, max_line_bytes=4096)
    # Output before its first request, or, if the request went out before the flood arrived, an
    # endless line: either way that bot's forfeit.
    assert len(series.forfeits) == 1
    assert series.forfeits[0]["player"] == 0
    assert series.forfeits[0]["reason"] in (MALFORMED_OUTPUT, LINE_TOO_LONG)
    assert most_buffered[0] <= 4096 + 65536, most_buffered


def test_flooding_stderr_is_capped_and_the_series_completes(arena) -> None:
    series = arena.play("stderr_flood", stderr_cap_bytes=4096)
    series.assert_completed()
    log = series.document["stderr"][0]
    assert len(log["text"].encode()) == 4096
    assert set(log["text"]) == {"E"}
    assert log["truncated_bytes"] > 0


# -- freezing off turn ----------------------------------------------------------------------------
SLOWER = """
import time

from bots.sdk import run


def choose(observation, legal_actions):
    time.sleep(0.2)
    return legal_actions[0]


run(choose)
"""


def off_and_on_turn_rates(series: Any) -> tuple[float, float]:
    """Return a pondering bot's work per second off turn and on turn, from its ``offturn``/``onturn`` lines.

    The bot's own reckoning: its "off turn" runs from just before it answers to when its next
    ``choose`` starts, so it also holds time its clock runs for (sending the answer, being stopped,
    resumed, reading the next request: with a thinking thread holding the GIL, several ms a turn).
    It is printed as a figure; what the tests hold the bot to is :func:`off_turn_cpu_share`.
    """
    lines = series.document["stderr"][0]["text"].splitlines()
    on = [tuple(map(float, line.split()[1:])) for line in lines if line.startswith("onturn ")]
    off = [tuple(map(float, line.split()[1:])) for line in lines if line.startswith("offturn ")]
    assert on, lines[:10]
    assert off, lines[:10]
    on_rate = sum(count for count, _ in on) / sum(seconds for _, seconds in on)
    off_rate = sum(count for count, _ in off) / sum(seconds for _, seconds in off)
    return off_rate, on_rate


def off_turn_cpu_share(series: Any, player: int = 0) -> float:
    """Return the processor time ``player``'s bot used while its clock did not run, over that wall time.

    Off turn is from the moment the referee has stopped the bot after its answer (or left it
    blocked reading its stdin, when nothing but the referee can wake it) until it resumes it for
    the next request: every other moment is charged to the bot's own clock (workers/referee.py,
    DecisionClock). Measured by the bot's cgroup (the arena fixture), whatever the machine's load.
    """
    cpu, wall = series.frozen[player]
    assert wall > 0.5, series.frozen
    return cpu / wall


def test_children_that_sigcont_one_another_make_no_progress_off_turn(arena) -> None:
    opponent = arena.package("polite_slow", files={"main.py": SLOWER})  # 200 ms a move: long off-turn spells
    series = arena.play("sigcont_ring", opponent)
    series.assert_completed()
    off_rate, on_rate = off_and_on_turn_rates(series)
    assert on_rate > 1000, f"the ring did not run on turn: {on_rate:.0f} increments/s"
    # Unfrozen, the ring would use its whole core quota off turn (100 %).
    share = off_turn_cpu_share(series)
    print(f"sigcont ring: {share:.1%} of a core off turn; by its own count {off_rate:.0f}/s off, {on_rate:.0f}/s on")
    assert share < 0.05, series.frozen


@pytest.mark.parametrize(
    "hostile",
    [
        "pondering_thread",  # its main thread blocks reading the next request, which alone would leave it unfrozen
        "socket_stdin",  # mostly blocked in read(0, ...) off turn, but on a socket that wakes it every millisecond
    ],
)
def test_a_bot_that_only_looks_like_it_waits_makes_no_progress_off_turn(arena, hostile: str) -> None:
    opponent = arena.package("polite_slow", files={"main.py": SLOWER})
    series = arena.play(hostile, opponent)
    series.assert_completed()
    off_rate, on_rate = off_and_on_turn_rates(series)
    assert on_rate > 1000, f"it did not run on turn: {on_rate:.0f} increments/s"
    share = off_turn_cpu_share(series)
    print(f"{hostile}: {share:.1%} of a core off turn; by its own count {off_rate:.0f}/s off, {on_rate:.0f}/s on")
    assert share < 0.05, series.frozen


SLOW_FIRST_MOVE = """
import time

from bots.sdk import run

moves = 0


def choose(observation, legal_actions):
    global moves
    moves += 1
    if len(observation["history"]) <= 1:  # its first move of each game
        time.sleep(1.0)
    return legal_actions[0]


run(choose)
"""


def test_a_bot_woken_by_game_start_or_game_over_thinks_on_its_own_clock(arena) -> None:
    # It thinks after each game_start and game_over until its next request is there to read. Those
    # messages are written while it is stopped: it cannot think through the opponent's first move of
    # the next game (1 s here), only once resumed for its own request, whose clock is then running.
    opponent = arena.package("polite_slow", files={"main.py": SLOW_FIRST_MOVE})
    series = arena.play("gameover_ponder", opponent, games=4)
    series.assert_completed()
    share = off_turn_cpu_share(series)
    notices = [
        tuple(map(float, line.split()[1:])) for line in series.stderr().splitlines() if line.startswith("notice ")
    ]
    print(f"gameover_ponder: {share:.1%} of a core off turn; pondered {[round(s, 3) for _, s in notices]} s")
    assert share < 0.05, series.frozen
    # Games 2 and 4 open with the opponent's 1 s move: woken by game_over, it would have thought through it.
    assert len(notices) == 4, notices
    assert all(seconds < 0.5 for _, seconds in notices), notices


def test_a_bot_does_its_start_up_work_on_its_own_clock(arena) -> None:
    # It works for a second before reading anything, as player 1: seat 1 in game 1, so the opponent's
    # first move (1 s) comes before its first request. It is held, whole, from its start.
    opponent = arena.package("polite_slow", files={"main.py": SLOW_FIRST_MOVE})
    series = arena.play("startup_ponder", opponent, hostile_player=1)
    series.assert_completed()
    share = off_turn_cpu_share(series, player=1)
    print(f"startup_ponder: {share:.1%} of a core off turn")
    assert share < 0.05, series.frozen
    first = next(a for a in series.document["games"][0]["actions"] if a["seat"] == 1)
    assert first["ms"] >= 400, first  # its second of work, past the start-up allowance, on its own bank


def test_timers_that_would_wake_a_waiting_bot_off_turn_are_refused(arena) -> None:
    opponent = arena.package("polite_slow", files={"main.py": SLOWER})
    series = arena.play("timer_ponder", opponent)
    series.assert_completed()
    assert {probe: outcome.split()[0] for probe, outcome in series.reports().items()} == {
        "setitimer": "refused",
        "alarm": "refused",
        "timer_create": "refused",
    }
    off_rate, _ = off_and_on_turn_rates(series)
    assert off_rate == 0


def test_signal_driven_io_that_would_wake_a_waiting_bot_off_turn_cannot_be_armed(arena) -> None:
    # With O_ASYNC and itself as owner on its stderr pipe, each read the referee makes of that pipe
    # would send the waiting bot SIGIO. Before the filter said no: in the turns it was seen waiting
    # (7 to 12 of 27) it worked through the whole of the opponent's turn, 1.7 to 2.8 s in a series.
    opponent = arena.package("polite_slow", files={"main.py": SLOWER})
    series = arena.play("sigio_ponder", opponent)
    series.assert_completed()
    arming = (
        "fcntl F_SETOWN",
        "fcntl F_SETOWN_EX",
        "fcntl F_SETSIG",
        "fcntl F_SETFL O_ASYNC",
        "ioctl FIOASYNC",
        "ioctl FIOSETOWN",
        "ioctl SIOCSPGRP",
        "fcntl F_SETOWN upper bits",
        "fcntl F_SETFL O_ASYNC upper bits",
        "ioctl FIOASYNC upper bits",
        "seccomp filter",
        "pidfd_open",
    )
    assert series.reports() == dict.fromkeys(arming, "refused (EPERM)")
    off_rate, on_rate = off_and_on_turn_rates(series)
    print(f"sigio ponder: {off_rate:.0f} increments/s off turn, {on_rate:.0f}/s on turn")
    assert on_rate > 1000, f"it did not run on turn: {on_rate:.0f} increments/s"
    assert off_rate == 0


def first_answer(arena, name: str) -> workers.sandbox.BotProcess:
    """Start ``hostile/<name>`` in the sandbox, have it answer one request, and stop and resume it once."""
    import engines
    from workers.sandbox import Limits, python_bot_command, shared_staging, start_bot

    package = arena.package(name)
    staging = shared_staging()
    bot_dir = staging.add_bot(package.directory, package.sha256)
    bot = start_bot(
        python_bot_command(package.entry), bot_dir, runtime_dir=staging.runtime, limits=Limits(),
        slot=arena.slot * 8, uid_base=arena.uid_base,  # player 0 of the test's leased slot
    )  # fmt: skip
    state = engines.get("watch").new_initial_state()
    start = {"type": "start", "protocol": 2, "game": "watch", "rules_version": "1", "player": 0,
             "num_players": 2, "games": 1, "seed": 1, "config": {}, "time_control": {}}  # fmt: skip
    clock = {"decision_ms": 2000, "bank_ms": 9e3}
    request = {"type": "request", "game_index": 0, "observation": state.observation(0),
               "legal_actions": state.legal_actions(), "clock": clock}  # fmt: skip
    assert bot.popen.stdin is not None
    assert bot.popen.stdout is not None
    bot.popen.stdin.write(json.dumps(start).encode() + b"\n" + json.dumps(request).encode() + b"\n")
    bot.popen.stdin.flush()
    assert json.loads(bot.popen.stdout.readline())["action"] in state.legal_actions()
    bot.freeze()  # the referee's first freeze: learns bubblewrap's own processes
    bot.thaw()
    return bot


def test_a_bot_blocked_reading_its_next_request_is_seen_waiting_and_a_bot_with_a_thinking_thread_never(
    arena,
) -> None:
    # Freezing is skipped for a bot that cannot run before its next request; waiting_for_referee
    # decides it. Looked at until the bot has reached its read (a busy machine may take a while).
    polite = first_answer(arena, "polite")
    try:
        deadline = time.monotonic() + 10
        while not polite.waiting_for_referee():
            assert time.monotonic() < deadline, "a polite bot never seemed to wait for its next request"
            time.sleep(0.01)
        assert all(polite.waiting_for_referee() for _ in range(20))  # blocked: it stays so
        polite.freeze()
        assert not polite.frozen  # nothing to stop
    finally:
        polite.kill()
    pondering = first_answer(arena, "pondering_thread")
    try:
        looks = []
        for _ in range(50):
            looks.append(pondering.waiting_for_referee())
            time.sleep(0.01)
        assert not any(looks)  # a second task: never passes for waiting
        pondering.freeze()
        assert pondering.frozen
    finally:
        pondering.kill()


def test_the_time_to_stop_and_resume_a_bot_is_charged_to_that_bot(arena, monkeypatch) -> None:
    # A slow freeze stands for a process tree built to make stopping it slow: the bot pays for it.
    real = workers.sandbox.BotProcess.freeze

    def slow_freeze(self, force: bool = False) -> None:
        busy = time.thread_time() + 0.03  # the referee's own work, as stopping a resisting tree is
        while time.thread_time() < busy:
            pass
        real(self, force=force)

    monkeypatch.setattr(workers.sandbox.BotProcess, "freeze", slow_freeze)
    series = arena.play("polite")
    series.assert_completed()
    game = series.document["games"][0]
    bank = {seat: float(series.document["time_control"]["bank_ms"]) for seat in (0, 1)}
    for action in game["actions"]:
        if action["seat"] is None:
            continue
        charged = bank[action["seat"]] - action["bank_ms"]
        assert charged >= 29.5, (action, charged)  # the 30 ms its freeze took, on top of its thinking
        bank[action["seat"]] = action["bank_ms"]


# -- answers and logs that must not break the referee or the record ---------------------------------
@pytest.mark.parametrize(("bot", "says"), [("deep_json", "nested too deep"), ("huge_int", "not JSON")])
def test_an_answer_the_parser_chokes_on_is_that_bots_forfeit_not_a_voided_series(arena, bot: str, says: str) -> None:
    series = arena.play(bot)
    forfeit = series.assert_forfeit(MALFORMED_OUTPUT)
    assert says in forfeit["detail"]
    assert series.document["score"] is not None  # the series has a result: the other bot wins it


def test_nul_controls_escapes_and_bidi_controls_in_stderr_never_reach_the_record(arena) -> None:
    series = arena.play("stderr_escapes")
    series.assert_completed()
    text = series.document["stderr"][0]["text"]
    assert "before\ufffdnul red  bell\ufffd del\ufffd back\ufffd tab\tafter\n" in text
    assert "rtl \ufffdgol eht\ufffd iso \ufffdx\ufffd marks \ufffd\ufffd\ufffd\n" in text  # nothing reads backwards
    assert not any(ord(char) < 32 and char not in "\t\n" for char in text)
    assert "\x1b" not in text
    assert "pwned" not in text
    assert "\\u0000" not in json.dumps(series.document)  # what PostgreSQL's jsonb refuses


# -- the host's own processes ---------------------------------------------------------------------
def test_no_zombie_is_left_to_the_host_init(arena) -> None:
    """Bubblewrap's monitor exits without reaping the sandbox's pid 1; the worker must reap it.

    Left to the host's init, these zombies of the slot's uid pile up when series
    run back to back (or for good, under an init that never reaps) until
    RLIMIT_NPROC (pids + 4) refuses every new bot: "bwrap: Can't fork for pid 1",
    recorded as the bot's crash.
    """
    arena.play("daemon")
    zombies = [str(p) for p in arena.processes_of(arena.uids()) if p.zombie]
    assert not zombies, f"zombies of the bots' uids left for the host's init: {zombies}"


def test_back_to_back_series_do_not_run_out_of_processes(arena) -> None:
    limits = dataclasses.replace(arena.limits, pids=4)  # RLIMIT_NPROC 8: two leaked zombies a series would show
    for _ in range(6):
        arena.play("polite", limits=limits).assert_completed()


def test_a_bot_frozen_while_bubblewrap_is_still_starting_gets_to_run(arena, monkeypatch) -> None:
    """Regression: the first freeze could stop the sandbox's pid 1 before it was known, for good.

    BotProcess spares bubblewrap's own processes when it freezes; it learns them
    from the monitor's children. If the monitor forks pid 1 just after that look
    (a preemption is enough), pid 1 is stopped with the bot and must be
    continued with it, or the bot never starts and forfeits by decision_timeout.
    """
    children = workers.sandbox._children
    looked: set[int] = set()

    def a_moment_too_early(pid: int) -> list[int]:
        if pid in looked:
            return children(pid)
        looked.add(pid)
        deadline = time.monotonic() + 2
        while not children(pid) and time.monotonic() < deadline:
            time.sleep(0.001)  # the monitor forks its pid 1 meanwhile...
        return []  # ...but the caller saw no child

    monkeypatch.setattr(workers.sandbox, "_children", a_moment_too_early)
    arena.play("polite").assert_completed()


RUNNER = textwrap.dedent(
    """
    import json, sys
    sys.path[:0] = [sys.argv[1]]
    from pathlib import Path
    import workers.sandbox
    from workers.botpkg import load_bot_package
    from workers.referee import SeriesSpec, TimeControl, run_series
    from workers.sandbox import Limits, shared_staging
    from workers.slots import lease_slot

    print(json.dumps(str(shared_staging().root)), flush=True)
    create = workers.sandbox.create_bot_cgroup

    def reporting_create(*args, **kwargs):
        group = create(*args, **kwargs)
        print(json.dumps([str(d) for d in group.dirs.values()]), flush=True)
        return group

    workers.sandbox.create_bot_cgroup = reporting_create
    hostile, work, slot, uid_base = Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    bots = [load_bot_package(hostile / name, work) for name in sys.argv[6].split(",")]
    lease = lease_slot(slot, uid_base)  # never released: the kernel drops it with this process
    print(json.dumps(lease.slot), flush=True)
    run_series(SeriesSpec(
        bots=bots, sandbox="bwrap", slot=lease.slot, uid_base=uid_base,
        time_control=TimeControl(decision_ms=60000, bank_ms=120000),
        limits=Limits(memory_mb=64, pids=16, tmp_mb=8, shm_mb=8),
    ), slot_lease=lease)
    """
)


@pytest.mark.parametrize(
    "order",
    [
        "daemon,cpu_spin",  # the daemon bot has played its first move and sits frozen with its daemon
        "cpu_spin,daemon",  # the daemon bot has had no request yet: it was stopped while its sandbox started
    ],
)
def test_killing_the_runner_mid_series_kills_every_bot_process(arena, tmp_path: Path, order: str) -> None:
    """SIGKILL the referee while one bot spins in its decision and the other sits frozen."""
    runner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            RUNNER,
            *map(str, (REPO, arena.hostile_dir, tmp_path, arena.slot, arena.uid_base, order)),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    cgroup_dirs: list[str] = []
    staging = json.loads(runner.stdout.readline())  # type: ignore[union-attr]
    # The runner leases a slot of its own (this test holds arena.slot): its bots' uids are that slot's.
    runner_slot = json.loads(runner.stdout.readline())  # type: ignore[union-attr]
    uids = arena.uids_of(runner_slot)
    daemon_uid, spinner_uid = uids if order.startswith("daemon") else uids[::-1]
    # Wait for the runner's lease: when the kernel drops it with the killed runner, the slot passes
    # to this test, so no other series (another copy of the suite) runs bots at its uids meanwhile.
    lock = os.open(slot_dir() / lock_name(arena.uid_base + runner_slot * 8), os.O_RDONLY | os.O_CLOEXEC)
    taken = threading.Thread(target=fcntl.flock, args=(lock, fcntl.LOCK_EX), daemon=True)
    taken.start()
    try:
        for _ in range(2):
            cgroup_dirs += json.loads(runner.stdout.readline())  # type: ignore[union-attr]
        # Wait for: the daemon bot (bwrap twice, the bot, its daemon; before its first request, at least
        # bubblewrap) and the spinner running its decision.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            processes = arena.processes_of([daemon_uid, spinner_uid])
            daemon_side = [p for p in processes if p.uid == daemon_uid and not p.zombie]
            spinning = [p for p in processes if p.uid == spinner_uid and p.state.startswith("R")]
            if len(daemon_side) >= (4 if order.startswith("daemon") else 1) and spinning:
                break
            time.sleep(0.05)
        else:
            pytest.fail(f"the series did not get going: {[str(p) for p in arena.processes_of(uids)]}")
    finally:
        runner.kill()
        runner.wait()
        runner.stdout.close()  # type: ignore[union-attr]
    taken.join(timeout=30)
    assert not taken.is_alive(), "the killed runner's slot lease was never given back"
    survivors = arena.wait_no_survivors(uids, timeout=5)
    assert not survivors, f"bot processes outlived their runner: {[str(p) for p in survivors]}"
    arena.reap_own_zombies(uids)  # the runner's orphans come to this process when it is a subreaper
    # Nobody is left to remove the runner's cgroups and staging area (docs/sandbox.md):
    # the cgroups must at least be empty. Clean up after it.
    shutil.rmtree(staging, ignore_errors=True)
    for directory in cgroup_dirs:
        if os.path.isdir(directory):
            with open(os.path.join(directory, "cgroup.procs")) as handle:
                assert handle.read().split() == [], directory
            os.rmdir(directory)
    os.close(lock)  # gives the slot back


@pytest.fixture
def same_uid_process(arena) -> Any:
    """A host process with the hostile bot's uid (outside its sandbox), stopped after the test."""
    uid = arena.uids()[0]

    def become_bot_uid() -> None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)

    process = subprocess.Popen(["sleep", "60"], preexec_fn=become_bot_uid, start_new_session=True)
    yield process
    process.send_signal(signal.SIGKILL)
    process.wait()


def test_killing_its_parent_and_every_process_harms_nothing_outside(arena, same_uid_process) -> None:
    bot = arena.package("kill_all", targets={"host_pid": same_uid_process.pid})
    series = arena.play(bot, spare=[same_uid_process.pid])
    series.assert_completed()  # its sandbox's pid 1 survived the SIGKILL, and so did the bot
    reports = series.reports()
    assert reports["parent"] == "1"  # its parent is the sandbox's own init, never the referee
    assert reports["kill host pid"].startswith("ProcessLookupError"), reports
    assert reports["pids left"] == "OK [1, 2]", reports  # only the sandbox's init and itself exist
    assert same_uid_process.poll() is None, "a process outside the sandbox, of the same uid, was killed"


def kernel_log_lines() -> int:
    return len(subprocess.run(["dmesg"], capture_output=True, check=True).stdout.splitlines())


def test_a_storm_of_memory_hogs_ends_at_its_first_oom_and_leaves_the_kernel_log_alone(arena) -> None:
    before = kernel_log_lines()
    series = arena.play("oom_storm", time_control=arena.short)
    forfeit = series.assert_forfeit(CRASH)
    assert "(memory limit)" in forfeit["detail"]
    # The bot is killed whole when its cgroup first runs out of memory: at most one kernel
    # report (cgroup v2's memory.oom.group) and none with v1's oom_kill_disable.
    assert kernel_log_lines() - before < 120, kernel_log_lines() - before
