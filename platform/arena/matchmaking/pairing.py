"""Plan the next series of a ladder season: who plays whom, and when a version is disabled.

Pure Python, no Django: the beat task loads the season's active versions as
``Candidate`` rows, asks ``plan_round`` for as many groups as there are free
match-worker slots, and creates one ``Series`` per group.

The design follows the matchmakers of the Halite competitions and the Google AI
Challenge: the player who has played least is seeded, and its opponents are
drawn at random among players of similar skill.

* **Seed** with the version that has the fewest series, counting those finished,
  those running and those planned earlier in this round, so no version starves
  and a version already busy waits its turn. A new upload has none, so it is
  seeded first and placed by the next beat. Ties are broken at random.
* **Opponents** come from the ``nearest`` available versions by μ around the
  seed (a walk outwards in a μ-sorted array, so no version is ever compared with
  all the others), never of the seed's own bot. Each is weighed by its TrueSkill
  match quality with the seed raised to the power 1 / ``temperature``, halved for
  every ``load_halving`` series it has more than the least busy of them, and one
  is drawn: close, informative games are likely without the same game recurring.
  The load term matters because match quality favours low-σ opponents (at the
  default temperature an established σ of 1 outweighs a new upload's 8.3 by up
  to 200 to 1), and σ shrinks with play: without it the established versions are
  drawn again and again. In the fairness test's
  simulated season (300 versions, 40 workers, 300 rounds) the series played
  span 42 without it and 7 with it, at about the same mean match quality.
  For groups of N > 2 the N - 1 opponents are drawn one after another the same
  way, each from a bot not yet in the group.
* **Concurrency**: a version is in at most ``max_concurrent_per_version`` series
  at once, counting those planned in this round. A version at the cap is
  unlinked from the μ-sorted array (skip pointers with path halving), so later
  walks step over it in amortised constant time.

A round costs O(n log n) for the sort and the seed heap plus about ``nearest``
steps per group, and one more for each version of the seed's own bot passed on
the way (a bot keeps a handful of versions active, so a few steps); the round
stops as soon as fewer than ``group_size`` bots have a version available.
tests/benchmarks/matchmaking_speed.py times it for 10,000 versions.
"""

from __future__ import annotations

import heapq
import math
import operator
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engines.declaration import BETA as DEFAULT_BETA  # the platform's scale; a game may declare its own


@dataclass(frozen=True, slots=True)
class Candidate:
    """One active bot version as the matchmaker sees it.

    ``series_played`` counts its finished series and ``running`` those queued or
    in progress.
    """

    version_id: int
    bot_id: int
    mu: float
    sigma: float
    series_played: int
    running: int


@dataclass(frozen=True, slots=True)
class MatchmakingPolicy:
    """How a season pairs its versions.

    ``nearest`` is how many available versions of other bots, closest by μ to
    the seed, are weighed as its opponents. ``temperature`` is the randomness:
    an opponent's weight is its match quality ** (1 / temperature), so 1 draws in
    proportion to quality, infinity uniformly among the nearest, and 0 always
    takes the best quality (the load term aside). ``load_halving`` spreads the
    series evenly: the weight halves for every that many series an opponent has
    more than the least busy one weighed (infinity turns this off). ``beta`` is
    the season's TrueSkill beta, the one environment parameter match quality
    depends on (not tau, nor the draw probability).
    """

    max_concurrent_per_version: int = 2
    group_size: int = 2
    nearest: int = 16
    temperature: float = 0.1
    load_halving: float = 2.0
    beta: float = DEFAULT_BETA

    def __post_init__(self) -> None:
        if self.group_size < 2:
            raise ValueError(f"group_size must be at least 2 (a series needs two players), got {self.group_size}")
        if self.max_concurrent_per_version < 1:
            raise ValueError(f"max_concurrent_per_version must be at least 1, got {self.max_concurrent_per_version}")
        if self.nearest < self.group_size - 1:
            raise ValueError(
                f"nearest must be at least group_size - 1 = {self.group_size - 1} to fill a group, got {self.nearest}"
            )
        if not self.temperature >= 0:
            raise ValueError(f"temperature must be zero or more, got {self.temperature}")
        if not self.load_halving > 0:
            raise ValueError(f"load_halving must be positive, got {self.load_halving}")
        if not (self.beta > 0 and math.isfinite(self.beta)):
            raise ValueError(f"beta must be positive and finite, got {self.beta}")


def match_quality(mu_a: float, sigma_a: float, mu_b: float, sigma_b: float, beta: float = DEFAULT_BETA) -> float:
    """Return TrueSkill's match quality of a two-player game: ``trueskill.quality_1vs1`` in closed form.

    It is the probability of a draw relative to the most even game possible:
    sqrt(2β² / c) · exp(-(μa - μb)² / 2c) with c = 2β² + σa² + σb².
    """
    two_beta_sq = 2 * beta * beta
    spread = two_beta_sq + sigma_a * sigma_a + sigma_b * sigma_b
    gap = mu_a - mu_b
    return math.sqrt(two_beta_sq / spread) * math.exp(-gap * gap / (2 * spread))


