"""Benchmark: recomputing a season of two-player series, the trueskill package beside the closed form.

Run: ``.venv/bin/python tests/benchmarks/ratings_speed.py`` (``--series``, ``--versions``,
``--prefix`` and ``--seed`` change the season). It pins itself to one core and prints a
Markdown table:

* updates per second of the package's ``rate_1vs1`` (built-in backend), timed on the
  season's first ``--prefix`` series, and of ``arena.ratings.closed_form.recompute``;
* the time each would take for the whole season, projected from those rates;
* the measured time of ``recompute`` over the whole season;
* the largest difference in μ or σ between the two after the prefix.

The season is random pairings among ``--versions`` versions; outcomes follow hidden skills,
with draws, so ratings spread and σ shrink as in a real season.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.append(str(Path(__file__).resolve().parents[2] / "platform"))  # appended: never before the standard library

import trueskill

from arena.ratings.closed_form import TrueSkillParameters, recompute

PARAMS = TrueSkillParameters(draw_probability=0.1)

Result = tuple[int, int, int]


def make_season(series: int, versions: int, seed: int) -> list[Result]:
    """Return random pairings whose outcomes follow hidden skills: 1 a won, 0 a draw, -1 b won."""
    rng = random.Random(seed)
    skills = [rng.gauss(PARAMS.mu, PARAMS.sigma) for _ in range(versions)]
    noise = 2 * PARAMS.beta
    draw_band = 0.15 * noise
    results = []
    for _ in range(series):
        a = rng.randrange(versions)
        b = rng.randrange(versions - 1)
        b += b >= a
        performance = skills[a] - skills[b] + rng.gauss(0, noise)
        results.append((a, b, 0 if abs(performance) < draw_band else (1 if performance > 0 else -1)))
    return results


def package_recompute(results: list[Result], env: trueskill.TrueSkill) -> dict[int, trueskill.Rating]:
    """Return the ratings after ``results`` by the package, one ``rate_1vs1`` per series."""
    ratings: dict[int, trueskill.Rating] = {}
    for a, b, outcome in results:
        rating_a = ratings.get(a) or env.create_rating()
        rating_b = ratings.get(b) or env.create_rating()
        if outcome == -1:
            ratings[b], ratings[a] = trueskill.rate_1vs1(rating_b, rating_a, env=env)
        else:
            ratings[a], ratings[b] = trueskill.rate_1vs1(rating_a, rating_b, drawn=outcome == 0, env=env)
    return ratings


def timed(function, *args):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--series", type=int, default=1_000_000, help="series in the season (default 1,000,000)")
    parser.add_argument("--versions", type=int, default=10_000, help="bot versions in the season (default 10,000)")
    parser.add_argument("--prefix", type=int, default=20_000, help="series rated by the package (default 20,000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    results, generate_seconds = timed(make_season, args.series, args.versions, args.seed)
    prefix = results[: args.prefix]
    draws = sum(1 for _, _, outcome in results if outcome == 0)
    print(
        f"season: {len(results):,} series among {args.versions:,} versions, {draws / len(results):.1%} drawn, "
        f"seed {args.seed} (generated in {generate_seconds:.1f} s); {PARAMS}"
    )

    package_ratings, package_seconds = timed(package_recompute, prefix, PARAMS.to_env())
    fast_prefix_ratings, _ = timed(recompute, prefix, PARAMS)
    fast_ratings, fast_seconds = timed(recompute, results, PARAMS)

    largest_difference = max(
        max(abs(mu - package_ratings[key].mu), abs(sigma - package_ratings[key].sigma))
        for key, (mu, sigma) in fast_prefix_ratings.items()
    )
    package_rate = len(prefix) / package_seconds
    fast_rate = len(results) / fast_seconds
    sigmas = sorted(sigma for _, sigma in fast_ratings.values())

    print()
    print("| | trueskill package (built-in backend) | closed form `recompute` |")
    print("|---|---:|---:|")
    print(f"| updates/s | {package_rate:,.0f} (on {len(prefix):,}) | {fast_rate:,.0f} (on {len(results):,}) |")
    print(
        f"| projected time for {len(results):,} series | {len(results) / package_rate:.1f} s "
        f"| {len(results) / fast_rate:.1f} s |"
    )
    print(f"| measured time for {len(results):,} series | — | {fast_seconds:.2f} s |")
    print(f"| speed-up | 1× | {fast_rate / package_rate:.0f}× |")
    print(f"| largest μ or σ difference after {len(prefix):,} series | — | {largest_difference:.1e} |")
    print()
    print(f"after the season: median σ {sigmas[len(sigmas) // 2]:.3f}, range {sigmas[0]:.3f}–{sigmas[-1]:.3f}")


if __name__ == "__main__":
    main()
