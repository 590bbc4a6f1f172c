"""The ``heuristic`` reference bot for the factory race: short routes and a full pipeline of cubes.

It rebuilds the position from its observation
(:meth:`FactoryRaceState.from_observation`) and measures a factory by its
*distance*: for each square of the assembly card still empty, the fewest
moves that bring the nearest cube of that colour to the assembly shop (a move
is one machine on; a route that is cut costs :data:`CUT`). Then:

* **placement** follows a plan made afresh at each decision: staff the
  assembly machines that let cubes in this round (each staffed machine takes
  one cube; the machines on the way to it need their workers too), cheapest
  first; then the next machine on the shortest route of each useful cube,
  front first; then, if an open tile would shorten the routes and it can pay,
  a worker on the request and workers in the bureau to afford it; housing
  while the game is young; in «Вызов» the poster cell when an open poster
  brings a worker or a discount; the rest in the bureau;
* **cube moves**: into the assembly first (the deepest machine staffed), then
  each cube that gets closer, front first;
* **tiles and optimisation**: whichever tile, cell and turn (or rotation,
  move, swap) shortens the routes most, if it shortens them at all;
* **posters** («Вызов»): workers, discounts and blueprints first; the chosen
  player of a two-player poster is the one furthest behind.

:func:`decide` works on an engine state, so the search bot
(bots/factory_race/search.py) uses it in its rollouts.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from engines.factory_race import data
from engines.factory_race.game import (
    ACTIVATE,
    ASSEMBLY,
    BONUS,
    BUREAU,
    CELLS,
    CHOOSE,
    CUBE,
    DESTS,
    DISCARD,
    DISPLACED,
    DONE,
    HOUSING,
    IMMUNITY,
    MOVES,
    OPTIMISE,
    PLACE,
    POSTER,
    POSTER_CELL,
    PUT,
    PUTTING,
    REQUEST,
    SHIELD,
    STAFF,
    STAFF_ASM,
    TAKE,
    TAKE_POSTER,
    TAKE_TILE,
    TAKE_TOP,
    TILES_BY_KEY,
    USE,
    Factory,
    FactoryRaceGame,
    FactoryRaceState,
    next_machines,
)

#: The distance of a cube whose route to the assembly shop is cut.
CUT = 12
#: Housing is worth its workers while the game is young.
HOUSING_UNTIL_ROUND = 8
#: The poster cell is worth its two workers for a poster valued this much (a worker, a discount).
POSTER_CELL_VALUE = 4
#: Posters by what they do, best first (kinds that cannot help score 0).
POSTER_VALUE = {"worker": 5, "discount": 4, "blueprints": 3, "bureau": 3, "immunity": 1}


def distances(grid: Sequence[tuple[int, int] | None]) -> tuple[int, ...]:
    """Return, for each source (cells 0-8, warehouses 9-11), the fewest moves to the assembly shop."""
    return _distances(tuple(grid))


@functools.lru_cache(maxsize=65536)
def _distances(grid: tuple[tuple[int, int] | None, ...]) -> tuple[int, ...]:
    # The same shops come back again and again (every tile tried in every cell, every rollout).
    sources = CELLS + len(data.COLOURS)
    nexts = [next_machines(grid, source) for source in range(sources)]
    dist = [CUT] * sources
    # Bellman-Ford over at most 12 nodes: a move is one machine on.
    for _ in range(sources):
        changed = False
        for source in range(sources):
            best = dist[source]
            for target in nexts[source]:
                step = 1 if target == ASSEMBLY else dist[target] + 1
                if step < best:
                    best = step
            if best < dist[source]:
                dist[source], changed = best, True
        if not changed:
            break
    return tuple(dist)


def needed(factory: Factory) -> list[int]:
    """Return the empty assembly squares of each colour."""
    counts = [0] * len(data.COLOURS)
    for k, machine in enumerate(factory.card):
        for index, colour in enumerate(machine.squares):
            if factory.assembly[k][index] is None:
                counts[colour] += 1
    return counts


def route_cost(factory: Factory, grid: Sequence[tuple[int, int] | None] | None = None) -> int:
    """Return the factory's distance: the moves its useful cubes still need to reach the assembly shop."""
    dist = distances(factory.grid if grid is None else grid)
    total = 0
    for colour, count in enumerate(needed(factory)):
        if not count:
            continue
        here = [dist[cell] for cell in range(CELLS) if factory.cubes[cell] == colour]
        here += [dist[CELLS + colour]] * factory.warehouses[colour]
        here.sort()
        total += sum(here[:count]) + CUT * max(0, count - len(here))
    return total


