"""The ``search`` reference bot for the factory race: it chooses each round's plan by playing the futures out.

At its first placement decision of a round it builds a handful of worker
plans: the heuristic's own (bots/factory_race/heuristic.py) and variations on
it (no housing, housing even late, a tile bought with the bureau's help,
every spare worker in the bureau, the pipeline alone). For each, on states
rebuilt from its observation (the stacks hold what it has not seen; the
other players' hidden placements this round are filled in with what the
heuristic would place), it places that plan and plays the game out
:data:`ROLLOUTS` times with the heuristic in every seat and fresh chance,
scoring a win (shared wins in part) and, below that, how far it is ahead in
cubes delivered and in the tie-breaks. It keeps the best plan for the
round; every other decision is the heuristic's.

A rollout is capped at :data:`HORIZON` rounds and the search at
:data:`BUDGET_S` seconds a round, far inside the referee's 2 s a decision and
60 s a game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

import engines
from bots.factory_race.heuristic import best_tile, decide, plan
from engines.factory_race import data
from engines.factory_race.game import (
    BUREAU,
    DONE,
    HOUSING,
    OVER,
    PLACE,
    REQUEST,
    FactoryRaceGame,
    FactoryRaceState,
)

ROLLOUTS = 4
HORIZON = 12
BUDGET_S = 1.0


def variants(state: FactoryRaceState, player: int) -> list[list[int]]:
    """Return the plans worth comparing this round, the heuristic's first, without duplicates."""
    factory = state.factories[player]
    base = plan(state, player)
    workers = factory.workers
    core = [a for a in base if a not in (HOUSING, BUREAU, REQUEST)]
    spare = workers - _cost(state, player, core)
    out = [base, core]
    bureau = [BUREAU] * min(spare, data.BUREAU_SPACES)
    out.append(core + bureau)
    if factory.housing_left:
        price = data.HOUSING_COSTS[len(data.HOUSING_COSTS) - factory.housing_left]
        if price <= spare:
            out.append(core + [HOUSING] + [BUREAU] * min(spare - price, data.BUREAU_SPACES))
    gain, price = best_tile(state, player)
    if gain > 0 and spare >= 1:
        short = max(0, price - factory.blueprints)
        if short <= min(data.BUREAU_SPACES, spare - 1):
            out.append(core + [REQUEST] + [BUREAU] * min(spare - 1, data.BUREAU_SPACES))
    unique: list[list[int]] = []
    for option in out:
        if sorted(option) not in [sorted(seen) for seen in unique]:
            unique.append(option)
    return unique


def _cost(state: FactoryRaceState, player: int, actions: Sequence[int]) -> int:
    trial = state.clone()
    factory = trial.factories[player]
    before = factory.placed()
    for action in actions:
        trial._place(factory, action)
    return factory.placed() - before


def rollout(state: FactoryRaceState, rng: random.Random, horizon_round: int) -> None:
    """Play ``state`` on with the heuristic in every seat until the game ends or the horizon."""
    while state.phase != OVER and state.round <= horizon_round:
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(decide(state, state.legal_actions()))


def value(state: FactoryRaceState, player: int) -> float:
    """Return how good the end of a rollout is for ``player``: a win first, then the lead."""
    score = 0.0
    if state.phase == OVER and player in state.winners:
        score += 1.0 / len(state.winners)
    mine = state.factories[player]
    others = [f for index, f in enumerate(state.factories) if index != player]
    need = sum(len(machine.squares) for machine in mine.card)
    lead = mine.delivered() - max(other.delivered() for other in others)
    score += 0.1 * lead / need
    score += 0.01 * (mine.blueprints - max(other.blueprints for other in others)) / data.MAX_BLUEPRINTS
    return score


def place_others_first(state: FactoryRaceState, player: int) -> None:
    """Fill in the placements this round of the players before ``player`` (hidden from it) with the heuristic's."""
    state.order_index = 0
    while state.phase == PLACE and state.to_move != player:
        state.to_move = state.order()[state.order_index]
        if state.to_move == player:
            break
        state.apply_action(decide(state, state.legal_actions()))


class SearchPolicy:
    """Chooses each round's worker plan by rollouts of the heuristic; otherwise plays the heuristic."""

    name = "search"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self._plan: list[int] = []

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return an action: the chosen plan's next placement, or the heuristic's choice."""
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        state = FactoryRaceState.from_observation(FactoryRaceGame(observation["config"]), observation)
        player = observation["player"]
        if state.phase == PLACE:
            if state.factories[player].placed() == 0:  # the round's first placement: plan it
                self._plan = self._search(state, player)
            while self._plan:
                action = self._plan.pop(0)
                if action in legal:
                    return action
            return DONE
        action = decide(state, legal)
        return action if action in legal else legal[0]

    def _search(self, state: FactoryRaceState, player: int) -> list[int]:
        options = variants(state, player)
        if len(options) == 1:
            return list(options[0])
        started = time.perf_counter()
        totals = [0.0] * len(options)
        runs = [0] * len(options)
        for run in range(ROLLOUTS):
            # Common random numbers: every plan meets the same chance in its run-th rollout.
            seed = self._rng.getrandbits(32)
            for index, option in enumerate(options):
                if time.perf_counter() - started > BUDGET_S and all(runs):
                    break
                trial = state.clone()
                place_others_first(trial, player)
                for action in option:
                    if action in trial.legal_actions():
                        trial.apply_action(action)
                if trial.phase == PLACE and trial.to_move == player:
                    trial.apply_action(DONE)
                rollout(trial, random.Random(seed + run), state.round + HORIZON)
                totals[index] += value(trial, player)
                runs[index] += 1
        best = max(range(len(options)), key=lambda i: (totals[i] / max(1, runs[i]), -i))
        return list(options[best])
