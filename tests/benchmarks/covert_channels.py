"""Benchmark: how much two bots of one series can tell each other through what the sandbox still shares.

Run as root: ``.venv/bin/python tests/benchmarks/covert_channels.py`` (``--rounds 8`` for a
quicker run). Figures and the command are in docs/sandbox.md ("What the two bots of a series
share"). Two channels, each between two bots in production sandboxes, taking turns as in a
series (the one off turn is frozen):

* **the page cache of the runtime's files.** Every bot sees the same read-only standard
  library, so the same cached pages. On its turn the sender reads the first byte of file *i*
  of an agreed list for a 1 and leaves it for a 0; on its own turn the receiver times its own
  read of each file: a page read from the disk is slow, one from the cache is fast. mincore,
  fadvise, readahead and cachestat are refused (docs/sandbox.md), so timing is what is left.
  The host's caches are dropped first (``/proc/sys/vm/drop_caches``, the worst case: a
  freshly booted worker or one under memory pressure); each bit uses up a file (it is cached
  afterwards), so the figure is also a budget per host, not only a rate.
* **how long the other thinks**, through the referee itself: a real series; on each move
  the sender thinks ``value * step`` ms for a 4-bit value, and the receiver times, by its
  own monotonic clock, the span from its answer to its next request (protocol 1 showed every
  seat's bank in each request; protocol 2 shows a bot its own only, so this span is what is
  left). It costs the sender its own time.
* **the kernel's inode counter** (``get_next_ino``): pipes, unix sockets and the inodes of
  ``/proc`` take their numbers from it, each CPU from a batch of 1,024 of its own. Two
  receivers: *same CPU*, where the sender makes ``value`` pipes (an 8-bit value) and the
  receiver makes one and reads its inode number (its CPU's batch shows exactly what the
  sender took when both ran on that CPU), and *batches*, where the sender makes ``value``
  times 1,024 pipes (a 3-bit value) and the receiver makes pipes until it starts a new
  batch: where the batch starts is the host-wide counter, whatever CPU anyone ran on.
  ``--pin`` puts the two bots on two different CPUs (not done in production), to show what
  that would leave.

It prints, per channel, the bits sent, the error rate, the bits per turn and per second,
and the capacity after errors (bits × (1 − H(error rate)); for a value of *b* bits with
symbol error rate *p*, *b* − H(*p*) − *p* log2(2^*b* − 1) a turn).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from workers.botpkg import load_bot_package  # noqa: E402
from workers.referee import SeriesSpec, TimeControl, run_series  # noqa: E402
from workers.sandbox import Limits, python_bot_command, shared_staging, start_bot  # noqa: E402
from workers.slots import UIDS_PER_SLOT, lease_slot  # noqa: E402

PAGE_CACHE_AGENT = """
import os, sys, time
stdlib = os.path.dirname(os.__file__)
files = sorted(
    os.path.join(root, name)
    for root, dirs, names in os.walk(stdlib)
    if root != stdlib and "__pycache__" not in root
    for name in names
    if name.endswith(".py")
)
print(f"ready {len(files)}", flush=True)
for line in sys.stdin:
    command, start, payload = line.split()
    start = int(start)
    if command == "send":
        for offset, bit in enumerate(payload):
            if bit == "1":
                with open(files[start + offset], "rb") as handle:
                    handle.read(1)
        print("ok", flush=True)
    else:
        times = []
        for offset in range(int(payload)):
            began = time.perf_counter_ns()
            with open(files[start + offset], "rb") as handle:
                handle.read(1)
            times.append((time.perf_counter_ns() - began) // 1000)
        print(" ".join(map(str, times)), flush=True)
"""

INODE_AGENT = """
import os, sys
print("ready", flush=True)


def pipe_inode():
    read, write = os.pipe()
    number = os.fstat(read).st_ino
    os.close(read)
    os.close(write)
    return number


last_batch = None
for line in sys.stdin:
    command, value = line.split()
    if command == "send":
        for _ in range(int(value)):
            pipe_inode()
        print("ok", flush=True)
    elif command == "read":  # the inode number of a new pipe: this CPU's batch
        print(pipe_inode(), flush=True)
    else:  # the start of the next batch this CPU takes: the host-wide counter, in batches
        made = 1
        number = pipe_inode()
        while number % 1024 != 1:
            number = pipe_inode()
            made += 1
        print(number // 1024, made, flush=True)
"""

CLOCK_SENDER = """
import json, random, sys, time
values = random.Random(SEED)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "request":
        began = time.monotonic()
        value = values.randrange(16)
        time.sleep(value * STEP / 1000)
        print(f"sent {began:.6f} {value}", file=sys.stderr, flush=True)
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""

CLOCK_RECEIVER = """
import json, sys, time
answered = None
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "request":
        now = time.monotonic()
        if answered is not None:
            print(f"gap {answered:.6f} {now:.6f}", file=sys.stderr, flush=True)
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
        answered = time.monotonic()
"""


def package(work: Path, name: str, code: str):  # type: ignore[no-untyped-def]
    folder = work / name
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "{name}"\nentry = "main.py"\n')
    (folder / "main.py").write_text(code)
    return load_bot_package(folder, work / "unpacked")


def binary_entropy(p: float) -> float:
    return 0.0 if p in (0.0, 1.0) else -(p * math.log2(p) + (1 - p) * math.log2(1 - p))


def page_cache_channel(work: Path, rounds: int, bits: int) -> dict[str, float]:
    subprocess.run(["sync"], check=True)
    Path("/proc/sys/vm/drop_caches").write_text("3")
    agent = package(work, "agent", PAGE_CACHE_AGENT)
    staging = shared_staging()
    bot_dir = staging.add_bot(agent.directory, agent.sha256)
    lease = lease_slot()  # the two bots' uids, as a referee leases them
    first_uid = lease.slot * UIDS_PER_SLOT
    command = python_bot_command("main.py")
    bots = [
        start_bot(command, bot_dir, runtime_dir=staging.runtime, limits=Limits(), slot=first_uid + seat)
        for seat in (0, 1)
    ]
    try:
        available = [int(bot.popen.stdout.readline().split()[1]) for bot in bots]  # type: ignore[union-attr]
        rounds = min(rounds, available[0] // bits)
        sender, receiver = bots
        rng = random.Random(7)
        sent = errors = 0
        turn_seconds = 0.0
        for index in range(rounds):
            message = "".join(rng.choice("01") for _ in range(bits))
            began = time.perf_counter()
            receiver.freeze()
            sender.thaw()
            sender.popen.stdin.write(f"send {index * bits} {message}\n".encode())  # type: ignore[union-attr]
            sender.popen.stdin.flush()  # type: ignore[union-attr]
            sender.popen.stdout.readline()  # type: ignore[union-attr]
            sender.freeze()
            receiver.thaw()
            receiver.popen.stdin.write(f"recv {index * bits} {bits}\n".encode())  # type: ignore[union-attr]
            receiver.popen.stdin.flush()  # type: ignore[union-attr]
            times = [int(t) for t in receiver.popen.stdout.readline().split()]  # type: ignore[union-attr]
            turn_seconds += time.perf_counter() - began
            threshold = 4 * min(times)  # a cached read is the fastest there is; a disk read is many times slower
            received = "".join("1" if t <= threshold else "0" for t in times)
            sent += bits
            errors += sum(a != b for a, b in zip(message, received, strict=True))
    finally:
        for bot in bots:
            bot.kill()
        lease.release()
    rate = errors / sent
    return {
        "bits": sent,
        "error": rate,
        "per_turn": bits,
        "per_second": sent / turn_seconds,
        "capacity": sent * (1 - binary_entropy(rate)),
        "budget": available[0],
    }


def symbol_capacity(bits: int, error: float) -> float:
    """Bits a turn carries when each turn sends one of 2**bits values and a share ``error`` arrives wrong."""
    if error <= 0:
        return float(bits)
    return max(0.0, bits - binary_entropy(error) - error * math.log2(2**bits - 1))


def inode_channel(work: Path, rounds: int, receiver: str, pin: bool) -> dict[str, float]:
    """Send values through the inode counter between two sandboxed bots taking turns; see the module docstring."""
    agent = package(work, f"inode-{receiver.replace(' ', '-')}-{int(pin)}", INODE_AGENT)
    staging = shared_staging()
    bot_dir = staging.add_bot(agent.directory, agent.sha256)
    bots = [
        start_bot(python_bot_command("main.py"), bot_dir, runtime_dir=staging.runtime, limits=Limits(), slot=seat)
        for seat in (0, 1)
    ]
    bits, unit, command = (8, 1, "read") if receiver == "same CPU" else (3, 1024, "batch")
    try:
        for bot in bots:
            bot.popen.stdout.readline()  # type: ignore[union-attr]
        if pin:
            for cpu, bot in enumerate(bots):
                for pid in bot.cgroup.pids() if bot.cgroup is not None else [bot.pid]:
                    os.sched_setaffinity(pid, {cpu % os.cpu_count()})  # type: ignore[operator]
        sender, reader = bots

        def ask(bot, line: str) -> str:  # type: ignore[no-untyped-def]
            bot.thaw()
            bot.popen.stdin.write(line.encode())
            bot.popen.stdin.flush()
            answer = bot.popen.stdout.readline().decode()
            bot.freeze()
            return answer

        sender.freeze()
        reader.freeze()
        rng = random.Random(5)
        previous = int(ask(reader, f"{command} 0\n").split()[0])
        wrong = 0
        began = time.perf_counter()
        for _ in range(rounds):
            value = rng.randrange(2**bits)
            ask(sender, f"send {value * unit}\n")
            now = int(ask(reader, f"{command} 0\n").split()[0])
            # Same CPU: the reader's own pipe is one number. Batches: its own batch is one.
            decoded = now - previous - 1
            previous = now
            wrong += decoded != value
        elapsed = time.perf_counter() - began
    finally:
        for bot in bots:
            bot.kill()
    error = wrong / rounds
    return {
        "values": rounds,
        "bits": bits,
        "error": error,
        "per_second": rounds * bits / elapsed,
        "capacity": rounds * symbol_capacity(bits, error),
    }


def clock_channel(work: Path, games: int, step_ms: int) -> dict[str, float]:
    seed = 11
    sender = package(work, "sender", CLOCK_SENDER.replace("SEED", str(seed)).replace("STEP", str(step_ms)))
    receiver = package(work, "receiver", CLOCK_RECEIVER)
    spec = SeriesSpec(bots=[sender, receiver], games=games, time_control=TimeControl(bank_ms=600_000))
    began = time.perf_counter()
    document = run_series(spec)
    elapsed = time.perf_counter() - began
    # Each span from one of the receiver's answers to its next request is compared with what the
    # sender meant, where exactly one sender move fell in between. The receiver calibrates as a
    # real one would: the shortest span it saw is a value of 0.
    sent = [tuple(map(float, line.split()[1:])) for line in document["stderr"][0]["text"].splitlines()
            if line.startswith("sent ")]  # fmt: skip
    spans = []
    for line in document["stderr"][1]["text"].splitlines():
        if line.startswith("gap "):
            answered, asked = map(float, line.split()[1:])
            between = [int(value) for began, value in sent if answered < began < asked]
            if len(between) == 1:
                spans.append(((asked - answered) * 1000, between[0]))
    floor = min((span for span, _ in spans), default=0.0)
    decoded = [(min(15, max(0, round((span - floor) / step_ms))), value) for span, value in spans]
    wrong = sum(guess != value for guess, value in decoded)
    rate = wrong / max(1, len(decoded))
    return {
        "values": len(decoded),
        "error": rate,
        "per_turn": 4,
        "per_second": 4 * len(decoded) / elapsed,
        "capacity": 4 * len(decoded) * (1 - binary_entropy(min(rate, 0.5))),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", default="page,clock,inode", help="which to measure, comma-separated")
    parser.add_argument("--rounds", type=int, default=16, help="page-cache rounds of --bits bits")
    parser.add_argument("--bits", type=int, default=64)
    parser.add_argument("--step-ms", type=int, default=3, help="clock channel: ms per unit of the sent value")
    parser.add_argument("--games", type=int, default=10, help="clock channel: games in the series")
    parser.add_argument("--inode-rounds", type=int, default=200, help="inode counter: values sent per receiver")
    parser.add_argument("--pin", action="store_true", help="inode counter: the two bots on two different CPUs")
    args = parser.parse_args()
    channels = args.channels.split(",")
    found: dict[str, object] = {}
    rows = []
    with tempfile.TemporaryDirectory(prefix="arena-covert-") as work:
        if "page" in channels:
            page = found["page_cache"] = page_cache_channel(Path(work), args.rounds, args.bits)
            rows.append(
                f"| page cache of the runtime (cold host) | {page['bits']} bits | {page['error']:.1%} "
                f"| {page['per_turn']} | {page['per_second']:,.0f} | {page['capacity']:,.0f} bits |"
            )
        if "clock" in channels:
            clock = found["clock"] = clock_channel(Path(work), args.games, args.step_ms)
            rows.append(
                f"| how long the other thinks ({args.step_ms} ms steps) | {clock['values']} values of 4 bits "
                f"| {clock['error']:.1%} | 4 | {clock['per_second']:,.0f} | {clock['capacity']:,.0f} bits |"
            )
        if "inode" in channels:
            for receiver in ("same CPU", "batches"):
                inode = found[f"inode {receiver}"] = inode_channel(Path(work), args.inode_rounds, receiver, args.pin)
                where = ", bots on two CPUs" if args.pin else ""
                rows.append(
                    f"| inode counter, {receiver}{where} | {inode['values']} values of {inode['bits']} bits "
                    f"| {inode['error']:.1%} | {inode['bits']} | {inode['per_second']:,.0f} "
                    f"| {inode['capacity']:,.0f} bits |"
                )
    print("| channel | sent | error rate | bits per turn | bits/s while sending | capacity after errors |")
    print("|---|---:|---:|---:|---:|---:|")
    print("\n".join(rows))
    if "page_cache" in found:
        budget = found["page_cache"]["budget"]  # type: ignore[index]
        print(f"\npage cache budget: {budget} files of the standard library's packages, one bit each per host")
    print(json.dumps(found))


if __name__ == "__main__":
    main()
