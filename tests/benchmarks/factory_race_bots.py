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
games and decisions a second, beside a bare loop of the base mode's rules in
plain lists and functions (:func:`bare_game`: the same decisions from the
same legal lists, no classes, no history, no observations), on one core.

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
from tests.benchmarks.support.loops import bare_play, random_play

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


def bot_rows(games: int, only_focal: str | None = None, only_mode: str | None = None) -> list[str]:
    rows = [
        "| mode | focal bot v others | players | games | focal win share (95 % interval) | fair share "
        "| mean rounds | ended: assembled / tie-break / shared / round limit | focal ms per decision |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|",
    ]
    for mode in MODES:
        for focal, other, counts in PAIRINGS:
            if (only_focal and focal != only_focal) or (only_mode and mode != only_mode):
                continue
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


# -- the yardstick: the base mode's rules as a bare loop of plain lists -------------------------
N_, E_, S_, W_ = 1, 2, 4, 8
STEP_ = {N_: -3, S_: 3, E_: 1, W_: -1}
OPP_ = {N_: S_, S_: N_, E_: W_, W_: E_}
OUT_ = -1


def _turn(mask: int, quarters: int) -> int:
    for _ in range(quarters % 4):
        mask = ((mask << 1) | (mask >> 3)) & 15
    return mask


def _nexts(grid: list[Any], source: int) -> set[int]:
    found, seen, stack = set(), set(), []
    if source >= 9:
        first = (source - 9) * 3
        if grid[first] is not None and grid[first][0] & W_:
            stack.append(first)
    else:
        seen.add(source)
        stack.extend(_bare_exits(grid, source))
    while stack:
        cell = stack.pop()
        if cell == OUT_:
            found.add(OUT_)
        elif cell not in seen:
            seen.add(cell)
            if grid[cell][1]:
                found.add(cell)
            else:
                stack.extend(_bare_exits(grid, cell))
    return found


def _bare_exits(grid: list[Any], cell: int) -> list[int]:
    mask, out = grid[cell][0], []
    row, col = divmod(cell, 3)
    for edge in (N_, E_, S_):
        if mask & edge:
            if edge == E_ and col == 2:
                out.append(OUT_)
            elif not ((edge == N_ and row == 0) or (edge == S_ and row == 2)):
                other = grid[cell + STEP_[edge]]
                if other is not None and other[0] & OPP_[edge]:
                    out.append(cell + STEP_[edge])
    return out


def _joins(grid: list[Any], cell: int, mask: int) -> bool:
    row, col = divmod(cell, 3)
    for edge in (N_, E_, S_, W_):
        if mask & edge:
            if (edge == W_ and col == 0) or (edge == E_ and col == 2):
                return True
            if not ((edge == N_ and row == 0) or (edge == S_ and row == 2)):
                other = grid[cell + STEP_[edge]]
                if other is not None and other[0] & OPP_[edge]:
                    return True
    return False


def _rows_ok(grid: list[Any]) -> bool:
    return all(any(grid[c] is not None and grid[c][1] for c in range(r * 3, r * 3 + 3)) for r in range(3))


