"""Benchmark: Watching Us random play's speed, and each team composition's win rate against each GM.

Run: ``.venv/bin/python tests/benchmarks/watching_us_bots.py --games 60``.
It prints two Markdown tables:

* random play through the public API (``legal_actions`` and ``apply_action`` at every decision,
  ``resolve_chance`` for chance; a GM seat played at random too) in games and decisions a second,
  decisions per game and µs per decision, beside :func:`bare_game`, a bare loop of the *core* rules
  in plain lists (see its docstring for exactly what it keeps and leaves out: the full rules, every
  card's passives, Items, Travel and the Location deck, are too large to rewrite here), on one core;
* the win rate of each team composition (all ``random``, all ``heuristic``, mixed: heuristic and
  random alternating from seat 0) at 2, 3 and 4 player seats against each GM (the ``random`` bot and
  ``heuristic_gm`` in the GM seat, and the engine's built-in GM), ``--games`` seeded games a cell
  (game ``i`` has seed ``i`` and chance from a generator seeded ``i``: the cells of a row share
  their deals until the bots' choices part them), with 95 % Wilson intervals and the mean turns of
  the games the players won.

The output, with the command and date, is recorded in docs/bots.md and docs/benchmarks.md.
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
from engines.watching_us.data import CHARACTERS, DIFFICULTY, MONSTERS, RITUALS
from engines.watching_us.game import TO_HIT
from tests.benchmarks.support.loops import bare_play, random_play

GAME = "watching_us"
TEAMS = ("random", "heuristic", "mixed")
GMS = ("random", "heuristic_gm", "builtin")


def team_names(team: str, seats: int) -> list[str]:
    if team == "mixed":
        return ["heuristic" if s % 2 == 0 else "random" for s in range(seats)]
    return [team] * seats


def play_game(players: Sequence[str], gm: str, index: int) -> dict[str, Any]:
    """Play game ``index`` of the ``players`` bots against ``gm`` (a GM bot, or "builtin")."""
    builtin = gm == "builtin"
    names = [*players, *([] if builtin else [gm])]
    policies = [load_policy(GAME, name, seed=index * 10 + s) for s, name in enumerate(names)]
    rng = random.Random(index)
    state = engines.get(GAME, {"gm": "builtin"} if builtin else {}).new_initial_state(
        seed=index, num_players=len(names)
    )
    while not state.is_terminal():
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
            continue
        seat = state.current_player()
        state.apply_action(policies[seat].choose(state.observation(seat), state.legal_actions()))
    outcome = state.outcome()
    assert outcome is not None
    return {"won": outcome.reason == "players_won", "turns": outcome.stats[0]["turns"], "reason": outcome.reason}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def team_rows(games: int, seat_counts: Sequence[int]) -> list[str]:
    rows = [
        "| player seats | team | GM | games | players' win rate | 95 % interval | mean turns to win | ms per game |",
        "|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for seats in seat_counts:
        for team in TEAMS:
            names = team_names(team, seats)
            for gm in GMS:
                started = time.perf_counter()
                results = [play_game(names, gm, index) for index in range(games)]
                elapsed = time.perf_counter() - started
                wins = [r for r in results if r["won"]]
                low, high = wilson(len(wins), games)
                turns = f"{sum(r['turns'] for r in wins) / len(wins):.1f}" if wins else "–"
                label = "+".join(names) if team == "mixed" else f"all {team}"
                rows.append(
                    f"| {seats} | {label} | {gm} | {games} | {len(wins) / games:.1%} | {low:.1%} to {high:.1%} "
                    f"| {turns} | {elapsed / games * 1000:.1f} |"
                )
    return rows


# -- the bare loop ---------------------------------------------------------------------------------

#: Per Monster: its types as a bit mask, HP, the hits a die face makes (To Hit: dice of one face per hit,
#: 0 none), and its Adversary, Proxy and Attack effects as (trigger, kind, amount, target) tuples.
TYPE_BITS = {t: 1 << i for i, t in enumerate(sorted({t for m in MONSTERS for t in m.types}))}
MASKS = [sum(TYPE_BITS[t] for t in m.types) for m in MONSTERS]
SIZES = [
    [min([term.count for term in TO_HIT[c].terms if term.accepts(face)] or [0]) for face in range(1, 7)]
    for c in range(len(MONSTERS))
]
KEPT = ("damage", "lose_dice", "heal", "gain_dice", "monster_heal")
ADV = [[(e.trigger, e.kind, e.amount, e.target) for e in m.adversary if e.kind in KEPT] for m in MONSTERS]
PRX = [[(e.trigger, e.kind, e.amount, e.target) for e in m.proxy if e.kind in KEPT] for m in MONSTERS]
ATK = [[("now", e.kind, e.amount, e.target) for e in m.attack if e.kind in KEPT] for m in MONSTERS]
RIT = [
    (
        1.0 if r.judge == "next" else DIFFICULTY[r.difficulty],
        r.success_dice,
        r.failure_dice,
        sum(e.amount for e in r.failure if e.kind == "damage"),
    )
    for r in RITUALS
]
CHAR_HP = [c.hp for c in CHARACTERS]


def bare_game(rng: random.Random, players: int) -> int:
    """Play one random game of the core rules in plain lists; return its decisions (the GM's included).

    Kept: the deal of three Character cards each (a random one the Character, the others its Items),
    the Adversary voted from three Monsters (each player's vote random, the majority, seat 0's vote on a
    tie) and the GM's order of the other two; each turn a flip (a Proxy when it shares a type with
    the Adversary, else its Attack), the Adversaries' and Proxies' ``turn``, ``night`` and ``morning``
    triggers; the action (Investigate: an Item and time; a Ritual: two drawn, one picked, success at
    its difficulty, its dice, a failure's damage, then a roll of k random dice at a random Monster, hits
    counted as the To Hit counts them, one at most on the Adversary); the Time Tracker; the dead
    inverting an Item when time passes; the win, the loss and the 60-turn cap. The DM's choices (a
    ``gm`` target) are a random living Character, a GM decision. Left out: every passive (roll bonuses,
    roll limits, armour, immunities, extra damage, Ritual bonuses, max HP), Item actions, Travel, the
    Location deck and vote, peeks, forced travel, time advances of Attacks, ``draw_item``, Road Squid's
    table check, the judge decision, and the offers' and deck reshuffles' bookkeeping (Monsters and
    Rituals drawn with replacement).
    """
    ri = rng.randrange
    decisions = 0
    hp = [0] * players
    dice = [0] * players
    items = [2] * players
    alive = [True] * players
    deck = list(range(len(CHARACTERS)))
    for p in range(players):
        hand = [deck.pop(ri(len(deck))) for _ in range(3)]
        hp[p] = CHAR_HP[hand[ri(3)]]
        decisions += 1
    offer = [ri(60) for _ in range(3)]
    votes = [ri(3) for _ in range(players)]
    decisions += players
    tally = [votes.count(i) for i in range(3)]
    best = max(tally)
    choice = votes[0] if tally.count(best) > 1 and tally[votes[0]] == best else tally.index(best)
    adversary = offer[choice]
    adv_hp = MONSTERS[adversary].hp
    adv_mask = MASKS[adversary]
    top = [c for i, c in enumerate(offer) if i != choice]
    if ri(2):
        top.reverse()
    decisions += 1
    proxies: list[list[int]] = []
    time_ = 0
    active = 0

    def apply(effects: list[tuple[str, str, int, str]], trigger: str) -> int:
        nonlocal adv_hp
        made = 0
        for trig, kind, amount, target in effects:
            if trig != trigger:
                continue
            if kind == "monster_heal":
                adv_hp += amount
                for entry in proxies:
                    entry[1] += amount
                continue
            if target == "gm":
                living = [q for q in range(players) if alive[q]]
                if not living:
                    continue
                targets = [living[ri(len(living))]]
                made += 1
            elif target in ("all", "location"):
                targets = [q for q in range(players) if alive[q]]
            else:
                targets = [active] if alive[active] else []
            for q in targets:
                if kind == "damage":
                    hp[q] -= amount
                    if hp[q] <= 0:
                        alive[q] = False
                elif kind == "lose_dice":
                    dice[q] = max(0, dice[q] - amount)
                elif kind == "gain_dice":
                    dice[q] += amount
                else:
                    hp[q] += amount
        return made

    def tick() -> int:
        nonlocal time_
        made = 0
        time_ = (time_ + 1) % 4
        for q in range(players):
            if not alive[q] and items[q]:
                made += 1  # the revive decision
                if ri(items[q] + 1):  # invert an Item (not "stay dead")
                    items[q] = 0
                    alive[q] = True
                    hp[q] = 3
                    dice[q] = 0
        trigger = "night" if time_ == 3 else "morning" if time_ == 0 else ""
        if trigger:
            made += apply(ADV[adversary] if adv_hp > 0 else [], trigger)
            for card, _ in list(proxies):
                made += apply(PRX[card], trigger)
        return made

    for _turn in range(60):
        card = top.pop(0) if top else ri(60)
        if MASKS[card] & adv_mask and adv_hp > 0:
            proxies.append([card, MONSTERS[card].hp])
        else:
            decisions += apply(ATK[card], "now")
        decisions += apply(ADV[adversary] if adv_hp > 0 else [], "turn")
        for card, _ in list(proxies):
            decisions += apply(PRX[card], "turn")
        p = active
        if alive[p]:
            decisions += 1
            if ri(2 + (items[p] > 0)) == 0:  # Investigate (using an Item is left out)
                items[p] += 1
                decisions += tick()
            else:
                decisions += 1  # the Ritual picked of two
                chance, gain, lose, pain = RIT[ri(30)]
                if rng.random() < chance:
                    dice[p] += gain
                else:
                    dice[p] += lose
                    hp[p] -= pain
                    if hp[p] <= 0:
                        alive[p] = False
                if alive[p] and dice[p]:
                    targets = ([adversary] if adv_hp > 0 else []) + [c for c, _ in proxies]
                    decisions += 1
                    pick = ri(len(targets) + 1)
                    if pick < len(targets):
                        k = 1 + ri(min(12, dice[p]))
                        decisions += 1
                        dice[p] -= k
                        counts = [0] * 6
                        for _ in range(k):
                            counts[ri(6)] += 1
                        sizes = SIZES[targets[pick]]
                        hits = sum(n // s for n, s in zip(counts, sizes, strict=True) if s)
                        if pick == 0 and adv_hp > 0:
                            adv_hp -= min(hits, 1)
                        else:
                            entry = proxies[pick - (adv_hp > 0)]
                            entry[1] -= hits
                            if entry[1] <= 0:
                                proxies.remove(entry)
                decisions += tick()
        if adv_hp <= 0 and not proxies:
            return decisions
        if not any(alive):
            return decisions
        for step in range(1, players + 1):
            q = (p + step) % players
            if alive[q]:
                break
        active = q
    return decisions


def speed_rows(seconds: float, seat_counts: Sequence[int]) -> list[str]:
    rows = [
        "| random play (player seats + a GM seat) | games/s | decisions/s | decisions per game | µs per decision "
        "| games/s vs bare loop |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for players in seat_counts:
        bare_games, bare_decisions, bare_per_game = bare_play(bare_game, players, seconds)
        # A GM seat beside the player seats; game n played from seed n.
        per_second, decisions, per_game = random_play(engines.get(GAME), players + 1, seconds, seed_each_game=True)
        rows.append(
            f"| bare loop of the core rules (yardstick), {players} players | {bare_games:,.1f} "
            f"| {bare_decisions:,.0f} | {bare_per_game:,.1f} | {1e6 / bare_decisions:.1f} | 1.00x |"
        )
        rows.append(
            f"| engine API, `apply_action`, {players} players + GM | {per_second:,.1f} | {decisions:,.0f} "
            f"| {per_game:,.1f} | {1e6 / decisions:.1f} | {per_second / bare_games:.2f}x |"
        )
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="seeded games per cell of the team table (0: none)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player seat counts (2 to 5)")
    parser.add_argument("--speed-seconds", type=float, default=5.0, help="how long to time random play (0: not at all)")
    args = parser.parse_args(argv)
    if any(not 2 <= n <= 5 for n in args.players):
        parser.error("--players takes player seat counts from 2 to 5")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    command = "tests/benchmarks/watching_us_bots.py " + " ".join(sys.argv[1:] if argv is None else argv)
    print(f"Command: `.venv/bin/python {command.strip()}`  ")
    print(f"Date: {datetime.date.today().isoformat()}, one core, Python {sys.version.split()[0]}\n")
    if args.speed_seconds > 0:
        print("\n".join(speed_rows(args.speed_seconds, args.players)) + "\n", flush=True)
    if args.games:
        print("\n".join(team_rows(args.games, args.players)), flush=True)


if __name__ == "__main__":
    main()
