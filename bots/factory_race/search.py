"""The ``search`` reference bot for the factory race: it chooses its plans by playing the futures out.

At its first placement decision of a round it builds the worker plans worth
comparing: the heuristic's own (bots/factory_race/heuristic.py) and
variations on it (:func:`variants`: one pipeline move dropped or none, the
spare workers in the bureau, in housing, on a tile, or kept). For each, on
states rebuilt from its observation (the stacks hold what it has not seen;
the other players' hidden placements this round are filled in with what the
heuristic would place), it places that plan and plays the game out with the
heuristic in every seat and fresh chance, scoring a win (shared wins in part)
and, below that, how far it is ahead in cubes delivered and in blueprints.
Every plan gets one rollout, the heuristic's and the best :data:`FINALISTS`
up to :data:`ROLLOUTS`; it keeps the best plan for the round (in «Вызов»
only if it beats the heuristic's by :data:`MARGIN` over the same rollouts:
the events make a few rollouts flatter lucky plans). When the heuristic
would spend blueprints (an optimisation, or a tile bought), it plays that
spending and not spending out the same way, since blueprints are the first
tie-break. Every other decision is the heuristic's.

A rollout is capped at :data:`HORIZON` rounds and a search stops starting
rollouts after :data:`BUDGET_S` seconds, inside the referee's 2 s a decision
and 60 s a game. Given its seed, the bot is deterministic except for where the
clock stops a search: ``SearchPolicy(seed, budget_s=None, rollouts=k)`` turns
the clock off and gives every option its first rollout and the finalists up
to ``k`` (a fixed amount of work, as the tests use it).
"""

from __future__ import annotations

import math
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
    OPTIMISE,
    OVER,
    PLACE,
    POSTER_CELL,
    REQUEST,
    STAFF,
    STAFF_ASM,
    TAKE,
    FactoryRaceGame,
    FactoryRaceState,
)

ROLLOUTS = 4
#: The options that get more than one rollout (besides the first, the heuristic's own).
FINALISTS = 4
#: How much better (in wins a rollout) an option must score to replace the first, in «Вызов»: its
#: events make a few rollouts flatter lucky options. In the base mode only the tile draws are chance,
#: rollouts are all but exact, and the best option is taken.
MARGIN = 0.25
HORIZON = 12
BUDGET_S = 1.0
#: The first rollout of each option stops being started after this long (the heuristic's goes first).
FIRST_BUDGET_S = 1.3


def variants(state: FactoryRaceState, player: int) -> list[list[int]]:
    """Return the plans worth comparing this round, the heuristic's first, without duplicates.

    The heuristic's plan is cut into its assembly staffing, its pipeline moves
    and the rest; the variations drop one pipeline move (or none) and spend the
    spare workers five ways: all in the bureau, housing then the bureau, a tile
    (the request and the bureau), the poster cell when the heuristic wants a
    poster, or nothing.
    """
    factory = state.factories[player]
    base = plan(state, player)
    assembly = [a for a in base if STAFF_ASM <= a < HOUSING]
    pipeline = [a for a in base if STAFF <= a < STAFF_ASM]
    gain, price = best_tile(state, player)
    out = [base]
    for drop in [None, *pipeline]:
        core = assembly + [a for a in pipeline if a != drop]
        spare = factory.workers - _cost(state, player, core)
        out.append(core + [BUREAU] * min(spare, data.BUREAU_SPACES))
        out.append(core)
        if factory.housing_left:
            house = data.HOUSING_COSTS[len(data.HOUSING_COSTS) - factory.housing_left]
            if house <= spare:
                out.append(core + [HOUSING] + [BUREAU] * min(spare - house, data.BUREAU_SPACES))
        if POSTER_CELL in base and spare >= data.POSTER_WORKERS:
            out.append(core + [POSTER_CELL] + [BUREAU] * min(spare - data.POSTER_WORKERS, data.BUREAU_SPACES))
        if gain > 0 and spare >= 1 and max(0, price - factory.blueprints) <= min(data.BUREAU_SPACES, spare - 1):
            out.append(core + [REQUEST] + [BUREAU] * min(spare - 1, data.BUREAU_SPACES))
    unique: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for option in out:
        key = tuple(sorted(option))
        if key not in seen:
            seen.add(key)
            unique.append(option)
    return unique


