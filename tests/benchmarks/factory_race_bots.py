"""Benchmark: the factory race reference bots against each other, and random play's speed.

Run: ``.venv/bin/python tests/benchmarks/factory_race_bots.py --games 60``. In
both modes (base and «Вызов») it plays ``--games`` games of each pairing in
process: ``heuristic`` against ``random`` (one heuristic among 2, 3 and 4
players) and ``search`` against ``heuristic`` (one search bot among 2 and 3
players). The focal bot's seat rotates game by game, so it sits in every seat
(and runs every factory) equally often; chance comes from a generator seeded
per game. It prints a Markdown table: the focal bot's share of the wins (a
shared win counts in part) with its 95 % Wilson interval, what a fair share
would be, the mean rounds, how games ended and the focal bot's time per
decision. Then random play through the public API (``legal_actions`` and the
fast ``apply_action`` at every decision, ``resolve_chance`` for chance) in
games and decisions a second, beside a bare loop: the same decisions replayed
from a recorded list (what any engine must at least cost: choosing from a
list and appending), on one core.

The output, with the command and date, is recorded in docs/bots.md and
docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engines
from bots.policy import load_policy

#: (focal bot, the others' bot, player counts)
PAIRINGS = (("heuristic", "random", (2, 3, 4)), ("search", "heuristic", (2, 3)))
MODES = ("base", "challenge")


def play_game(focal: str, other: str, num_players: int, index: int, mode: str) -> dict[str, Any]:
    """Play game ``index``: ``focal`` in seat ``index % num_players``, ``other`` elsewhere."""
    seat = index % num_players
    names = [focal if s == seat else other for s in range(num_players)]
    policies = [load_policy("factory_race", name, seed=index * 10 + s) for s, name in enumerate(names)]
    rng = random.Random(index)
    state = engines.get("factory_race").new_initial_state(seed=index, num_players=num_players, config={"mode": mode})
    thinking = 0.0
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
            continue
        player = state.current_player()
        started = time.perf_counter()
        action = policies[player].choose(state.observation(player), state.legal_actions())
        if player == seat:
            thinking += time.perf_counter() - started
            decisions += 1
        state.apply_checked(action)
    winners = state.winners
    return {
        "share": (1 / len(winners)) if seat in winners else 0.0,
        "rounds": state.round,
        "reason": state.reason,
        "ms": 1000 * thinking / max(1, decisions),
    }


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def bot_rows(games: int) -> list[str]:
    rows = [
        "| mode | focal bot v others | players | games | focal win share (95 % interval) | fair share "
        "| mean rounds | ended: assembled / tie-break / shared / round limit | focal ms per decision |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    for mode in MODES:
        for focal, other, counts in PAIRINGS:
            for num_players in counts:
                played = [play_game(focal, other, num_players, index, mode) for index in range(games)]
                share = sum(game["share"] for game in played)
                low, high = wilson(share, games)
                reasons = collections.Counter(game["reason"] for game in played)
                capped = reasons["round_cap"] + reasons["round_cap_tie_break"]
                rows.append(
                    f"| {mode} | {focal} v {other} | {num_players} | {games} | {share / games:.0%} "
                    f"({low:.0%}–{high:.0%}) | {1 / num_players:.0%} "
                    f"| {sum(g['rounds'] for g in played) / games:.1f} "
                    f"| {reasons['assembled']} / {reasons['tie_break']} / {reasons['shared']} / {capped} "
                    f"| {sum(g['ms'] for g in played) / games:.1f} |"
                )
                print(rows[-1], file=sys.stderr, flush=True)
    return rows


def random_play(num_players: int, seconds: float) -> tuple[float, float, list[list[int]]]:
    """Return (games/s, decisions/s, the decisions' legal lists' sizes per game) of random play through the API."""
    game = engines.get("factory_race")
    rng = random.Random(1)
    games = decisions = 0
    recorded: list[list[int]] = []
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state(num_players=num_players)
        sizes = []
        while not state.is_terminal():
            if state.is_chance_node():
                engines.resolve_chance(state, rng)
            else:
                legal = state.legal_actions()
                sizes.append(len(legal))
                state.apply_action(rng.choice(legal))
                decisions += 1
        recorded.append(sizes)
        games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, decisions / elapsed, recorded


def bare_loop(recorded: list[list[int]], seconds: float) -> tuple[float, float]:
    """Return (games/s, decisions/s) of the yardstick: each recorded decision chosen from a list of its size."""
    rng = random.Random(1)
    lists = {size: list(range(size)) for sizes in recorded for size in sizes}
    games = decisions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for sizes in recorded:
            history: list[int] = []
            for size in sizes:
                history.append(rng.choice(lists[size]))
            decisions += len(sizes)
            games += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, decisions / elapsed


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per row of the bots' table")
    parser.add_argument("--speed-seconds", type=float, default=5.0, help="how long to time random play")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    command = "tests/benchmarks/factory_race_bots.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"Command: `.venv/bin/python {command.strip()}`  ")
    print(f"Date: {datetime.date.today().isoformat()}, one core, Python {sys.version.split()[0]}\n")
    if args.games:
        print("\n".join(bot_rows(args.games)))
    print(
        "\n| random play, default config | games/s | decisions/s | decisions per game | µs per decision "
        "| games/s vs yardstick |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for num_players in (2, 3, 4):
        per_second, decisions, recorded = random_play(num_players, args.speed_seconds)
        bare_games, bare_decisions = bare_loop(recorded, args.speed_seconds)
        per_game = sum(len(sizes) for sizes in recorded) / len(recorded)
        print(
            f"| engine API, {num_players} players | {per_second:,.1f} | {decisions:,.0f} | {per_game:,.0f} "
            f"| {1e6 / decisions:.1f} | {per_second / bare_games:.3f}x |"
        )
        print(
            f"| yardstick: the same decisions from bare lists, {num_players} players | {bare_games:,.0f} "
            f"| {bare_decisions:,.0f} | {per_game:,.0f} | {1e6 / bare_decisions:.2f} | 1.000x |"
        )


if __name__ == "__main__":
    main()