def plan(state: FactoryRaceState, player: int) -> list[int]:
    """Return the placement actions this round, in the order they are placed."""
    factory = state.factories[player]
    workers = factory.workers  # all of this round's workers, placed or not
    dist = distances(factory.grid)
    want = needed(factory)
    actions: list[int] = []
    cubes = [(dist[cell], cell, factory.cubes[cell]) for cell in range(CELLS) if factory.cubes[cell] is not None]
    cubes += [(dist[CELLS + c], CELLS + c, c) for c in range(len(data.COLOURS)) if factory.warehouses[c]]
    cubes.sort()
    # 1. Cubes into the assembly shop: each staffed machine takes one; the way to it must be staffed too.
    targeted: set[int] = set()
    asm: set[int] = set()
    delivered: set[int] = set()
    for _distance, source, colour in cubes:
        if not want[colour] or ASSEMBLY not in next_machines(factory.grid, source):  # type: ignore[index]
            continue
        for k, machine in enumerate(factory.card):
            if k in targeted:
                continue
            if any(square == colour and factory.assembly[k][i] is None for i, square in enumerate(machine.squares)):
                cost = sum(factory.card[j].workers for j in range(k + 1) if j not in asm)
                if cost <= workers:
                    workers -= cost
                    asm.update(range(k + 1))
                    targeted.add(k)
                    want[colour] -= 1  # type: ignore[index]
                    if source < CELLS:
                        delivered.add(source)
                break
    actions += [STAFF_ASM + k for k in sorted(asm)]
    # 2. The pipeline: each useful cube one machine closer, front first.
    staffed: set[int] = set()
    for distance, source, colour in cubes:
        if workers <= 0:
            break
        if source in delivered:
            continue
        if not want[colour] or distance >= CUT:  # type: ignore[index]
            continue
        want[colour] -= 1  # type: ignore[index]
        for target in sorted(next_machines(factory.grid, source)):
            if target != ASSEMBLY and target not in staffed and dist[target] == distance - 1:
                staffed.add(target)
                actions.append(STAFF + target)
                workers -= 1
                break
    # 3. A tile that shortens the routes, if it can be paid for with the bureau's help.
    tile_gain, price = best_tile(state, player)
    if tile_gain > 0 and workers >= 1:
        short = max(0, price - factory.blueprints)
        if short <= min(data.BUREAU_SPACES, workers - 1):
            actions.append(REQUEST)
            actions += [BUREAU] * short
            workers -= 1 + short
    # 4. («Вызов») A poster worth two workers: a new worker or a lasting discount.
    if state.challenge and workers >= data.POSTER_WORKERS:
        best = max((poster_value(p) for p in state.open_posters if p is not None), default=0)
        if best >= POSTER_CELL_VALUE:
            actions.append(POSTER_CELL)
            workers -= data.POSTER_WORKERS
    # 5. Housing while young, then the bureau.
    if factory.housing_left and state.round <= HOUSING_UNTIL_ROUND:
        cost = data.HOUSING_COSTS[len(data.HOUSING_COSTS) - factory.housing_left]
        if cost <= workers:
            actions.append(HOUSING)
            workers -= cost
    bureau = actions.count(BUREAU)
    while workers > 0 and bureau < data.BUREAU_SPACES and factory.blueprints + bureau < data.MAX_BLUEPRINTS:
        actions.append(BUREAU)
        bureau += 1
        workers -= 1
    return actions


