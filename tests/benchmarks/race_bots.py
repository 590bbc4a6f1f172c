"""Benchmark: the Watch race reference bots against each other, and random play's speed.

Run: ``.venv/bin/python tests/benchmarks/race_bots.py --games 2000``. For 2, 4 and 6
players it plays ``--games`` games in process, half the seats (alternately the
even or the odd ones, so each bot sits first as often) taken by ``heuristic``
and the rest by ``random``, chance drawn from a generator seeded per game, and
prints a Markdown table: each bot's share of the games won (and per seat, so the
seat count is fair), draws, replays, and how games ended. Then random games per
second through the engine for 4 players (``legal_actions`` plus the fast
``apply_action`` at every decision, chance by ``resolve_chance``), on one core.

The output, with the command and date, is recorded in docs/bots.md.
"""

from __future__ import annotations

import argparse
import collections
import datetime
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
from tests.benchmarks.support.loops import random_play

PLAYER_COUNTS = (2, 4, 6)
BOTS = ("heuristic", "random")


def seating(num_players: int, index: int) -> list[str]:
    """Return the bot in each seat: heuristic in every other seat, starting with seat ``index % 2``."""
    return [BOTS[(seat + index) % 2] for seat in range(num_players)]


def play_game(num_players: int, index: int) -> dict[str, Any]:
    """Play game ``index`` and return who sat where and how it ended."""
    seats = seating(num_players, index)
    policies = [load_policy("watch_race", name, seed=index * 10 + seat) for seat, name in enumerate(seats)]
    rng = random.Random(index)
    state = engines.get("watch_race").new_initial_state(seed=index, num_players=num_players)
    while not state.is_terminal():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
            continue
        player = state.current_player()
        action = policies[player].choose(state.observation(player), state.legal_actions())
        state.apply_checked(action)
    outcome = state.outcome()
    assert outcome is not None
    return {"seats": seats, "winners": list(outcome.winners), "reason": outcome.reason, "replays": state.replays}


def summarise(num_players: int, games: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """Return the table row for one player count."""
    wins = collections.Counter()
    seat_games = collections.Counter()
    for game in games:
        seat_games.update(game["seats"])
        wins.update(game["seats"][w] for w in game["winners"])
    return {
        "players": num_players,
        "games": len(games),
        "share": {bot: wins[bot] / len(games) for bot in BOTS},
        "per_seat": {bot: wins[bot] / seat_games[bot] for bot in BOTS},
        "fair_seat": 1 / num_players,
        "draws": sum(not game["winners"] for game in games),
        "replays": sum(game["replays"] for game in games),
        "reasons": collections.Counter(game["reason"] for game in games),
        "seconds": seconds,
    }


def results_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| players | games | heuristic wins | random wins | win rate per seat heuristic / random (fair) "
        "| draws | replays | ended by timer / tokens out / draw cap | wall time |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        reasons = row["reasons"]
        lines.append(
            f"| {row['players']} | {row['games']} | {row['share']['heuristic']:.1%} | {row['share']['random']:.1%} "
            f"| {row['per_seat']['heuristic']:.1%} / {row['per_seat']['random']:.1%} ({row['fair_seat']:.1%}) "
            f"| {row['draws']} | {row['replays']} "
            f"| {reasons['timer']} / {reasons['tokens_out']} / {reasons['draw_cap']} | {row['seconds']:.1f} s |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--speed-seconds", type=float, default=5.0, help="how long to time random play")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    command = "tests/benchmarks/race_bots.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"Command: `.venv/bin/python {command.strip()}`  ")
    print(f"Date: {datetime.date.today().isoformat()}, one core, Python {sys.version.split()[0]}\n")
    rows = []
    for num_players in PLAYER_COUNTS:
        started = time.perf_counter()
        games = [play_game(num_players, index) for index in range(args.games)]
        rows.append(summarise(num_players, games, time.perf_counter() - started))
    print(results_table(rows))
    per_second, decisions, _ = random_play(engines.get("watch_race"), 4, args.speed_seconds)
    print(f"\nRandom play through the engine, 4 players: {per_second:,.0f} games/s ({decisions:,.0f} decisions/s)")


if __name__ == "__main__":
    main()