def plan_round(
    candidates: Sequence[Candidate], slots: int, policy: MatchmakingPolicy, rng: random.Random
) -> list[tuple[int, ...]]:
    """Return up to ``slots`` groups of version ids to start now, each seed first.

    Fewer come back when no valid group is left: every remaining version is at
    its concurrency cap or only versions of its own bot remain. The groups
    depend only on the candidates (not their order), the policy and the state of
    ``rng``. Seats are the caller's to assign.
    """
    if slots < 0:
        raise ValueError(f"slots must be zero or more, got {slots}")
    group_size = policy.group_size
    # Positions 1..n in μ order, version id breaking ties (the second, stable sort is
    # cheap when the caller passes rows in id order); 0 and n + 1 are sentinels.
    ordered = sorted(candidates, key=operator.attrgetter("version_id"))
    ordered.sort(key=operator.attrgetter("mu"))
    n = len(ordered)
    version_ids = [None, *map(operator.attrgetter("version_id"), ordered), None]
    bot_ids = [None, *map(operator.attrgetter("bot_id"), ordered), None]
    mus = [0.0, *map(operator.attrgetter("mu"), ordered), 0.0]
    sigmas = [1.0, *map(operator.attrgetter("sigma"), ordered), 1.0]
    running = [0, *map(operator.attrgetter("running"), ordered), 0]
    load = [0, *map(operator.attrgetter("series_played"), ordered), 0]
    _check_candidates(ordered, version_ids, mus, sigmas, running, load)
    if slots == 0 or n < group_size:
        return []
    mus[0] = -math.inf
    mus[n + 1] = math.inf
    variances = [sigma * sigma for sigma in sigmas]
    load = list(map(operator.add, load, running))

    cap = policy.max_concurrent_per_version
    # right[i] and left[i] lead towards the nearest available position on that side of i.
    right = list(range(n + 2))
    left = list(range(n + 2))
    for position in [position for position in range(1, n + 1) if running[position] >= cap]:
        right[position] = position + 1
        left[position] = position - 1
    # Seeds by load, ties at random: the key is the load plus a random fraction below
    # 0.5, so an entry is stale exactly when its version's load has since passed it.
    random_fraction = rng.random
    seeds = [(load[p] + 0.5 * random_fraction(), p) for p in range(1, n + 1) if running[p] < cap]
    heapq.heapify(seeds)
    # While at least group_size bots have an available version, every seed finds its
    # opponents; below that no seed can, and the round ends instead of walking in vain.
    available_per_bot = Counter(bot_ids[p] for _, p in seeds)
    available_bots = len(available_per_bot)

    two_beta_sq = 2 * policy.beta * policy.beta
    min_variance = min(variances[1 : n + 1])
    nearest = policy.nearest
    opponents_needed = group_size - 1
    greedy = policy.temperature == 0
    # quality ** k = (2β² / c) ** (k / 2) · exp(-k · gap² / 2c), with k = 1 / temperature
    half_power = 0.0 if greedy else 0.5 / policy.temperature
    gap_factor = 0.0 if greedy else -0.5 / policy.temperature
    load_factor = math.log(2) / policy.load_halving
    log = math.log
    exp = math.exp
    groups: list[tuple[int, ...]] = []
    while seeds and len(groups) < slots and available_bots >= group_size:
        key, seed = heapq.heappop(seeds)
        if running[seed] >= cap:
            continue
        if load[seed] > key:
            # Chosen as an opponent since this entry was pushed: queue it at its real load.
            heapq.heappush(seeds, (load[seed] + 0.5 * random_fraction(), seed))
            continue

        # Walk outwards from the seed, always to the closer side, over available versions
        # of other bots. This is the round's hot loop: skip pointers are followed only
        # where a neighbour has been unlinked.
        seed_mu = mus[seed]
        seed_bot = bot_ids[seed]
        pool: list[int] = []
        lo = _find(left, seed - 1)
        hi = _find(right, seed + 1)
        while lo or hi <= n:
            # The sentinels' μ of -inf and +inf make an exhausted side never the closer one.
            if mus[hi] - seed_mu < seed_mu - mus[lo]:
                other = hi
                hi += 1
                if right[hi] != hi:
                    hi = _find(right, hi)
            else:
                other = lo
                lo -= 1
                if left[lo] != lo:
                    lo = _find(left, lo)
            if bot_ids[other] != seed_bot:
                pool.append(other)
                if len(pool) >= nearest and (
                    opponents_needed == 1 or len({bot_ids[j] for j in pool}) >= opponents_needed
                ):
                    break
        if not pool or (opponents_needed > 1 and len({bot_ids[j] for j in pool}) < opponents_needed):
            continue  # not reached while available_bots >= group_size; a guard for _draw

        seed_spread = two_beta_sq + variances[seed]
        if greedy:
            # log match quality; only its order matters
            weights = [
                0.5 * log(two_beta_sq / (spread := seed_spread + variances[j]))
                - (gap := mus[j] - seed_mu) * gap / (2 * spread)
                for j in pool
            ]
        else:
            # quality ** k · 2 ** -(extra series / load_halving), scaled by the constant
            # (c_min / 2β²) ** (k / 2) and measured from the least busy opponent, so that no
            # weight exceeds 1 and they all underflow only when every opponent is far off.
            floor_spread = seed_spread + min_variance
            base_load = min(map(load.__getitem__, pool))
            weights = [
                (floor_spread / (spread := seed_spread + variances[j])) ** half_power
                * exp((gap := mus[j] - seed_mu) * gap * gap_factor / spread + (base_load - load[j]) * load_factor)
                for j in pool
            ]
        if opponents_needed == 1:
            group: tuple[int, ...] = (seed, pool[_draw(weights, greedy, rng)])
        else:
            group = _draw_group(seed, pool, weights, bot_ids, opponents_needed, greedy, rng)
        for member in group:
            running[member] += 1
            load[member] += 1
            if running[member] >= cap:
                right[member] = member + 1
                left[member] = member - 1
                available_per_bot[bot_ids[member]] -= 1
                if not available_per_bot[bot_ids[member]]:
                    available_bots -= 1
        if running[seed] < cap:
            heapq.heappush(seeds, (load[seed] + 0.5 * random_fraction(), seed))
        groups.append(tuple([version_ids[member] for member in group]))
    return groups