def best_tile(state: FactoryRaceState, player: int) -> tuple[int, int]:
    """Return how much the best open tile would shorten ``player``'s routes, and its price."""
    factory = state.factories[player]
    costs = tuple(state.tile_cost(player, slot) for slot in range(len(state.open_tiles)))
    key = (
        tuple(factory.grid),
        tuple(factory.cubes),
        tuple(factory.warehouses),
        tuple(tuple(machine) for machine in factory.assembly),
        factory.factory,
        factory.blueprints,
        frozenset(factory.staffed),
        tuple(state.open_tiles),
        costs,
    )
    known = _BEST_TILES.get(key)
    if known is None:
        if len(_BEST_TILES) > 50_000:
            _BEST_TILES.clear()
        known = _BEST_TILES[key] = _best_tile(state, player)
    return known


#: best_tile's answers: a plan is made afresh at every placement decision, and rollouts repeat positions.
_BEST_TILES: dict[tuple[Any, ...], tuple[int, int]] = {}


def _best_tile(state: FactoryRaceState, player: int) -> tuple[int, int]:
    factory = state.factories[player]
    now = route_cost(factory)
    best = (0, 0)
    for slot, tile in enumerate(state.open_tiles):
        if tile is None:
            continue
        icon = TILES_BY_KEY[tile].factory
        if icon is not None and icon != factory.factory:
            continue
        price = state.tile_cost(player, slot)
        if price > factory.blueprints + data.BUREAU_SPACES:
            continue
        for action in state._puts(player, tile):
            cell, turns = divmod(action - PUT, 4)
            grid = list(factory.grid)
            grid[cell] = (tile, turns)
            gain = now - route_cost(factory, grid)
            if gain > best[0] or (gain == best[0] and gain > 0 and price < best[1]):
                best = (gain, price)
    return best


def next_placement(state: FactoryRaceState, player: int, legal: Sequence[int]) -> int:
    """Return the first action of the plan that is not placed yet, or done."""
    factory = state.factories[player]
    placed = (
        [STAFF_ASM + k for k in sorted(factory.asm_staffed)]
        + [STAFF + cell for cell in sorted(factory.staffed)]
        + [REQUEST] * factory.request
        + [HOUSING] * bool(factory.housing)
        + [BUREAU] * factory.bureau
        + [POSTER_CELL] * factory.poster_cell
    )
    for action in plan(state, player):
        if action in placed:
            placed.remove(action)
        elif action in legal:
            return action
    return DONE


def cube_move(state: FactoryRaceState, player: int, legal: Sequence[int]) -> int:
    """Return the best cube move: into the assembly shop first, then the front cube that gets closer."""
    factory = state.factories[player]
    dist = distances(factory.grid)
    want = needed(factory)
    best, best_key = DONE, None
    for action in legal:
        if action == DONE:
            continue
        source, dest = divmod(action - CUBE, DESTS)
        colour = factory.cubes[source] if source < CELLS else source - CELLS
        if not want[colour]:  # type: ignore[index]
            continue
        if dest >= CELLS:
            key = (0, -dest, dist[source])
        elif dist[dest] < dist[source]:
            key = (1, dist[dest], 0)
        else:
            continue
        if best_key is None or key < best_key:
            best, best_key = action, key
    return best


def best_by_routes(state: FactoryRaceState, player: int, legal: Sequence[int], baseline: int) -> tuple[int, int]:
    """Return the legal action whose result has the shortest routes, and by how much it beats ``baseline``."""
    best, best_gain = DONE, 0
    for action in legal:
        if action == DONE:
            continue
        after = state.clone()
        after.apply_action(action)
        gain = baseline - route_cost(after.factories[player])
        if gain > best_gain:
            best, best_gain = action, gain
    return best, best_gain