def bare_game(rng: random.Random, players: int, max_rounds: int = 30) -> int:
    """Play one random base-mode game with plain lists; return the decisions made."""
    from engines.factory_race import data

    costs, housing_costs = data.TILE_COSTS, data.HOUSING_COSTS
    tiles = [(t.shape, t.machine, t.factory) for t in data.TILES]
    stack = [i for i in range(5, len(tiles)) if tiles[i][2] is None or tiles[i][2] < players]
    rng.shuffle(stack)
    line: list[Any] = [tiles[i] for i in range(5)]
    fs = []
    for p in range(players):
        grid = [None if e is None else (_turn(e[0].shape, e[1]), e[0].machine) for e in data.layout(p)]
        card = data.ASSEMBLY_CARDS[0][p]
        fs.append(
            {
                "grid": grid,
                "cubes": [None] * 9,
                "wh": list(data.cubes_needed(0, p)),
                "bp": 0,
                "workers": 5,
                "house": 3,
                "card": card,
                "asm": [[None] * len(m.squares) for m in card],
                "id": p,
            }
        )
    decisions, first = 0, 0
    for rnd in range(1, max_rounds + 1):
        order = [(first + i) % players for i in range(players)]
        if rnd >= 2:
            for p in order:
                f = fs[p]
                while True:
                    grid, bp, legal = f["grid"], f["bp"], [None]
                    if bp >= 1:
                        for c in range(9):
                            if grid[c] is not None:
                                for q in (1, 3):
                                    m = _turn(grid[c][0], q)
                                    if m != grid[c][0] and _joins(grid, c, m):
                                        legal.append(("rot", c, m))
                                for t in range(9):
                                    if grid[t] is None:
                                        g = list(grid)
                                        g[t], g[c] = grid[c], None
                                        if _rows_ok(g):
                                            legal.append(("mv", c, t))
                    if bp >= 2:
                        for a in range(9):
                            for b in range(a + 1, 9):
                                if grid[a] is not None and grid[b] is not None and grid[a] != grid[b]:
                                    g = list(grid)
                                    g[a], g[b] = grid[b], grid[a]
                                    if _rows_ok(g):
                                        legal.append(("sw", a, b))
                    if bp >= 1:
                        for c in range(9):
                            colour = f["cubes"][c]
                            if colour is not None:
                                for src in range(12):
                                    ok = (src >= 9 and src - 9 == colour) or (
                                        src < 9
                                        and src != c
                                        and f["cubes"][src] is None
                                        and grid[src] is not None
                                        and grid[src][1]
                                    )
                                    if ok and c in _nexts(grid, src):
                                        legal.append(("rb", c, src))
                    if len(legal) == 1:
                        break  # only "done": the engine does not ask
                    move = rng.choice(legal)
                    decisions += 1
                    if move is None:
                        break
                    kind, a, b = move
                    if kind == "rot":
                        grid[a] = (b, grid[a][1])
                        f["bp"] -= 1
                    elif kind == "mv":
                        grid[b], grid[a] = grid[a], None
                        f["cubes"][b], f["cubes"][a] = f["cubes"][a], None
                        f["bp"] -= 1
                    elif kind == "sw":
                        grid[a], grid[b] = grid[b], grid[a]
                        f["cubes"][a], f["cubes"][b] = f["cubes"][b], f["cubes"][a]
                        f["bp"] -= 2
                    else:
                        colour, f["cubes"][a] = f["cubes"][a], None
                        if b < 9:
                            f["cubes"][b] = colour
                        else:
                            f["wh"][b - 9] += 1
                        f["bp"] -= 1
        for p in order:
            f = fs[p]
            f.update(staffed=set(), asm_staffed=set(), housing=0, bureau=0, request=False, used=set(), asm_used=set())
            while True:
                free = f["workers"] - len(f["staffed"]) - sum(f["card"][k].workers for k in f["asm_staffed"])
                free -= f["housing"] + f["bureau"] + f["request"]
                legal = [None]
                if free > 0:
                    legal += [
                        ("st", c)
                        for c in range(9)
                        if f["grid"][c] is not None and f["grid"][c][1] and c not in f["staffed"]
                    ]
                    legal += [
                        ("as", k) for k, m in enumerate(f["card"]) if k not in f["asm_staffed"] and m.workers <= free
                    ]
                    if f["house"] and not f["housing"] and housing_costs[3 - f["house"]] <= free:
                        legal.append(("ho", 0))
                    if f["bureau"] < 3:
                        legal.append(("bu", 0))
                    if not f["request"]:
                        legal.append(("rq", 0))
                if len(legal) == 1:
                    break
                move = rng.choice(legal)
                decisions += 1
                if move is None:
                    break
                kind, a = move
                if kind == "st":
                    f["staffed"].add(a)
                elif kind == "as":
                    f["asm_staffed"].add(a)
                elif kind == "ho":
                    f["housing"] = housing_costs[3 - f["house"]]
                elif kind == "bu":
                    f["bureau"] += 1
                else:
                    f["request"] = True
        for p in order:
            f = fs[p]
            grid = f["grid"]
            f["bp"] = min(15, f["bp"] + f["bureau"])
            if f["request"]:
                legal: list[Any] = [None]
                for slot, tile in enumerate(line):
                    if tile is None or (tile[2] is not None and tile[2] != p) or costs[slot] > f["bp"]:
                        continue
                    puts = _bare_puts(f, tile)
                    if puts:
                        legal.append((slot, puts))
                move = rng.choice(legal) if len(legal) > 1 else None
                decisions += len(legal) > 1
                if move is not None:
                    slot, puts = move
                    tile = line[slot]
                    f["bp"] -= costs[slot]
                    for i in range(slot, 0, -1):
                        line[i] = line[i - 1]
                    line[0] = tiles[stack.pop()] if stack else None
                    cell, mask = rng.choice(puts)
                    decisions += 1
                    old, grid[cell] = grid[cell], (mask, tile[1])
                    if old is not None:
                        spots = [None] + ([c for c in range(9) if grid[c] is None] if f["bp"] >= 1 else [])
                        spot = rng.choice(spots)
                        decisions += len(spots) > 1
                        if spot is not None:
                            grid[spot] = old
                            f["bp"] -= 1
            if f["housing"] and f["house"] and 3 - f["house"] == housing_costs.index(f["housing"]):
                f["house"] -= 1
                f["workers"] += 1
            while True:
                legal = [None]
                for src in range(12):
                    colour = (src - 9 if f["wh"][src - 9] else None) if src >= 9 else f["cubes"][src]
                    if colour is None or src in f["used"]:
                        continue
                    for dst in _nexts(grid, src):
                        if dst == OUT_:
                            for k in range(len(f["card"])):
                                if k not in f["asm_staffed"]:
                                    break
                                if k not in f["asm_used"] and any(
                                    sq == colour and f["asm"][k][i] is None for i, sq in enumerate(f["card"][k].squares)
                                ):
                                    legal.append((src, 9 + k, colour))
                        elif dst in f["staffed"] and dst not in f["used"] and f["cubes"][dst] is None:
                            legal.append((src, dst, colour))
                if len(legal) == 1:
                    break
                move = rng.choice(legal)
                decisions += 1
                if move is None:
                    break
                src, dst, colour = move
                if src >= 9:
                    f["wh"][src - 9] -= 1
                else:
                    f["cubes"][src] = None
                if dst < 9:
                    f["cubes"][dst] = colour
                    f["used"].add(dst)
                else:
                    k = dst - 9
                    f["asm_used"].add(k)
                    squares = f["card"][k].squares
                    index = next(i for i, sq in enumerate(squares) if sq == colour and f["asm"][k][i] is None)
                    f["asm"][k][index] = colour
        if any(all(c is not None for m in f["asm"] for c in m) for f in fs):
            return decisions
        for i in range(4, 0, -1):
            line[i] = line[i - 1]
        line[0] = tiles[stack.pop()] if stack else None
        first = (first + 1) % players
    return decisions


