"""Benchmark: one round of ladder pairings among 10,000 active versions.

Run: ``.venv/bin/python tests/benchmarks/matchmaking_speed.py`` (``--rounds 20``
by default). It pins itself to one core and prints Markdown tables:

* the median and worst wall time, and the median CPU time, of one
  ``plan_round`` call for several slot counts and group sizes, with the default
  policy (16 nearest weighed) and, for the largest round, 8, on a season of
  10,000 versions of about 1,000 bots (several versions a bot, close in μ as a
  new upload is seeded from its predecessor's), random σ and series counts, 1%
  new uploads, and some versions already running series, 10% of them at the
  concurrency cap of 2;
* beside each round, as the yardstick, the bare core of the same work in the
  same plain Python: the closed-form match quality of the ``nearest``
  neighbours of one random seed a group in a μ-sorted list, nothing else;
* the cost of one match-quality evaluation in the closed form the matchmaker
  uses, beside ``trueskill.quality_1vs1`` from the package, which it equals.

The goal is under 100 ms a round. On a shared 2-core machine times drift
by a factor of two from one minute to the next (CPU time as much as wall
time: the other core's load slows this one); read the ratio to the yardstick
first. Figures and the command are recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.append(str(Path(__file__).resolve().parents[2] / "platform"))  # appended: never before the standard library

import trueskill

from arena.matchmaking.pairing import Candidate, MatchmakingPolicy, match_quality, plan_round

GOAL_MS = 100.0
# (group size, nearest, slots); nearest 16 is the default policy's
ROWS = ((2, 16, 100), (2, 16, 1_000), (2, 16, 5_000), (2, 8, 5_000), (3, 16, 100), (3, 16, 3_000))


def make_season(versions: int, bots: int, rng: random.Random) -> list[Candidate]:
    """Return ``versions`` active versions spread over ``bots`` bots, as a mature season has them."""
    candidates = []
    bot_mus = [rng.gauss(25.0, 6.0) for _ in range(bots)]
    for version_id in range(1, versions + 1):
        bot_id = rng.randrange(bots)
        new_upload = rng.random() < 0.01
        candidates.append(
            Candidate(
                version_id=version_id,
                bot_id=bot_id,
                mu=bot_mus[bot_id] + rng.gauss(0.0, 1.5),
                sigma=25 / 3 if new_upload else rng.uniform(0.8, 4.0),
                series_played=0 if new_upload else rng.randrange(20, 400),
                running=0 if new_upload else rng.choices((0, 1, 2), weights=(70, 20, 10))[0],
            )
        )
    return candidates


def yardstick(mus: list[float], variances: list[float], groups: int, nearest: int, rng: random.Random) -> None:
    """The bare core of a round: match quality of ``nearest`` neighbours in a μ-sorted list for ``groups`` seeds.

    No seeds heap, no walk past busy versions, no bookkeeping: what a round
    could not do without, in the same plain Python.
    """
    two_beta_sq = 2 * (25 / 6) ** 2
    last_start = len(mus) - nearest - 1
    for _ in range(groups):
        start = rng.randrange(last_start)
        seed = start + nearest // 2
        seed_mu, seed_spread = mus[seed], two_beta_sq + variances[seed]
        qualities = [
            math.sqrt(two_beta_sq / (spread := seed_spread + variances[j]))
            * math.exp(-((mus[j] - seed_mu) ** 2) / (2 * spread))
            for j in range(start, start + nearest + 1)
            if j != seed
        ]
        max(qualities)


def time_rounds(
    candidates: list[Candidate], slots: int, policy: MatchmakingPolicy, rounds: int
) -> tuple[list[float], list[float], list[float], int]:
    """Return the wall and CPU seconds of each round, the yardstick's wall seconds, and the groups planned."""
    ordered = sorted(candidates, key=lambda c: c.mu)
    mus = [c.mu for c in ordered]
    variances = [c.sigma**2 for c in ordered]
    wall, cpu, bare = [], [], []
    groups: list[tuple[int, ...]] = []
    for round_number in range(rounds):
        rng = random.Random(round_number)
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        groups = plan_round(candidates, slots, policy, rng)
        cpu.append(time.process_time() - cpu_start)
        wall.append(time.perf_counter() - wall_start)
        # Right after the round, so that both see the machine in the same mood.
        bare_start = time.perf_counter()
        yardstick(mus, variances, len(groups), policy.nearest, rng)
        bare.append(time.perf_counter() - bare_start)
    return wall, cpu, bare, len(groups)


def time_quality(calls: int) -> tuple[float, float]:
    """Return microseconds a call of the closed form and of ``trueskill.quality_1vs1``."""
    env = trueskill.TrueSkill()
    rng = random.Random(1)
    pairs = [
        (rng.uniform(10, 40), rng.uniform(0.8, 8.3), rng.uniform(10, 40), rng.uniform(0.8, 8.3)) for _ in range(calls)
    ]
    ratings = [
        (env.create_rating(mu_a, sigma_a), env.create_rating(mu_b, sigma_b)) for mu_a, sigma_a, mu_b, sigma_b in pairs
    ]
    start = time.perf_counter()
    for mu_a, sigma_a, mu_b, sigma_b in pairs:
        match_quality(mu_a, sigma_a, mu_b, sigma_b, env.beta)
    closed_form = time.perf_counter() - start
    start = time.perf_counter()
    for rating_a, rating_b in ratings:
        trueskill.quality_1vs1(rating_a, rating_b, env=env)
    package = time.perf_counter() - start
    return closed_form / calls * 1e6, package / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, default=10_000)
    parser.add_argument("--bots", type=int, default=1_000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    candidates = make_season(args.versions, args.bots, random.Random(2026))
    at_cap = sum(c.running >= 2 for c in candidates)
    print(
        f"Python {sys.version.split()[0]}, one core, {args.versions:,} versions of "
        f"{len({c.bot_id for c in candidates}):,} bots ({at_cap:,} already at the cap of 2), "
        f"{args.rounds} rounds a row\n"
    )
    print(
        "| group size | nearest | slots | groups planned | median ms | worst ms | median CPU ms "
        "| yardstick median ms | round / yardstick | goal < 100 ms |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for group_size, nearest, slots in ROWS:
        policy = MatchmakingPolicy(group_size=group_size, nearest=nearest)
        wall, cpu, bare, planned = time_rounds(candidates, slots, policy, args.rounds)
        median_ms, worst_ms = statistics.median(wall) * 1000, max(wall) * 1000
        bare_ms = statistics.median(bare) * 1000
        verdict = "met" if worst_ms < GOAL_MS else ("median met" if median_ms < GOAL_MS else "missed")
        print(
            f"| {group_size} | {nearest} | {slots:,} | {planned:,} | {median_ms:.1f} | {worst_ms:.1f} "
            f"| {statistics.median(cpu) * 1000:.1f} | {bare_ms:.1f} | {median_ms / bare_ms:.1f}x | {verdict} |"
        )
    closed_form_us, package_us = time_quality(20_000)
    print("\n| match quality, one call | µs |")
    print("|---|---:|")
    print(f"| closed form (`match_quality`) | {closed_form_us:.2f} |")
    print(f"| `trueskill.quality_1vs1` | {package_us:.2f} ({package_us / closed_form_us:.0f}x) |")


if __name__ == "__main__":
    main()