def poster_value(poster: int) -> int:
    card = data.POSTERS[poster]
    if card.effect == "blueprints" and (card.amount < 0) != (card.target == data.OTHERS):
        return 0
    return POSTER_VALUE.get(card.effect, 0)


def take_poster(state: FactoryRaceState, step: str, legal: Sequence[int]) -> int:
    """Return the poster to take: a good open one, else (from the poster cell) the top of the stack."""
    values = {a: poster_value(state.open_posters[a - TAKE_POSTER]) for a in legal if TAKE_POSTER <= a < TAKE_TOP}  # type: ignore[arg-type]
    best = max(values, key=lambda a: (values[a], -a), default=None)
    if best is not None and values[best] >= 3:
        return best
    if TAKE_TOP in legal:
        return TAKE_TOP
    if best is not None and (values[best] > 0 or step == POSTER):
        return best
    return DONE if DONE in legal else legal[0]


def decide(state: FactoryRaceState, legal: Sequence[int]) -> int:
    """Return the heuristic's action for the player to move in ``state``."""
    player = state.current_player()
    if len(legal) == 1:
        return legal[0]
    factory = state.factories[player]
    if state.choosing is not None:
        return min(legal, key=lambda action: (state.factories[action - CHOOSE].delivered(), action))
    phase, step = state.phase, state.step
    if phase == SHIELD:
        return IMMUNITY if IMMUNITY in legal else DONE
    if phase == OPTIMISE:
        for action in legal:
            if USE <= action < USE + len(data.POSTERS) and poster_value(action - USE):
                return action
        optimising = [action for action in legal if action < USE]
        best, gain = best_by_routes(state, player, optimising, route_cost(factory))
        return best if gain >= 1 else DONE
    if phase == PLACE:
        return next_placement(state, player, legal)
    if phase == ACTIVATE:
        if step == TAKE:
            takes = [action for action in legal if TAKE_TILE <= action < PUT]
            best, best_gain = DONE, 0
            now = route_cost(factory)
            for action in takes:
                tile = state.open_tiles[action - TAKE_TILE]
                for put in state._puts(player, tile):  # type: ignore[arg-type]
                    cell, turns = divmod(put - PUT, 4)
                    grid = list(factory.grid)
                    grid[cell] = (tile, turns)  # type: ignore[assignment]
                    gain = now - route_cost(factory, grid)
                    if gain > best_gain:
                        best, best_gain = action, gain
            return best
        if step == PUTTING:
            now = route_cost(factory)
            best, best_key = legal[0], None
            for put in legal:
                cell, turns = divmod(put - PUT, 4)
                grid = list(factory.grid)
                grid[cell] = (state.taken, turns)  # type: ignore[assignment]
                key = (route_cost(factory, grid), factory.grid[cell] is not None, put)
                if best_key is None or key < best_key:
                    best, best_key = put, key
            return best
        if step == DISPLACED:
            relocations = [action for action in legal if action != DISCARD]
            best, gain = best_by_routes(state, player, relocations, route_cost(factory))
            return best if gain >= 2 else DISCARD
        if step == MOVES:
            return cube_move(state, player, legal)
        if step in (POSTER, BONUS):
            return take_poster(state, step, legal)
    return DONE if DONE in legal else legal[0]


class HeuristicPolicy:
    """Plans short routes and a full pipeline of cubes into its assembly shop."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        del seed  # it draws nothing: the same observation always gets the same answer

    def choose(self, observation: Mapping[str, Any], legal_actions: Sequence[int]) -> int:
        """Return the heuristic's action for ``observation``."""
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        state = FactoryRaceState.from_observation(FactoryRaceGame(observation["config"]), observation)
        action = decide(state, legal)
        return action if action in legal else legal[0]