def _bare_puts(f: dict[str, Any], tile: tuple[int, bool, Any]) -> list[tuple[int, int]]:
    out = []
    for cell in range(9):
        if cell in f["staffed"] or f["cubes"][cell] is not None:
            continue
        g = list(f["grid"])
        g[cell] = (tile[0], tile[1])
        if _rows_ok(g):
            for mask in {_turn(tile[0], q) for q in range(4)}:
                out.append((cell, mask))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per row of the bots' table")
    parser.add_argument("--speed-seconds", type=float, default=5.0, help="how long to time random play (0: not at all)")
    parser.add_argument("--focal", choices=[p[0] for p in PAIRINGS], help="only the rows of this focal bot")
    parser.add_argument("--mode", choices=MODES, help="only the rows of this mode")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    command = "tests/benchmarks/factory_race_bots.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"Command: `.venv/bin/python {command.strip()}`  ")
    print(f"Date: {datetime.date.today().isoformat()}, one core, Python {sys.version.split()[0]}\n")
    if args.games:
        print("\n".join(bot_rows(args.games, args.focal, args.mode)))
    if args.speed_seconds > 0:
        print(
            "\n| random play, base mode, default config | games/s | decisions/s | decisions per game "
            "| µs per decision | games/s vs bare loop |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for num_players in (2, 3, 4):
            bare_games, bare_decisions, bare_per_game = bare_play(bare_game, num_players, args.speed_seconds)
            per_second, decisions, per_game = random_play(engines.get("factory_race"), num_players, args.speed_seconds)
            print(
                f"| bare loop, plain lists (yardstick), {num_players} players | {bare_games:,.1f} "
                f"| {bare_decisions:,.0f} | {bare_per_game:,.0f} | {1e6 / bare_decisions:.1f} | 1.00x |"
            )
            print(
                f"| engine API, `apply_action`, {num_players} players | {per_second:,.1f} | {decisions:,.0f} "
                f"| {per_game:,.0f} | {1e6 / decisions:.1f} | {per_second / bare_games:.2f}x |"
            )


if __name__ == "__main__":
    main()