def _cost(state: FactoryRaceState, player: int, actions: Sequence[int]) -> int:
    """Return the workers the staffing ``actions`` (production and assembly machines) take."""
    card = state.factories[player].card
    return sum(data.MACHINE_WORKERS if action < STAFF_ASM else card[action - STAFF_ASM].workers for action in actions)


def rollout(state: FactoryRaceState, seed: int, horizon_round: int) -> None:
    """Play ``state`` on with the heuristic in every seat until the game ends or the horizon.

    Each kind of chance (tiles, posters, events, the die) has its own generator
    seeded from ``seed``, so rollouts of different plans with one seed meet the
    same events in the same rounds even when they draw different numbers of
    tiles: common random numbers that hold.
    """
    streams: dict[str, random.Random] = {}
    while state.phase != OVER and state.round <= horizon_round:
        if state.is_chance_node():
            kind = state.draws[0][0]
            rng = streams.get(kind)
            if rng is None:
                rng = streams[kind] = random.Random(f"{seed}:{kind}")
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

    def __init__(self, seed: int | None = None, budget_s: float | None = BUDGET_S, rollouts: int = ROLLOUTS) -> None:
        self._rng = random.Random(seed)
        self._plan: list[int] = []
        #: Seconds after which a search starts no more rollouts (the first ones get a little more); None: no clock.
        self.budget_s = budget_s
        #: Rollouts of each finalist at most.
        self.rollouts = rollouts

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return an action: the chosen plan's next placement, a spending checked by rollouts, or the heuristic's."""
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
        if action not in legal:
            return legal[0]
        if action != DONE and DONE in legal and (state.phase == OPTIMISE or state.step == TAKE):
            # Blueprints spent now are blueprints missing from the tie-break: is the spending worth it?
            keep = self._best(state, player, [[action], [DONE]])
            return action if keep == 0 else DONE
        return action

    def _search(self, state: FactoryRaceState, player: int) -> list[int]:
        options = variants(state, player)
        if len(options) == 1:
            return list(options[0])
        return list(options[self._best(state, player, options, placing=True)])

    def _best(self, state: FactoryRaceState, player: int, options: list[list[int]], placing: bool = False) -> int:
        """Return the index of the option (actions of ``player`` from ``state``) whose rollouts score best.

        Every option gets one rollout; the best :data:`FINALISTS` get more, up
        to ``self.rollouts`` each, while the budget lasts. Each rollout of a
        round meets the same chance (common random numbers).
        """
        started = time.perf_counter()
        totals = [0.0] * len(options)
        runs = [0] * len(options)
        seeds = [self._rng.getrandbits(32) for _ in range(self.rollouts)]
        contenders = list(range(len(options)))
        for run in range(self.rollouts):
            for index in contenders:
                # The first round of rollouts may run a little longer, so that most options get one;
                # options never played out are not chosen.
                if self.budget_s is not None and time.perf_counter() - started > (
                    self.budget_s if run else self.budget_s * FIRST_BUDGET_S / BUDGET_S
                ):
                    break
                trial = state.clone()
                if placing:
                    place_others_first(trial, player)
                for action in options[index]:
                    if action in trial.legal_actions():
                        trial.apply_action(action)
                if placing and trial.phase == PLACE and trial.to_move == player:
                    trial.apply_action(DONE)
                rollout(trial, seeds[run], state.round + HORIZON)
                totals[index] += value(trial, player)
                runs[index] += 1
            ranked = sorted(contenders, key=lambda i: (-totals[i] / runs[i] if runs[i] else math.inf, i))
            contenders = sorted({0, *ranked[:FINALISTS]})  # the heuristic's own option stays to the end
        best = max(contenders, key=lambda i: (totals[i] / runs[i] if runs[i] else -1.0, -i))
        # A few rollouts flatter whichever option met lucky chance: leave the first option (the
        # heuristic's) only for one that beats it clearly over the same rollouts.
        mean = [totals[i] / runs[i] if runs[i] else -1.0 for i in range(len(options))]
        margin = MARGIN if state.challenge else 0.0
        return best if mean[best] - mean[0] >= margin else 0
