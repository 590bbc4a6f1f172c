"""The ``search`` reference bot for the Watch factory: determinized rollouts of the heuristic.

Information-set Monte Carlo, flat at the decisions that shape a round: where to
place the worker, which board row to upgrade (or none) and which majority
track takes a token. At such a decision (with more than one legal action) it
samples *determinizations*: full states consistent with its observation
(:func:`bots.watch_factory.determinize.determinize`: the other hands and the
document stack from the unseen documents, the face-down watch cards, the next
market card and the market stack), and in each it plays every option, then
the game to its end with the heuristic (bots/watch_factory/heuristic.py) in
every seat and chance drawn from a generator seeded per sample, so that all
options of one sample meet the same hidden cards and the same draws (common
random numbers). An option is scored by the result for its seat: in
multi-player the rank-based return plus its lead in points over the best
rival (a point is worth :data:`POINT` of a rank), in solo the score.

Options are pruned by successive halving: after every :data:`ROUND_SAMPLES`
samples the worse half (but never the heuristic's own choice) stops being
played, while the budget lasts. The heuristic's choice is kept unless another
option beats it by :data:`MARGIN` on the same samples. Every other decision is
the heuristic's.

Budget: sampling stops after :data:`BUDGET_S` seconds (0.4 s) at a placement
and :data:`PART_BUDGET_S` (0.15 s) at an upgrade or a track, or after
:data:`MAX_SAMPLES` samples: at most 0.85 s in a round (a placement, an
upgrade and its two tokens), well inside the referee's 2 s a decision.
Given its seed, the bot is deterministic except for where the clock stops
sampling (``budget_s=None`` gives a fixed number of samples, independent of
the clock).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

import engines
from bots.watch_factory.determinize import Tracker, determinize
from bots.watch_factory.heuristic import decide
from engines.watch_factory.game import OVER, S_PLACE, S_TRACK, S_UPGRADE, WatchFactoryState

#: Seconds of sampling for a placement; an upgrade or a track gets :data:`PART_BUDGET_S`.
BUDGET_S = 0.4
PART_BUDGET_S = 0.15
#: Samples per searched decision at most (and the whole number without a clock).
MAX_SAMPLES = 64
#: Samples between two halvings of the options.
ROUND_SAMPLES = 8
#: What a point of lead is worth, in ranks (multi-player).
POINT = 0.02
#: How much better than the heuristic's choice an option must score, per sample, to be taken.
MARGIN = 0.02
SEARCHED = (S_PLACE, S_UPGRADE, S_TRACK)


def rollout(state: WatchFactoryState, rng: random.Random) -> None:
    """Play ``state`` to its end with the heuristic in every seat and chance from ``rng``."""
    while state.phase != OVER:
        if state.draws:
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(decide(state, state.legal_actions()))


def value(state: WatchFactoryState, player: int) -> float:
    """Return how good a finished rollout is for ``player``."""
    outcome = state.outcome()
    assert outcome is not None
    scores = [stats["score"] for stats in outcome.stats]
    if state.num_players == 1:
        return float(scores[0])
    lead = scores[player] - max(s for q, s in enumerate(scores) if q != player)
    return outcome.returns[player] + POINT * lead


class SearchPolicy:
    """Chooses placements, upgrades and tracks by determinized rollouts; otherwise plays the heuristic."""

    name = "search"

    def __init__(self, seed: int | None = None, budget_s: float | None = BUDGET_S, samples: int = MAX_SAMPLES) -> None:
        self._rng = random.Random(seed)
        self._tracker = Tracker()
        self.budget_s = budget_s
        self.samples = samples
        #: (samples, options) of the last search, for the benchmark and the tests.
        self.last_search: tuple[int, int] = (0, 0)

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return an action: searched at the round's shaping decisions, the heuristic's elsewhere."""
        legal = list(legal_actions)
        self._tracker.observe(observation)
        if len(legal) == 1:
            action = legal[0]
        else:
            state = determinize(observation, self._rng, legal, self._tracker)
            action = decide(state, legal)
            if action not in legal:
                action = legal[0]
            if observation["step"] in SEARCHED:
                action = self._search(observation, legal, action)
        self._tracker.answered(observation, action)
        return action

    def _search(self, observation: Mapping[str, Any], legal: list[int], default: int) -> int:
        started = time.perf_counter()
        me = observation["player"]
        budget = self.budget_s
        if budget is not None and observation["step"] != S_PLACE:
            budget *= PART_BUDGET_S / BUDGET_S
        options = [default] + [a for a in legal if a != default]
        totals = dict.fromkeys(options, 0.0)
        runs = dict.fromkeys(options, 0)
        alive = list(options)
        samples = 0
        while samples < self.samples and len(alive) > 1:
            if budget is not None and time.perf_counter() - started > budget:
                break
            seed = self._rng.getrandbits(32)
            base = determinize(observation, random.Random(seed), legal, self._tracker)
            for action in alive:
                trial = base.clone()
                trial.apply_action(action)
                rollout(trial, random.Random(seed ^ 0x5EED))
                totals[action] += value(trial, me)
                runs[action] += 1
            samples += 1
            if samples % ROUND_SAMPLES == 0 and len(alive) > 2:
                ranked = sorted(alive, key=lambda a: -totals[a] / runs[a])
                keep = ranked[: max(2, len(ranked) // 2)]
                alive = [a for a in alive if a in keep or a == default]
        self.last_search = (samples, len(options))
        if not samples:
            return default
        played = [a for a in options if runs[a] == runs[default]]
        best = max(played, key=lambda a: (totals[a] / runs[a], a == default))
        scale = 1.0 if observation["num_players"] > 1 else 10.0  # solo values are points
        if (totals[best] - totals[default]) / runs[default] > MARGIN * scale:
            return best
        return default
