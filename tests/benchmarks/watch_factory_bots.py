"""Benchmark: the Watch factory reference bots against each other and alone, and random play's speed.

Run: ``.venv/bin/python tests/benchmarks/watch_factory_bots.py --games 40 --deals 40``.
It prints three Markdown tables:

* random play through the public API (``legal_actions`` and the fast
  ``apply_action`` at every decision, ``resolve_chance`` for chance) in games
  and decisions a second, beside a bare loop of the same multi-player rules in
  plain lists and functions (:func:`bare_game`: the same decisions from the
  same legal lists, no classes, no history, no observations), on one core;
* multi-player win shares: ``heuristic`` against ``random`` and ``search``
  against ``heuristic`` at 2, 3 and 4 players, ``--games`` games a row, the
  focal bot's seat rotating game by game; a shared win counts in part; 95 %
  Wilson intervals; the mean victory points of the focal bot and of the
  others; the focal bot's time per decision;
* solo: the mean score of ``random``, ``heuristic`` and ``search`` over the
  same ``--deals`` seeded deals (each deal's chance from a generator seeded by
  the deal), with 95 % intervals (mean ± 1.96 standard errors), and the share
  of deals reaching each of the rulebook's benchmarks (75, 100, 125, 160).

Chance comes from a generator seeded per game. The output, with the command
and date, is recorded in docs/bots.md and docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
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
from engines.watch_factory import data
from tests.benchmarks.support.loops import bare_play, random_play

GAME = "watch_factory"
#: (focal bot, the others' bot)
PAIRINGS = (("heuristic", "random"), ("search", "heuristic"))
SOLO_BOTS = ("random", "heuristic", "search")


def play_game(names: Sequence[str], index: int, focal: int) -> dict[str, Any]:
    """Play game ``index`` with ``names`` in seat order; time seat ``focal``'s decisions."""
    policies = [load_policy(GAME, name, seed=index * 10 + s) for s, name in enumerate(names)]
    rng = random.Random(index)
    state = engines.get(GAME).new_initial_state(seed=index, num_players=len(names))
    thinking, decisions, worst = 0.0, 0, 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
            continue
        player = state.current_player()
        started = time.perf_counter()
        action = policies[player].choose(state.observation(player), state.legal_actions())
        if player == focal:
            spent = time.perf_counter() - started
            thinking += spent
            worst = max(worst, spent)
            decisions += 1
        state.apply_checked(action)
    outcome = state.outcome()
    assert outcome is not None
    return {
        "winners": outcome.winners,
        "scores": [stats["score"] for stats in outcome.stats],
        "ms": 1000 * thinking / max(1, decisions),
        "worst_ms": 1000 * worst,
    }


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its 95 % interval (1.96 standard errors)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def bot_rows(games: int, counts: Sequence[int], only_focal: str | None = None) -> list[str]:
    rows = [
        "| focal bot v others | players | games | focal win share (95 % interval) | fair share "
        "| focal mean points | others' mean points | focal ms per decision (worst) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for focal, other in PAIRINGS:
        if only_focal and focal != only_focal:
            continue
        for num_players in counts:
            played = []
            for index in range(games):
                seat = index % num_players
                names = [focal if s == seat else other for s in range(num_players)]
                game = play_game(names, index, seat)
                game["seat"] = seat
                played.append(game)
            share = sum(1 / len(g["winners"]) for g in played if g["seat"] in g["winners"])
            low, high = wilson(share, games)
            mine = [g["scores"][g["seat"]] for g in played]
            others = [s for g in played for q, s in enumerate(g["scores"]) if q != g["seat"]]
            rows.append(
                f"| {focal} v {other} | {num_players} | {games} | {share / games:.0%} ({low:.0%}–{high:.0%}) "
                f"| {1 / num_players:.0%} | {sum(mine) / len(mine):.1f} | {sum(others) / len(others):.1f} "
                f"| {sum(g['ms'] for g in played) / games:.1f} ({max(g['worst_ms'] for g in played):.0f}) |"
            )
            print(rows[-1], file=sys.stderr, flush=True)
    return rows


def solo_rows(deals: int) -> list[str]:
    titles = [score for score, _ in data.SOLO_TITLES]
    rows = [
        "| bot | deals | mean score (95 % interval) | min–max | "
        + " | ".join(f"≥ {t}" for t in titles)
        + " | ms per decision (worst) |",
        "|---|---:|---:|---:|" + "---:|" * len(titles) + "---:|",
    ]
    for name in SOLO_BOTS:
        played = [play_game([name], index, 0) for index in range(deals)]
        scores = [g["scores"][0] for g in played]
        mean, half = mean_interval(scores)
        shares = " | ".join(f"{sum(s >= t for s in scores) / deals:.0%}" for t in titles)
        rows.append(
            f"| {name} | {deals} | {mean:.1f} ({mean - half:.1f}–{mean + half:.1f}) | {min(scores)}–{max(scores)} "
            f"| {shares} | {sum(g['ms'] for g in played) / deals:.1f} ({max(g['worst_ms'] for g in played):.0f}) |"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    return rows


# -- the yardstick: the multi-player rules as a bare loop of plain lists --------------------------
def bare_game(rng: random.Random, n: int) -> int:
    """Play one random multi-player game (2-4) with plain lists; return the decisions made.

    The same rules and the same decisions from the same legal lists as the
    engine (a decision with one legal action counts when the engine asks it),
    with chance drawn inline.
    """
    choice, randrange = rng.choice, rng.randrange
    dock_row, files_row = data.DOCK_ROW, data.OFFICE_ROW
    work_row, ware_row = data.WORKSHOP_ROW, data.WAREHOUSE_ROW
    cost, bonuses, markets, docs = data.COLUMN_COST, data.TRACK_BONUSES, data.MARKETS, data.DOCUMENTS
    risky = (True, False, True, False, True, False, True, False)
    pawn = n if n == 2 else -1
    workers = n + (pawn >= 0)
    length = 10 if n == 4 else 8
    tracks = [[-1] * length for _ in range(6)]
    stock = [0] + [n + 1] * 9
    rub, gea, debt = [3] * n, [2] * n, [0] * n
    rem = [[0, 0, 0, 0] for _ in range(n)]
    crates: list[list[int]] = [[] for _ in range(n)]
    hand: list[list[int]] = [[] for _ in range(n)]
    played: list[list[int]] = [[] for _ in range(n)]
    stack = list(range(12))
    rng.shuffle(stack)
    market, nxt = stack.pop(), stack.pop()
    segments = [list(range(28))]
    for p in range(n):
        seg = segments[0]
        hand[p].append(seg.pop(randrange(len(seg))))
    spots = [-1] * workers
    watch_set: list[int] = []
    watcher = black = -1
    die = 0
    decisions = 0

    def crate_for(colour: int) -> int:
        for c in range(colour, -1, -1):
            for v in (3 * c + 3, 3 * c + 2, 3 * c + 1):
                if stock[v]:
                    return v
        return 0

    def pay(p: int, amount: int) -> None:
        while rub[p] < amount:
            debt[p] += 1
            rub[p] += 5
        rub[p] -= amount

    def bribe(p: int) -> int:
        column = max(rem[p])
        return cost[column - 1] if column else 0

    def find(p: int, kind: str) -> int:
        for card in sorted(hand[p]):
            if docs[card][1] == kind:
                return card
        return -1

    def play_doc(p: int, kind: str) -> None:
        card = find(p, kind)
        hand[p].remove(card)
        played[p].append(card)

    def place(owner: int, t: int) -> Any:
        line = tracks[t]
        if -1 not in line:
            return None
        i = line.index(-1)
        line[i] = owner
        return bonuses[t][i]

    def take_bonus(p: int, bonus: Any) -> int:
        if bonus is None:
            return 0
        if bonus.kind == "rubles":
            rub[p] += bonus.amount
        elif bonus.kind == "gears":
            gea[p] += bonus.amount
        elif gea[p] >= bonus.amount and bonus.colour <= unlocked(p) and crate_for(bonus.colour):
            if choice((False, True)):
                gea[p] -= bonus.amount
                v = crate_for(bonus.colour)
                stock[v] -= 1
                crates[p].append(v)
            return 1
        return 0

    def unlocked(p: int) -> int:
        return max(max(icon.crates) for icon in dock_row[: rem[p][0] + 1])

    def smuggle(p: int) -> int:
        made, used = 0, False
        while True:
            icon = dock_row[rem[p][0]]
            legal: list[int] = [-1]
            if not used and gea[p] >= icon.gears and any(crate_for(c) for c in icon.crates):
                legal.append(9)
            if find(p, data.SMUGGLE_MORE) >= 0:
                legal += [c for c in range(unlocked(p) + 1) if gea[p] >= c + 1 and crate_for(c)]
            if made and len(legal) == 1 and not hand[p]:  # a hand of documents is asked again (secrecy)
                return made
            pick = choice(legal)
            made += 1
            if pick < 0:
                return made
            if pick == 9:
                gea[p] -= icon.gears
                for c in icon.crates:
                    v = crate_for(c)
                    if v:
                        stock[v] -= 1
                        crates[p].append(v)
                used = True
            else:
                play_doc(p, data.SMUGGLE_MORE)
                gea[p] -= pick + 1
                v = crate_for(pick)
                stock[v] -= 1
                crates[p].append(v)

    def token(p: int, row: int) -> int:
        """Put the row's token (row -1: already removed) on a chosen track; return the decisions."""
        open_ = [t for t in range(6) if -1 in tracks[t]]
        if not open_:
            if row >= 0:
                rem[p][row] += 1
            return 0
        t = choice(open_)
        if row >= 0:
            rem[p][row] += 1
        return 1 + take_bonus(p, place(p, t))

    def by_hand(hand_at: int, where: list[int]) -> list[int]:
        return sorted((w for w in range(workers) if where[w] >= 0), key=lambda w: (where[w] - 2 * hand_at) % 8)

    for rnd in range(1, 13):
        hand_at = (rnd - 1) % 4
        previous = spots[:]
        order = list(range(workers)) if rnd == 1 else by_hand(hand_at, previous)
        for w in order:
            if w == pawn:
                die = randrange(6) + 1
                if rnd == 1:
                    empty = [s for s in range(8) if s not in spots]
                    spots[w] = empty[(die - 1) % len(empty)]
                else:
                    here = spots[w]
                    ring = [(here + k) % 8 for k in range(1, 8) if (here + k) % 8 not in spots]
                    spots[w] = ring[(die - 1) % len(ring)]
                continue
            legal = [s for s in range(8) if s not in spots and s != previous[w]]
            spots[w] = choice(legal)
            decisions += 1
        if rnd > 1:
            revealed, by = watch_set, watcher
            watch_set, watcher = [], -1
            for w in by_hand(hand_at, spots):
                s = spots[w]
                if not risky[s] or s // 2 not in revealed or w == by:
                    continue
                if w == pawn:
                    if by >= 0:
                        rub[by] += bribe(1 - by)
                    continue
                amount = bribe(w)
                if amount and black == w:
                    if by >= 0:
                        rub[by] += amount
                elif amount and hand[w]:  # asked of every caught holder of a document (secrecy)
                    decisions += 1
                    if choice((False, True) if find(w, data.BANK_PAYS) >= 0 else (False,)):
                        play_doc(w, data.BANK_PAYS)
                    else:
                        pay(w, amount)
                    if by >= 0:
                        rub[by] += amount
                else:
                    pay(w, amount)
                    if by >= 0:
                        rub[by] += amount
        m = markets[market]
        moved = [False] * n
        for w in by_hand(hand_at, spots):
            if w == pawn:
                place(w, die - 1)
                continue
            s = spots[w]
            if s == 0:
                decisions += smuggle(w)
            elif s == 1:
                sold = randrange(min(gea[w], 99) + 1)
                decisions += 1
                gea[w] -= sold
                rub[w] += sold + m.dock_rubles
                ups = [
                    v
                    for v in set(crates[w])
                    if v <= 6 and any(stock[x] for x in range(v - (v - 1) % 3 + 3, v - (v - 1) % 3 + 6))
                ]
                if ups:
                    decisions += 1
                    pick = choice([0, *sorted(ups)])
                    if pick:
                        crates[w].remove(pick)
                        stock[pick] += 1
                        colour = (pick - 1) // 3 + 1
                        best = next(v for v in (3 * colour + 3, 3 * colour + 2, 3 * colour + 1) if stock[v])
                        stock[best] -= 1
                        crates[w].append(best)
            elif s in (2, 3):
                icon = work_row[rem[w][1]]
                gea[w] += (work_row[3] if icon.points else icon).gears + (m.workshop_gears if s == 2 else 0)
                if s == 3:
                    moves = [t for t in range(6) if w in tracks[t] and -1 in tracks[t]]
                    if moves:
                        decisions += 1
                        pick = choice([-1, *moves])
                        if pick >= 0:
                            line = tracks[pick]
                            line[line.index(w)] = -2
                            decisions += take_bonus(w, place(w, pick))
            elif s == 4:
                rows = [r for r in range(4) if rem[w][r] < 5]
                if rows:
                    decisions += 1
                    row = choice([-1, *rows])
                    if row >= 0:
                        pay(w, cost[rem[w][row]])
                        rem[w][row] += 1
                        decisions += token(w, -1)
            elif s == 5:
                icon = ware_row[rem[w][2]]
                icon = ware_row[3] if icon.points else icon
                gea[w] += icon.gears + m.warehouse_gears
                rub[w] += icon.rubles + m.warehouse_rubles
            elif s == 6:
                files = files_row[rem[w][3]]
                searching = []
                for _ in range(min(files.draw, sum(len(seg) for seg in segments))):
                    seg = segments[0]
                    searching.append(seg.pop(randrange(len(seg))))
                    if not seg:
                        segments.pop(0)
                for _ in range(min(files.keep, len(searching))):
                    card = choice(sorted(set(searching)))
                    decisions += 1
                    searching.remove(card)
                    hand[w].append(card)
                if searching:
                    segments.append(searching)
            else:
                watch_set, watcher, black = [], w, w
                if rnd < 12:
                    for _ in range(min(m.eyes, 4)):
                        watch_set.append(choice([x for x in range(4) if x not in watch_set]))
                        decisions += 1
                while debt[w] and rub[w] >= 5:
                    decisions += 1
                    if choice((False, True)):
                        break
                    rub[w] -= 5
                    debt[w] -= 1
            if rem[w][s // 2] < 5:
                decisions += token(w, s // 2)
            while hand[w] or (debt[w] and rub[w] >= 8):  # asked only when a document or a repayment could be played
                legal_end: list[Any] = [None]
                if debt[w] and rub[w] >= 8:
                    legal_end.append("repay")
                if not moved[w] and find(w, data.MOVE_TOKEN) >= 0:
                    targets = [t for t in range(6) if -1 in tracks[t]]
                    legal_end += [(a, b) for a in range(6) if w in tracks[a] for b in targets]
                pick = choice(legal_end)
                decisions += 1
                if pick is None:
                    break
                if pick == "repay":
                    rub[w] -= 8
                    debt[w] -= 1
                else:
                    play_doc(w, data.MOVE_TOKEN)
                    moved[w] = True
                    line = tracks[pick[0]]
                    line[line.index(w)] = -2
                    decisions += take_bonus(w, place(w, pick[1]))
        if rnd < 12 and not watch_set and watcher < 0:
            deck = [0, 1, 2, 3]
            rng.shuffle(deck)
            watch_set = deck[: min(m.eyes, 4)]
        if rnd < 12:
            market = nxt
            nxt = stack.pop() if stack else -1
    for w in by_hand(3, spots):
        if w != pawn:
            decisions += smuggle(w)
    for p in range(n):
        while debt[p] and rub[p] >= 8:
            debt[p] -= 1
            rub[p] -= 8
    return decisions


def speed_rows(seconds: float) -> list[str]:
    rows = [
        "| random play | games/s | decisions/s | decisions per game | µs per decision | games/s vs bare loop |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    per_second, decisions, per_game = random_play(engines.get(GAME), 1, seconds)
    rows.append(
        f"| engine API, `apply_action`, solo | {per_second:,.1f} | {decisions:,.0f} | {per_game:,.1f} "
        f"| {1e6 / decisions:.1f} | – |"
    )
    for num_players in (2, 3, 4):
        bare_games, bare_decisions, bare_per_game = bare_play(bare_game, num_players, seconds)
        per_second, decisions, per_game = random_play(engines.get(GAME), num_players, seconds)
        rows.append(
            f"| bare loop, plain lists (yardstick), {num_players} players | {bare_games:,.1f} "
            f"| {bare_decisions:,.0f} | {bare_per_game:,.1f} | {1e6 / bare_decisions:.1f} | 1.00x |"
        )
        rows.append(
            f"| engine API, `apply_action`, {num_players} players | {per_second:,.1f} | {decisions:,.0f} "
            f"| {per_game:,.1f} | {1e6 / decisions:.1f} | {per_second / bare_games:.2f}x |"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per row of the multi-player table (0: none)")
    parser.add_argument("--deals", type=int, default=40, help="seeded solo deals per bot (0: none)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player counts of the table")
    parser.add_argument("--focal", choices=[p[0] for p in PAIRINGS], help="only the rows of this focal bot")
    parser.add_argument("--speed-seconds", type=float, default=5.0, help="how long to time random play (0: not at all)")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    command = "tests/benchmarks/watch_factory_bots.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"Command: `.venv/bin/python {command.strip()}`  ")
    print(f"Date: {datetime.date.today().isoformat()}, one core, Python {sys.version.split()[0]}\n")
    if args.speed_seconds > 0:
        print("\n".join(speed_rows(args.speed_seconds)) + "\n", flush=True)
    if args.games:
        print("\n".join(bot_rows(args.games, args.players, args.focal)) + "\n", flush=True)
    if args.deals:
        print("\n".join(solo_rows(args.deals)), flush=True)


if __name__ == "__main__":
    main()
