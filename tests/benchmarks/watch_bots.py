"""Benchmark: the Watch reference bots against each other, as a Markdown table.

Run: ``.venv/bin/python tests/benchmarks/watch_bots.py --series 200`` (``--processes``
sets the worker processes, 2 by default). For each pairing (solver-greedy,
solver-random, greedy-random) it plays ``--series`` two-game series through the
local driver, each side White once, the policies seeded per series, and prints:

* per pairing: total series points of each side, series won/drawn/lost by the
  first side (on points), game wins of each side, each side's average moves as
  White and as Black, and the wall time;
* the solver's time per decision by phase (median and worst), measured inside
  the same runs (so with ``--processes`` workers sharing the machine).

The output, with the command and date, is recorded in docs/bots.md.
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.policy import Policy, load_policy
from bots.watch.local import play_series
from bots.watch.solver import EXHAUSTIVE_LAYOUTS, layouts_left

PAIRINGS = (("solver", "greedy"), ("solver", "random"), ("greedy", "random"))
#: The rows of the timing table: label -> the decision kinds (see ``decision_kind``) it covers.
TIMING_ROWS = (
    ("tile placement", {"dress_heuristic", *(f"dress_exhaustive_{empty}" for empty in range(1, 8))}),
    ("… heuristic", {"dress_heuristic"}),
    ("… exhaustive, 1-3 empty squares", {f"dress_exhaustive_{empty}" for empty in range(1, 4)}),
    ("… exhaustive, 4 empty squares", {"dress_exhaustive_4"}),
    ("… exhaustive, 5-7 empty squares", {f"dress_exhaustive_{empty}" for empty in range(5, 8)}),
    ("pawn placement", {"white_pawn", "black_pawn"}),
    ("… white pawn", {"white_pawn"}),
    ("… black pawn", {"black_pawn"}),
    ("moves", {"move"}),
)


class TimedPolicy:
    """Wraps a policy and records how long each of its decisions took, by phase."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.name = policy.name
        self.times_ms: list[tuple[str, float]] = []

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        started = time.perf_counter()
        action = self.policy.choose(observation, legal_actions)
        self.times_ms.append((decision_kind(observation), (time.perf_counter() - started) * 1000))
        return action


def decision_kind(observation: Mapping[str, Any]) -> str:
    """Return the finer phase of a decision: the solver's tile placements split by how it makes them."""
    phase = observation["phase"]
    if phase == "dress":
        supply = list(observation["supply"].values())
        if layouts_left(supply) <= EXHAUSTIVE_LAYOUTS:  # the solver searches every way to finish the layout
            return f"dress_exhaustive_{sum(supply)}"
        return "dress_heuristic"
    return phase


def play_one_series(job: tuple[str, str, int]) -> dict[str, Any]:
    """Play series ``index`` of a pairing and return its summary and the solver's decision times."""
    first, second, index = job
    policies = [
        TimedPolicy(load_policy("watch", first, seed=index * 1000 + 1)),
        TimedPolicy(load_policy("watch", second, seed=index * 1000 + 2)),
    ]
    started = time.perf_counter()
    result = play_series(policies, games=2, seed=index)
    forfeits = [game["forfeit"] for game in result["games"] if game["forfeit"]]
    white_moves, black_moves = [0, 0], [0, 0]
    for game in result["games"]:
        white = game["white"]
        white_moves[white] += game["moves"][white]
        black_moves[1 - white] += game["moves"][1 - white]
    return {
        "points": result["score"]["points"],
        "game_wins": result["score"]["game_wins"],
        "white_moves": white_moves,
        "black_moves": black_moves,
        "forfeits": forfeits,
        "seconds": time.perf_counter() - started,
        "solver_times": [t for p in policies if p.name == "solver" for t in p.times_ms],
    }


def summarise(first: str, second: str, series: list[dict[str, Any]], wall: float) -> dict[str, Any]:
    """Return the table row of one pairing."""
    points = [sum(s["points"][side] for s in series) for side in (0, 1)]
    won = sum(s["points"][0] > s["points"][1] for s in series)
    lost = sum(s["points"][0] < s["points"][1] for s in series)
    return {
        "pairing": f"{first}–{second}",
        "series": len(series),
        "points": points,
        "won_drawn_lost": (won, len(series) - won - lost, lost),
        "game_wins": [sum(s["game_wins"][side] for s in series) for side in (0, 1)],
        "white_moves": [statistics.mean(s["white_moves"][side] for s in series) for side in (0, 1)],
        "black_moves": [statistics.mean(s["black_moves"][side] for s in series) for side in (0, 1)],
        "forfeits": sum(len(s["forfeits"]) for s in series),
        "wall": wall,
    }


def results_table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| pairing (A–B) | series | points A–B | series A won/drawn/lost | game wins A–B "
        "| avg moves as White A / B | avg moves as Black A / B | forfeits | wall time |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['pairing']} | {row['series']} | {row['points'][0]:g}–{row['points'][1]:g} "
            f"| {'/'.join(map(str, row['won_drawn_lost']))} | {row['game_wins'][0]}–{row['game_wins'][1]} "
            f"| {row['white_moves'][0]:.2f} / {row['white_moves'][1]:.2f} "
            f"| {row['black_moves'][0]:.2f} / {row['black_moves'][1]:.2f} | {row['forfeits']} | {row['wall']:.1f} s |"
        )
    return "\n".join(lines)


def timing_table(times: list[tuple[str, float]]) -> str:
    lines = ["| solver decision | count | median | worst |", "|---|---:|---:|---:|"]
    for label, kinds in TIMING_ROWS:
        values = [ms for kind, ms in times if kind in kinds]
        if values:
            lines.append(f"| {label} | {len(values)} | {statistics.median(values):.2f} ms | {max(values):.1f} ms |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=200, help="two-game series per pairing")
    parser.add_argument("--processes", type=int, default=2, help="worker processes")
    args = parser.parse_args(argv)
    command = "tests/benchmarks/watch_bots.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"Command: `.venv/bin/python {command.strip()}`  ")
    print(f"Date: {datetime.date.today().isoformat()}, {args.processes} processes, Python {sys.version.split()[0]}\n")
    rows = []
    solver_times: list[tuple[str, float]] = []
    with multiprocessing.get_context("fork").Pool(args.processes) as pool:
        for first, second in PAIRINGS:
            started = time.perf_counter()
            jobs = [(first, second, index) for index in range(args.series)]
            series = pool.map(play_one_series, jobs, chunksize=4)
            rows.append(summarise(first, second, series, time.perf_counter() - started))
            solver_times += [t for s in series for t in s["solver_times"]]
    print(results_table(rows))
    print(
        "\nSolver time per decision (every decision of the runs above, forced ones included; the solver"
        f" places tiles exhaustively once at most {EXHAUSTIVE_LAYOUTS} layouts can follow):\n"
    )
    print(timing_table(solver_times))


if __name__ == "__main__":
    main()
