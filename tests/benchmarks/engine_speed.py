"""Benchmark: Watch engine speed through the public API, beside a bare loop of the same rules.

Run: ``.venv/bin/python tests/benchmarks/engine_speed.py`` (add ``--solver-games 0``
to skip the solver). It pins itself to one core and prints a Markdown table:

* random full games per second through ``engines.get("watch")``, every
  decision enumerating ``legal_actions()`` and applying a random choice with
  the fast ``apply_action``; the same with the checked ``apply_checked``;
* a bare loop of the same rules in plain Python (lists and tuples, no
  classes), enumerating every legal action at every decision, as the yardstick;
* the solver bot's median and worst time per decision, by phase.

Figures and the command are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engines
from engines.watch.game import NEIGHBOURS, RAYS, TILE_COUNTS


def bare_loop_game(rng: random.Random) -> tuple[int, int]:
    """Play one random game of Watch with plain lists; return (decisions, legal actions enumerated)."""
    tiles = [-1] * 25
    supply = list(TILE_COUNTS)
    colours = [c for c in range(10) if supply[c]]
    empties = list(range(25))
    enumerated = 0
    for _ in range(25):
        legal = [(c, s) for c in colours for s in empties]
        enumerated += len(legal)
        colour, square = rng.choice(legal)
        tiles[square] = colour
        empties.remove(square)
        supply[colour] -= 1
        if not supply[colour]:
            colours.remove(colour)
    white = rng.choice(range(25))
    legal_black = [s for s in range(25) if s not in NEIGHBOURS[white] and tiles[s] != tiles[white]]
    black = rng.choice(legal_black)
    enumerated += 25 + len(legal_black)
    pawns = [white, black]
    decisions = 27
    mover = 0
    while True:
        here, there = pawns[mover], pawns[1 - mover]
        legal_moves = []
        for ray in RAYS[here]:
            for square in ray:
                if tiles[square] >= 0:
                    legal_moves.append(square)
                    break
        enumerated += len(legal_moves)
        if not legal_moves:
            return decisions, enumerated
        target = rng.choice(legal_moves)
        decisions += 1
        tiles[here] = -1
        pawns[mover] = target
        if target == there or tiles[target] == tiles[there]:
            return decisions, enumerated
        mover = 1 - mover


def engine_game(game: engines.Game, rng: random.Random, checked: bool) -> tuple[int, int]:
    """Play one random game through the public API; return (decisions, legal actions enumerated)."""
    state = game.new_initial_state()
    apply = state.apply_checked if checked else state.apply_action
    decisions = enumerated = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        enumerated += len(legal)
        apply(rng.choice(legal))
        decisions += 1
    return decisions, enumerated


def measure(play, seconds: float) -> tuple[float, float, float]:
    """Return (games/s, decisions/s, legal actions enumerated per game) over about ``seconds``."""
    rng = random.Random(2001)
    games = decisions = enumerated = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(100):
            d, e = play(rng)
            decisions += d
            enumerated += e
        games += 100
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed, enumerated / games


def solver_decision_times(games: int) -> dict[str, list[float]]:
    """Return the solver's decision times in ms by phase, over ``games`` solver-v-solver games."""
    from bots.policy import load_policy

    game = engines.get("watch")
    times: dict[str, list[float]] = {"dress": [], "white_pawn": [], "black_pawn": [], "move": []}
    for index in range(games):
        policies = [load_policy("watch", "solver", seed=index * 2 + i) for i in (0, 1)]
        state = game.new_initial_state(seed=index)
        while not state.is_terminal():
            player = state.current_player()
            phase = state.phase
            observation, legal = state.observation(player), state.legal_actions()
            start = time.perf_counter()
            action = policies[player].choose(observation, legal)
            times[phase].append((time.perf_counter() - start) * 1000)
            state.apply_checked(action)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per throughput measurement")
    parser.add_argument("--solver-games", type=int, default=20, help="solver-v-solver games to time (0 skips)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    game = engines.get("watch")
    print(f"Python {sys.version.split()[0]}, one core, {args.seconds:g} s per row\n")
    rows = [
        ("bare loop, plain Python (yardstick)", measure(bare_loop_game, args.seconds)),
        ("engine API, apply_action (fast path)", measure(lambda r: engine_game(game, r, False), args.seconds)),
        ("engine API, apply_checked (checked path)", measure(lambda r: engine_game(game, r, True), args.seconds)),
    ]
    bare = rows[0][1][0]
    print("| loop | games/s | decisions/s | legal actions enumerated per game | games/s vs bare loop |")
    print("|---|---:|---:|---:|---:|")
    for name, (games_per_s, decisions_per_s, enumerated) in rows:
        ratio = games_per_s / bare
        print(f"| {name} | {games_per_s:,.0f} | {decisions_per_s:,.0f} | {enumerated:,.0f} | {ratio:.2f}x |")
    if args.solver_games:
        times = solver_decision_times(args.solver_games)
        print(f"\nSolver time per decision, {args.solver_games} solver-v-solver games:\n")
        print("| phase | decisions | median ms | worst ms |")
        print("|---|---:|---:|---:|")
        for phase, values in times.items():
            if values:
                print(f"| {phase} | {len(values)} | {statistics.median(values):.2f} | {max(values):.2f} |")
        every = [t for values in times.values() for t in values]
        print(f"| all | {len(every)} | {statistics.median(every):.2f} | {max(every):.2f} |")


if __name__ == "__main__":
    main()
