"""Benchmark: how well the ladder's own pairing and ratings recover strengths that are known.

Run: ``.venv/bin/python tests/benchmarks/rating_accuracy.py`` (``--series 5000 --seeds 1`` for
a quicker run). A synthetic field of ``--bots`` versions with known strengths (normal, mean
25, sd 8) plays series paired by the platform's own matchmaker
(``arena.matchmaking.pairing.plan_round``, the season's default policy) and rated by the
platform's own two-player TrueSkill (``arena.ratings.closed_form.rate_1vs1``), once for each
τ compared: σ/100, σ/1000 and 0. A series is won by the higher performance, strength plus
normal noise of sd β (25/6); performances closer than a margin are a draw, about 10 % of
series between equals (the Watch declaration's draw probability). As a yardstick, a
Bradley–Terry fit (Zermelo's iteration, a draw half a win) on the very same series ranks
the field from the results alone.

It prints Kendall's τ between the true order and the leaderboard (μ − 3σ, what the site
ranks by) per series played, for each τ and for the fit, the median over ``--seeds``
fields. A change to ratings or pairing shows its effect here. Figures and the command are
recorded in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "platform"))  # appended: never before the standard library

from arena.matchmaking.pairing import Candidate, MatchmakingPolicy, plan_round  # noqa: E402
from arena.ratings.closed_form import TrueSkillParameters, rate_1vs1  # noqa: E402
from engines.declaration import BETA, MU, SIGMA  # noqa: E402

DRAW_PROBABILITY = 0.10
CHECKPOINTS = (500, 1000, 2000, 5000, 10000)
TAUS = (("σ/100", SIGMA / 100), ("σ/1000", SIGMA / 1000), ("0", 0.0))
SLOTS = 8  # series per matchmaker round, as a busy season


def kendall_tau(truth: Sequence[float], estimate: Sequence[float]) -> float:
    """Return Kendall's τ-b between two scorings of the same items."""
    concordant = discordant = ties_a = ties_b = 0
    n = len(truth)
    for i in range(n):
        for j in range(i + 1, n):
            a = truth[i] - truth[j]
            b = estimate[i] - estimate[j]
            if a == 0 and b == 0:
                continue
            if a == 0:
                ties_a += 1
            elif b == 0:
                ties_b += 1
            elif (a > 0) == (b > 0):
                concordant += 1
            else:
                discordant += 1
    total = concordant + discordant
    return (concordant - discordant) / math.sqrt((total + ties_a) * (total + ties_b))


def bradley_terry(bots: int, results: Sequence[tuple[int, int, float]], iterations: int = 300) -> list[float]:
    """Return Bradley–Terry strengths (log scale) fitted to ``(a, b, score of a)`` results by Zermelo's iteration.

    A draw counts half a win for each; one virtual draw of every bot against a fixed
    reference of strength 1 keeps every strength finite.
    """
    wins = [0.5] * bots  # the virtual draw
    games: dict[tuple[int, int], int] = {}
    for a, b, score in results:
        wins[a] += score
        wins[b] += 1 - score
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0) + 1
    strength = [1.0] * bots
    for _ in range(iterations):
        denominator = [1.0 / (s + 1.0) for s in strength]  # the virtual game against strength 1
        for (a, b), count in games.items():
            share = count / (strength[a] + strength[b])
            denominator[a] += share
            denominator[b] += share
        strength = [wins[i] / denominator[i] for i in range(bots)]
    return [math.log(s) for s in strength]


def run_field(seed: int, bots: int, series: int) -> dict[str, dict[int, float]]:
    """Play one synthetic field for every τ; return Kendall's τ per checkpoint, per variant.

    The pairing follows the ratings, so each τ plays its own series (from the same seeds);
    the Bradley–Terry fit is made on each τ's series.
    """
    field_rng = random.Random(seed)
    truth = [field_rng.gauss(MU, 8.0) for _ in range(bots)]
    # P(|N(0, β√2)| < margin) = draw probability.
    margin = statistics.NormalDist(0, BETA * math.sqrt(2)).inv_cdf(0.5 + DRAW_PROBABILITY / 2)
    policy = MatchmakingPolicy()
    found: dict[str, dict[int, float]] = {}
    for label, tau in TAUS:
        params = TrueSkillParameters(mu=MU, sigma=SIGMA, beta=BETA, tau=tau, draw_probability=DRAW_PROBABILITY)
        ratings = [(MU, SIGMA)] * bots
        played = [0] * bots
        results: list[tuple[int, int, float]] = []
        pair_rng = random.Random(seed * 7 + 1)  # the same pairing and outcome draws for every τ
        play_rng = random.Random(seed * 7 + 2)
        scores: dict[int, float] = {}
        bt_scores: dict[int, float] = {}
        while len(results) < series:
            candidates = [
                Candidate(version_id=i, bot_id=i, mu=mu, sigma=sigma, series_played=played[i], running=0)
                for i, (mu, sigma) in enumerate(ratings)
            ]
            for a, b in plan_round(candidates, SLOTS, policy, pair_rng):
                gap = (truth[a] + play_rng.gauss(0, BETA)) - (truth[b] + play_rng.gauss(0, BETA))
                if abs(gap) < margin:
                    ratings[a], ratings[b] = rate_1vs1(ratings[a], ratings[b], True, params)
                    results.append((a, b, 0.5))
                elif gap > 0:
                    ratings[a], ratings[b] = rate_1vs1(ratings[a], ratings[b], False, params)
                    results.append((a, b, 1.0))
                else:
                    ratings[b], ratings[a] = rate_1vs1(ratings[b], ratings[a], False, params)
                    results.append((a, b, 0.0))
                played[a] += 1
                played[b] += 1
                if len(results) in CHECKPOINTS and len(results) <= series:
                    scores[len(results)] = kendall_tau(truth, [mu - 3 * sigma for mu, sigma in ratings])
                    bt_scores[len(results)] = kendall_tau(truth, bradley_terry(bots, results))
                if len(results) >= series:
                    break
        found[f"τ = {label}"] = scores
        found[f"BT fit ({label})"] = bt_scores
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=10000, help="series per field (default 10,000)")
    parser.add_argument("--bots", type=int, default=40, help="versions in the field (default 40)")
    parser.add_argument("--seeds", type=int, default=5, help="fields to play; the median is shown (default 5)")
    args = parser.parse_args()
    started = time.perf_counter()
    runs = [run_field(seed, args.bots, args.series) for seed in range(1, args.seeds + 1)]
    checkpoints = [c for c in CHECKPOINTS if c <= args.series]
    print(f"Kendall's τ of the leaderboard (μ − 3σ) against the true order: {args.bots} bots, median of {args.seeds}")
    print(f"field(s), the platform's pairing and two-player TrueSkill (β {BETA:.3f}, draw probability 0.10)\n")
    variants = list(runs[0])
    print("| series | " + " | ".join(variants) + " |")
    print("|---:|" + "---:|" * len(variants))
    for checkpoint in checkpoints:
        cells = [f"{statistics.median(run[v][checkpoint] for run in runs):.3f}" for v in variants]
        print(f"| {checkpoint:,} | " + " | ".join(cells) + " |")
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