def _check_candidates(
    ordered: list[Candidate],
    version_ids: list[int | None],
    mus: list[float],
    sigmas: list[float],
    running: list[int],
    played: list[int],
) -> None:
    """Raise ValueError naming the first bad candidate; valid input costs a few C-level passes."""
    if len(set(version_ids)) != len(version_ids) - 1:  # the two sentinels are both None
        seen: set[int] = set()
        for candidate in ordered:
            if candidate.version_id in seen:
                raise ValueError(f"version {candidate.version_id} is a candidate twice")
            seen.add(candidate.version_id)
    if min(running) < 0 or min(played) < 0:
        bad = next(c for c in ordered if c.running < 0 or c.series_played < 0)
        raise ValueError(
            f"version {bad.version_id}: series_played and running must be zero or more, "
            f"got {bad.series_played} and {bad.running}"
        )
    if not (all(map(math.isfinite, mus)) and all(map(math.isfinite, sigmas)) and min(sigmas) > 0):
        bad = next(c for c in ordered if not (math.isfinite(c.mu) and math.isfinite(c.sigma) and c.sigma > 0))
        raise ValueError(
            f"version {bad.version_id}: mu must be finite and sigma positive and finite, "
            f"got mu={bad.mu} sigma={bad.sigma}"
        )


def _find(pointers: list[int], position: int) -> int:
    """Follow skip pointers from ``position`` to the nearest available position on that side, or a sentinel."""
    while pointers[position] != position:
        # Path halving: point each entry passed two steps on, so later walks are short.
        pointers[position] = pointers[pointers[position]]
        position = pointers[position]
    return position


def _draw_group(
    seed: int,
    pool: list[int],
    weights: list[float],
    bot_ids: list[int | None],
    opponents_needed: int,
    greedy: bool,
    rng: random.Random,
) -> tuple[int, ...]:
    """Return the seed and opponents drawn one after another from ``pool``, each of a bot not yet drawn."""
    group = [seed]
    while True:
        chosen = pool[_draw(weights, greedy, rng)]
        group.append(chosen)
        if len(group) > opponents_needed:
            return tuple(group)
        chosen_bot = bot_ids[chosen]
        kept = [k for k, j in enumerate(pool) if bot_ids[j] != chosen_bot]
        pool = [pool[k] for k in kept]
        weights = [weights[k] for k in kept]


def _draw(weights: list[float], greedy: bool, rng: random.Random) -> int:
    """Return the index of the largest weight when greedy, else an index drawn in proportion to the weights.

    When every weight has underflowed to 0 (a tiny temperature and no opponent
    close), the first, the nearest by μ, is taken.
    """
    if greedy:
        return weights.index(max(weights))
    total = sum(weights)
    if not total > 0:
        return 0
    threshold = rng.random() * total
    for index, weight in enumerate(weights):
        threshold -= weight
        if threshold < 0:
            return index
    return len(weights) - 1  # only when rounding leaves the threshold at or just above 0
