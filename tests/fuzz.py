"""Fuzz every registered game's engine contract with random play for as long as a budget allows.

Run: ``.venv/bin/python tests/fuzz.py --budget-s 300`` (CI runs it after the suite with ten minutes: .ci/run).

The suite checks each game's contract on a small fixed sample of seeds
(tests/engines/test_conformance.py); this plays the same checked random games
(:func:`engines.conformance.check_game`) on many more: every
registered game at every player count it allows, seed after seed from
``--first-seed``, one seed of every case in turn, until the budget is spent.
The first seed of every case is played whatever the budget. It prints what
it played (games, seeds and seconds per case) and exits 1 on any violation,
naming the game, the player count and the seed with a command that replays
just that game with its traceback.
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines
from engines.conformance import check_game


@dataclass
class Case:
    """One game at one player count, and what the fuzz played of it."""

    game: str
    players: int
    games: int = 0
    seconds: float = 0.0
    failed_seed: int | None = None
    error: str = ""

    def label(self) -> str:
        """Return ``game Np``, as the report and the reproduction command name the case."""
        return f"{self.game} {self.players}p"

    def reproduction(self) -> str:
        """Return the command that replays the failed game alone, with its traceback."""
        return f".venv/bin/python tests/fuzz.py --game {self.game} --players {self.players} --seed {self.failed_seed}"


def cases_of(games: list[str], players: int | None) -> list[Case]:
    """Return every (game, player count) to fuzz: each count the game allows, or only ``players``."""
    cases = []
    for name in games:
        info = engines.get(name).info
        counts = range(info.min_players, info.max_players + 1) if players is None else [players]
        cases.extend(Case(name, count) for count in counts)
    return cases


def play(case: Case, seed: int) -> bool:
    """Play ``case`` with ``seed``, checking the contract at each ply; record a failure and return False on one."""
    started = time.perf_counter()
    try:
        check_game(engines.get(case.game), [seed], num_players=case.players, contract_only=True)
    except Exception as error:  # any exception is a violation: the engine's contract, or a crash in it
        case.failed_seed = seed
        case.error = "".join(traceback.format_exception_only(error)).strip().splitlines()[0]
        return False
    finally:
        case.games += 1
        case.seconds += time.perf_counter() - started
    return True


def fuzz(cases: list[Case], first_seed: int, budget_s: float) -> None:
    """Play seed after seed of every case, the first seed of each whatever the budget, until ``budget_s`` is spent."""
    started = time.perf_counter()
    seed = first_seed
    while seed == first_seed or time.perf_counter() - started < budget_s:
        live = [case for case in cases if case.failed_seed is None]
        if not live:
            break
        for case in live:
            if seed > first_seed and time.perf_counter() - started >= budget_s:
                break
            play(case, seed)
        seed += 1


def report(cases: list[Case], first_seed: int, seconds: float) -> str:
    """Return the summary: one line per case, the totals, and each failure with its reproduction command."""
    lines = [f"{'case':<22} {'games':>6} {'seeds':>12} {'seconds':>8}"]
    for case in cases:
        seeds = f"{first_seed}-{first_seed + case.games - 1}" if case.games else "-"
        lines.append(f"{case.label():<22} {case.games:>6} {seeds:>12} {case.seconds:>8.1f}")
    failed = [case for case in cases if case.failed_seed is not None]
    games = sum(case.games for case in cases)
    engine_count = len({case.game for case in cases})
    lines.append(f"fuzz: played {games} games of {engine_count} engines in {seconds:.1f} s; {len(failed)} cases failed")
    for case in failed:
        lines.append(f"FAILED {case.label()} seed {case.failed_seed}: {case.error}")
        lines.append(f"  reproduce: {case.reproduction()}")
    return "\n".join(lines)


def replay(game: str, players: int | None, seed: int) -> int:
    """Play one game with the contract checked and let any failure show its traceback; return the exit status."""
    (state,) = check_game(engines.get(game), [seed], num_players=players, contract_only=True)
    print(f"{game} seed {seed}: {len(state.history)} plies, {state.outcome().reason}; contract kept")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-s", type=float, default=60.0, help="stop starting games after this long (60)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first seed of every case (0)")
    parser.add_argument("--game", action="append", help="fuzz only this game (repeatable; default: every one)")
    parser.add_argument("--players", type=int, help="only this player count (default: every count the game allows)")
    parser.add_argument("--seed", type=int, help="replay this one seed of --game with its traceback, and stop")
    args = parser.parse_args(argv)
    games = args.game or engines.names()
    unknown = [name for name in games if name not in engines.names()]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; registered: {', '.join(engines.names())}")
    if args.seed is not None:
        if len(games) != 1:
            parser.error("--seed replays one game: give one --game")
        return replay(games[0], args.players, args.seed)
    cases = cases_of(games, args.players)
    print(f"fuzz: {len(cases)} cases from seed {args.first_seed}, budget {args.budget_s:g} s", flush=True)
    started = time.perf_counter()
    fuzz(cases, args.first_seed, args.budget_s)
    print(report(cases, args.first_seed, time.perf_counter() - started))
    return 1 if any(case.failed_seed is not None for case in cases) else 0


if __name__ == "__main__":
    sys.exit(main())
