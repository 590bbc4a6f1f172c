"""Each rule of the factory race (rulebook 003), one behaviour per test; RULES.md names them.

Positions are built through the public API (``engines.get("factory_race")``,
``apply_notation``); where a test needs a position the opening cannot reach in
a round or two (a factory one cube short of its batch, a poster in hand), it
sets the factory's fields directly, then plays the round's actions.
"""

from __future__ import annotations

from typing import Any

import pytest

import engines
from engines import ConfigError, IllegalActionError, StateFormatError
from engines.factory_race import FactoryRaceState, data
from engines.factory_race import game as factory_game
from engines.result import GameRecord
from tests.engines.records import record as game_record

GAME = engines.get("factory_race")
RED, YELLOW, BLUE = 0, 1, 2
# Tanks (factory 0): "MI LI MI / MI . MI / . MI LI"; shells (factory 1): "MI MI . / LI MI MI / MI . MI".
A1, B1, C1, A2, B2, C2, A3, B3, C3 = range(9)
# Poster ids: each kind twice, kind k is ids 2k and 2k + 1 (data.POSTERS).
BLUEPRINTS_FOR_THE_FRONT, NEW_HANDS, EMULATION, RATIONALISERS, VIGILANCE, THRIFT, LEARN = 0, 2, 8, 10, 12, 18, 22
HEADS_DOWN, AIR_RAID, BUREAU_CLOSED, SUPPLY_FAILURE, LEND_LEASE, BONUS, DAY_OFF = 0, 1, 2, 4, 5, 6, 14


def new(num_players: int = 2, **config: Any) -> FactoryRaceState:
    return GAME.new_initial_state(num_players=num_players, config=config)


def play(state: FactoryRaceState, *moves: str) -> FactoryRaceState:
    for move in moves:
        state.apply_notation(move)
    return state


def legal(state: FactoryRaceState) -> set[str]:
    return {state.action_to_string(action) for action in state.legal_actions()}


def settle(state: FactoryRaceState, event: int | None = None) -> FactoryRaceState:
    """Draw every pending chance outcome: the lowest tile or poster id, and ``event`` for an event."""
    while state.is_chance_node():
        first = state.action_to_string(state.legal_actions()[0])
        state.apply_notation(f"event {event}" if event is not None and first.startswith("event") else first)
    return state


def open_tiles(state: FactoryRaceState, player: int = 0) -> list[int | None]:
    return [None if tile is None else tile["tile"] for tile in state.observation(player)["open_tiles"]]


def mine(state: FactoryRaceState, player: int = 0) -> dict[str, Any]:
    """Return ``player``'s own factory as ``player`` sees it."""
    return state.observation(player)["factories"][player]


def one_cube_short(state: FactoryRaceState, player: int, cell: int) -> None:
    """Fill ``player``'s assembly card but the first square, with the cube it needs on ``cell`` (east column)."""
    factory = state.factories[player]
    factory.assembly = [list(machine.squares) for machine in factory.card]
    colour = factory.assembly[0][0]
    factory.assembly[0][0] = None
    factory.warehouses = [0, 0, 0]
    factory.cubes[cell] = colour


def finish_both(state: FactoryRaceState) -> FactoryRaceState:
    """Round 1: P0 (tanks, cube on c1) and P1 (shells, cube on c2) each deliver their last cube."""
    one_cube_short(state, 0, C1)
    one_cube_short(state, 1, C2)
    settle(state)
    return play(state, "staff asm1", "done", "staff asm1", "done", "cube c1>asm1", "cube c2>asm1")


# -- material and set-up ------------------------------------------------------------------


def test_it_counts_the_boxes_material() -> None:
    assert len(data.TILES) == 39
    kinds = [tile.kind for tile in data.TILES]
    assert (kinds.count("start"), kinds.count("neutral"), kinds.count("icon")) == (5, 14, 20)
    assert len(data.POSTERS) == 24
    assert len(data.EVENTS) == 16
    assert sum(1 for cell in data.layout(0) if cell is not None) * 4 == 28  # "Жетоны заводов — 28 шт."
    for stars in range(4):  # four factories never need more cubes than the box holds
        needs = [data.cubes_needed(stars, factory) for factory in range(4)]
        assert all(sum(n[c] for n in needs) <= data.CUBES_IN_BOX[c] for c in range(3))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_it_gives_each_factory_its_seven_tiles_with_two_cells_empty(num_players: int) -> None:
    state = new(num_players)
    for player in range(num_players):
        grid = mine(state, player)["grid"]
        assert len(grid) == 9
        assert sum(cell is not None for cell in grid) == 7
        assert all(cell is None or cell["cube"] is None for cell in grid)
    assert [mine(state, p)["factory"] for p in range(num_players)] == list(data.FACTORY_NAMES[:num_players])


def test_it_starts_each_player_with_five_workers_three_in_housing_and_no_blueprints() -> None:
    factory = mine(new())
    assert factory["workers"] == 5
    assert factory["housing_left"] == 3
    assert factory["next_housing_cost"] == 2
    assert factory["blueprints"] == 0


@pytest.mark.parametrize(("mode", "stars"), [("base", 0), ("challenge", 1), ("challenge", 2), ("challenge", 3)])
def test_it_fills_the_warehouses_exactly_to_the_assembly_cards_needs(mode: str, stars: int) -> None:
    state = new(4, mode=mode, stars=stars)
    for player in range(4):
        factory = mine(state, player)
        squares = [colour for machine in factory["assembly"] for colour in machine["squares"]]
        assert factory["warehouses"] == {colour: squares.count(colour) for colour in data.COLOURS}
        assert all(square is None for machine in factory["assembly"] for square in machine["filled"])
    assert mine(new())["warehouses"] == {"red": 3, "yellow": 2, "blue": 2}  # tanks: RR, YB, RYB


def test_it_opens_the_five_grey_start_tiles_with_their_prices() -> None:
    tiles = new().observation(0)["open_tiles"]
    assert [tile["tile"] for tile in tiles] == [0, 1, 2, 3, 4]
    assert [tile["cost"] for tile in tiles] == [5, 5, 4, 3, 2]
    assert all(tile["icon"] is None for tile in tiles)


@pytest.mark.parametrize(("num_players", "stack"), [(2, 24), (3, 29), (4, 34)])
def test_it_leaves_the_icon_tiles_of_absent_factories_out_of_the_stack(num_players: int, stack: int) -> None:
    state = new(num_players)
    assert state.observation(0)["tile_stack"] == stack
    play(state, *["done"] * num_players)  # round 1 ends: the first refill is drawn from the stack
    drawable = {int(name.split()[-1]) for name in legal(state)}
    icons = {tile for tile in drawable if data.TILES[tile].factory is not None}
    assert {data.TILES[tile].factory for tile in icons} == set(range(num_players))
    assert len(drawable) == stack


def test_it_lets_seat_zero_start_by_default() -> None:
    state = new()
    assert state.observation(0)["first_player"] == 0
    assert state.current_player() == 0


def test_it_rolls_the_die_for_the_first_player_and_rerolls_a_tie() -> None:
    state = new(3, start="die")
    assert legal(state) == {f"die {face}" for face in range(1, 7)}
    play(state, "die 3", "die 5", "die 5")  # P1 and P2 tie on 5: they roll again
    assert state.is_chance_node()
    play(state, "die 2", "die 6")
    assert state.observation(0)["first_player"] == 2
    assert state.current_player() == 2


# -- the round ----------------------------------------------------------------------------


def test_it_has_no_optimisation_in_the_first_round() -> None:
    state = new()
    state.factories[0].blueprints = 5
    assert state.observation(0)["phase"] == "place"
    with pytest.raises(IllegalActionError, match="second round"):
        state.apply_notation("move a1 to b2")


def test_it_offers_optimisation_from_the_second_round() -> None:
    state = new()
    state.factories[0].blueprints = 3
    settle(play(state, "done", "done"))
    observation = state.observation(0)
    assert (observation["round"], observation["phase"], state.current_player()) == (2, "optimise", 0)
    assert "move a1 to b2" in legal(state)


def test_it_skips_the_optimisation_of_a_player_without_blueprints() -> None:
    state = settle(play(new(), "done", "done"))  # round 2: nobody has a blueprint to spend
    assert (state.observation(0)["round"], state.observation(0)["phase"]) == (2, "place")


# -- placement ----------------------------------------------------------------------------


def test_it_staffs_a_machine_with_one_worker_and_an_assembly_machine_with_exactly_its_workers() -> None:
    state = play(new(), "staff a1")
    assert mine(state)["workers"] == 4
    play(state, "staff asm3")  # "RYB" takes two workers
    assert mine(state)["workers"] == 2
    assert mine(state)["placed"]["assembly"] == [2]
    state = play(new(), "bureau", "bureau", "bureau", "staff a1")  # one worker left
    assert "staff asm3" not in legal(state)
    assert "staff asm1" in legal(state)
    with pytest.raises(IllegalActionError, match="exactly 2 workers"):
        state.apply_notation("staff asm3")


def test_it_refuses_a_worker_on_a_cell_without_a_machine_or_a_machine_twice() -> None:
    state = play(new(), "staff a1")
    with pytest.raises(IllegalActionError, match="no machine on b1"):
        state.apply_notation("staff b1")
    with pytest.raises(IllegalActionError, match="already staffed"):
        state.apply_notation("staff a1")


def test_it_places_workers_on_the_leftmost_housing_cell_once_a_round() -> None:
    state = play(new(), "housing")
    assert mine(state)["placed"]["housing"] == 2
    assert mine(state)["workers"] == 3
    with pytest.raises(IllegalActionError, match="leftmost housing cell, once a round"):
        state.apply_notation("housing")


def test_it_needs_the_housing_cells_price_in_free_workers() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "staff a1")  # one worker left, the cell asks for two
    assert "housing" not in legal(state)


def test_it_holds_at_most_three_workers_in_the_bureau() -> None:
    state = play(new(), "bureau", "bureau", "bureau")
    with pytest.raises(IllegalActionError, match="bureau holds 3 workers"):
        state.apply_notation("bureau")


def test_it_takes_one_worker_of_a_player_on_the_request() -> None:
    state = play(new(), "request")
    with pytest.raises(IllegalActionError, match="one worker per player"):
        state.apply_notation("request")
    play(state, "done", "request")  # another player may stand there too
    assert state.observation(1)["factories"][1]["placed"]["request"] is True


def test_it_has_the_poster_cell_only_in_the_challenge_mode_and_it_takes_two_workers() -> None:
    state = new()
    with pytest.raises(IllegalActionError, match="«Вызов» mode only"):
        state.apply_notation("poster cell")
    state = settle(new(mode="challenge"))
    play(state, "poster cell")
    assert mine(state)["workers"] == 3
    with pytest.raises(IllegalActionError, match="exactly two workers of a player, once"):
        state.apply_notation("poster cell")


def test_it_ends_a_players_placement_when_no_worker_is_left() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "housing")
    assert state.current_player() == 1


def test_it_hides_a_seats_placements_from_the_others_until_everyone_has_placed() -> None:
    placed = play(new(), "staff a1", "staff c1", "bureau", "done")
    nothing = play(new(), "done")
    assert placed.observation(1) == nothing.observation(1)
    assert placed.observation(1)["factories"][0]["placed"] is None
    assert placed.observation(0)["factories"][0]["placed"]["machines"] == ["a1", "c1"]  # one's own: seen
    play(placed, "done")  # P1 has placed: the placement phase is over
    assert placed.observation(1)["phase"] == "activate"
    assert placed.observation(1)["factories"][0]["placed"]["machines"] == ["a1", "c1"]


# -- activation ---------------------------------------------------------------------------


def test_it_pays_the_bureau_blueprints_before_the_tile_is_bought() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "request", "done", "done")
    assert state.observation(0)["step"] == "take_tile"
    assert mine(state)["blueprints"] == 3
    assert legal(state) == {"done", "take tile 4", "take tile 5"}  # prices 3 and 2; 4 and 5 are too dear


def test_it_charges_a_tile_by_its_slot_then_shifts_the_line_right_and_refills_the_left() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "request", "done", "done", "take tile 4")
    assert mine(state)["blueprints"] == 0
    assert open_tiles(state) == [None, 0, 1, 2, 4]  # the tiles left of the gap moved right
    assert state.is_chance_node()
    play(state, "draw tile 7")
    assert open_tiles(state) == [7, 0, 1, 2, 4]


def test_it_lets_the_new_tile_be_turned_for_free_onto_a_free_cell() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "request", "done", "done", "take tile 4", "draw tile 7")
    play(state, "put b2 turn 1")  # the tee (W N E, a machine) turned a quarter: N E S
    cell = mine(state)["grid"][B2]
    assert (cell["tile"], cell["turns"], cell["lines"], cell["machine"]) == (3, 1, "NES", True)
    assert mine(state)["blueprints"] == 0


def test_it_refuses_a_new_tile_on_a_machine_with_a_worker_or_a_cube() -> None:
    state = new()
    state.factories[0].cubes[C1] = RED
    state.factories[0].warehouses[RED] -= 1
    play(state, "staff a1", "bureau", "bureau", "bureau", "request", "done", "take tile 5", "draw tile 7")
    puts = {move for move in legal(state) if move.startswith("put")}
    assert "put b1 turn 0" in puts
    assert "put a1 turn 0" not in puts
    assert "put c1 turn 0" not in puts
    with pytest.raises(IllegalActionError, match="has a worker or a cube and cannot be replaced"):
        state.apply_notation("put a1 turn 0")
    with pytest.raises(IllegalActionError, match="has a worker or a cube and cannot be replaced"):
        state.apply_notation("put c1 turn 0")


def test_it_puts_the_replaced_tile_out_of_the_game() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "request", "done", "done", "take tile 5", "draw tile 7")
    old = mine(state)["grid"][B1]["tile"]
    play(state, "put b1 turn 0")
    assert legal(state) == {"discard", "relocate b2", "relocate a3"}
    play(state, "discard")
    assert mine(state)["grid"][B1]["tile"] == 4
    assert old in state.observation(0)["tiles_out"]
    assert mine(state)["blueprints"] == 1


def test_it_moves_the_replaced_tile_to_a_free_cell_for_one_blueprint() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "request", "done", "done", "take tile 5", "draw tile 7")
    old = mine(state)["grid"][B1]["tile"]
    play(state, "put b1 turn 0", "relocate b2")
    assert mine(state)["grid"][B2]["tile"] == old
    assert mine(state)["blueprints"] == 0


def test_it_offers_no_relocation_without_a_blueprint() -> None:
    state = play(new(), "bureau", "bureau", "request", "done", "done", "take tile 5", "draw tile 7")
    play(state, "put b1 turn 0")
    assert legal(state) == {"discard"}


def test_it_keeps_a_machine_in_every_row_of_the_production_shop() -> None:
    state = play(new(), "bureau", "bureau", "bureau", "request", "done", "done", "take tile 5", "draw tile 7")
    assert "put b3 turn 0" not in legal(state)  # b3 is the bottom row's only machine; the cross has none
    with pytest.raises(IllegalActionError, match="every row"):
        state.apply_notation("put b3 turn 0")


def test_it_refuses_another_factorys_icon_tile() -> None:
    state = new()
    shells_tile = next(t for t, tile in enumerate(data.TILES) if tile.factory == 1)
    state.open_tiles[4], state.tile_stack[state.tile_stack.index(shells_tile)] = shells_tile, state.open_tiles[4]
    state.factories[1].blueprints = 2
    play(state, "bureau", "bureau", "bureau", "request", "done", "request", "done")
    assert "take tile 5" not in legal(state)
    with pytest.raises(IllegalActionError, match="no other factory's icon"):
        state.apply_notation("take tile 5")
    play(state, "done")
    assert state.current_player() == 1
    assert "take tile 5" in legal(state)


def test_it_brings_the_housing_worker_home_and_opens_the_next_cell() -> None:
    state = settle(play(new(), "housing", "done", "done"))
    assert mine(state)["housing_left"] == 2
    assert mine(state)["next_housing_cost"] == 3


def test_it_returns_every_placed_worker_once_at_the_end_of_the_activation() -> None:
    # Round 1: three workers in the bureau; they come back, so round 2 starts with the same five.
    state = settle(play(new(), "bureau", "bureau", "bureau", "done", "done"))
    play(state, "done")  # P0's optimisation (it has three blueprints)
    assert (state.observation(0)["round"], state.observation(0)["phase"]) == (2, "place")
    assert mine(state, 0)["workers"] == 5
    assert mine(state, 1)["workers"] == 5


def test_it_adds_only_the_new_housing_worker() -> None:
    state = settle(play(new(), "housing", "done", "done"))
    assert mine(state)["workers"] == 6  # five, plus the worker that lived on the first housing cell


def test_it_moves_a_cube_only_onto_a_staffed_free_machine() -> None:
    state = play(new(), "staff a1", "done", "done")
    assert state.observation(0)["step"] == "move_cubes"
    assert legal(state) == {"done", "cube red>a1"}  # a2 has no worker: the yellow cube stays
    play(state, "cube red>a1")
    assert mine(state)["grid"][A1]["cube"] == "red"
    assert mine(state)["warehouses"]["red"] == 2


def test_it_blocks_a_production_machine_while_a_cube_is_on_it() -> None:
    state = new()
    state.factories[0].cubes[A1] = RED
    state.factories[0].warehouses[RED] -= 1
    play(state, "staff a1", "staff c1", "done", "done")
    assert "cube a1>c1" in legal(state)
    assert "cube red>a1" not in legal(state)
    play(state, "cube a1>c1")  # the front cube goes first, then the machine behind is free
    assert "cube red>a1" in legal(state)


def test_it_moves_no_cube_through_a_production_machine_in_transit() -> None:
    state = play(new(), "staff a1", "staff c1", "staff a2", "done", "done", "cube red>a1")
    assert legal(state) == {"done", "cube yellow>a2"}  # the red cube stops on a1 this round
    with pytest.raises(IllegalActionError, match="one machine on"):
        state.apply_notation("cube a1>c1")


def test_it_moves_no_cube_from_a_warehouse_straight_onto_an_assembly_machine() -> None:
    # «На станок в сборочном цеху ... кубик ресурса, находящийся на предыдущем станке»: an assembly
    # machine takes only from a machine; «На станок в производственном цеху ... на предыдущем станке
    # или на складе»: a production machine also takes from the warehouse.
    straight_line, cross_line = (1, 0), (4, 0)  # distribution-centre start tiles 1 and 4 (no machine)
    state = new()
    grid = state.factories[0].grid  # tanks: a1 M, b1 -, c1 M / a2 M, b2 ., c2 M / a3 ., b3 M, c3 -
    grid[A1], grid[B1], grid[B2], grid[C2] = straight_line, cross_line, cross_line, straight_line
    # The red warehouse's line now runs a1 - b1 - b2 - c2 to the assembly shop over line tiles only,
    # and branches to the machine c1 (east of b1): c1 is the red cube's only next machine.
    assert factory_game.next_machines(grid, factory_game.CELLS + RED) == {C1}
    assert factory_game.next_machines(grid, A2) == {C1, factory_game.ASSEMBLY}
    state.factories[0].cubes[A2] = RED  # a2's line joins b2: a machine that may feed the assembly shop
    play(state, "staff asm1", "staff c1", "done", "done")
    assert legal(state) == {"done", "cube red>c1", "cube a2>c1", "cube a2>asm1"}
    with pytest.raises(IllegalActionError, match="one machine on"):
        state.apply_notation("cube red>asm1")
    assert mine(state)["warehouses"]["red"] == 3
    play(state, "cube a2>asm1")
    assert mine(state)["assembly"][0]["filled"] == ["red", None]


def test_it_passes_a_cube_through_staffed_assembly_machines() -> None:
    state = new()
    state.factories[0].cubes[C1] = YELLOW  # tanks: asm1 takes RR, asm2 takes YB
    play(state, "staff asm2", "done", "done")
    assert "cube c1>asm2" not in legal(state)  # asm1 has no worker: no way through
    state = new()
    state.factories[0].cubes[C1] = YELLOW
    state.factories[0].cubes[C2] = RED
    play(state, "staff asm1", "staff asm2", "done", "done")
    assert "cube c1>asm2" in legal(state)
    assert "cube c1>asm1" not in legal(state)
    play(state, "cube c1>asm2")
    assert mine(state)["assembly"][1]["filled"] == ["yellow", None]
    assert "cube c2>asm1" in legal(state)  # asm1 only passed the cube on: it may still take one


def test_it_lets_a_machine_take_one_cube_a_round() -> None:
    state = new()
    state.factories[0].cubes[C1] = RED
    state.factories[0].cubes[C2] = RED
    play(state, "staff asm1", "staff a1", "done", "done")
    assert {"cube c1>asm1", "cube c2>asm1"} <= legal(state)
    play(state, "cube c1>asm1")
    assert legal(state) == {"done", "cube red>a1"}  # asm1 has a free red square but took its cube
    assert mine(state)["assembly"][0]["filled"] == ["red", None]


def test_it_activates_player_by_player_from_the_first() -> None:
    state = settle(play(new(), "done", "done"))  # round 2: P1 is first
    assert state.observation(0)["first_player"] == 1
    assert state.current_player() == 1
    play(state, "staff a1", "done", "staff a1", "done")  # P1 places first, then P0
    assert (state.observation(0)["step"], state.current_player()) == ("move_cubes", 1)
    play(state, "cube red>a1")
    assert (state.observation(0)["step"], state.current_player()) == ("move_cubes", 0)
    play(state, "cube red>a1")
    assert state.is_chance_node()
    assert state.observation(0)["phase"] == "refresh"


# -- optimisation -------------------------------------------------------------------------


def round_two(blueprints: int) -> FactoryRaceState:
    """Return round 2's optimisation phase with P0 to move holding ``blueprints`` (P1 has none: skipped)."""
    state = new()
    state.factories[0].blueprints = blueprints
    settle(play(state, "done", "done"))
    assert (state.observation(0)["phase"], state.current_player()) == ("optimise", 0)
    return state


def test_it_turns_a_tile_only_so_that_its_line_joins_another() -> None:
    state = new()
    state.factories[0].grid[B2] = (10, 0)  # a corner (W N) on the empty b2
    state.factories[0].blueprints = 3
    settle(play(state, "done", "done"))
    with pytest.raises(IllegalActionError, match="must join another line"):
        state.apply_notation("rotate c3 cw")  # upright, the straight line would touch nothing
    play(state, "rotate b2 cw")  # N E: joins c2's line
    cell = mine(state)["grid"][B2]
    assert (cell["turns"], cell["lines"]) == (1, "NE")
    assert mine(state)["blueprints"] == 2


def test_it_moves_a_tile_with_its_cube_to_a_free_cell_for_one_blueprint() -> None:
    state = new()
    state.factories[0].cubes[A1] = RED
    state.factories[0].warehouses[RED] -= 1
    state.factories[0].blueprints = 1
    settle(play(state, "done", "done"))
    play(state, "move a1 to b2")
    grid = mine(state)["grid"]
    assert grid[A1] is None
    assert grid[B2]["cube"] == "red"
    assert mine(state)["blueprints"] == 0


def test_it_refuses_a_move_that_leaves_a_row_without_a_machine() -> None:
    state = round_two(1)
    with pytest.raises(IllegalActionError, match="every row of the production shop must keep a machine"):
        state.apply_notation("move b3 to b2")


def test_it_swaps_two_tiles_for_two_blueprints() -> None:
    state = round_two(1)
    with pytest.raises(IllegalActionError, match="costs 2 blueprints and P0 has 1"):
        state.apply_notation("swap a1 b1")
    state = round_two(3)
    a1, b1 = mine(state)["grid"][A1]["tile"], mine(state)["grid"][B1]["tile"]
    play(state, "swap a1 b1")
    grid = mine(state)["grid"]
    assert (grid[A1]["tile"], grid[B1]["tile"]) == (b1, a1)
    assert mine(state)["blueprints"] == 1


def test_it_rolls_a_cube_back_one_machine_for_one_blueprint() -> None:
    state = new()
    state.factories[0].cubes[C1] = RED
    state.factories[0].warehouses[RED] -= 1
    state.factories[0].blueprints = 2
    settle(play(state, "done", "done"))
    assert {"rollback c1 to a1"} == {m for m in legal(state) if m.startswith("rollback")}
    play(state, "rollback c1 to a1")  # back over the line tile b1 to the machine behind it
    assert mine(state)["grid"][A1]["cube"] == "red"
    assert mine(state)["grid"][C1]["cube"] is None
    with pytest.raises(IllegalActionError, match="warehouse of its colour"):
        state.apply_notation("rollback a1 to yellow")
    play(state, "rollback a1 to red")
    assert mine(state)["warehouses"]["red"] == 3
    assert mine(state)["blueprints"] == 0


# -- refresh ------------------------------------------------------------------------------


def test_it_retires_the_rightmost_tile_and_passes_the_first_player_left() -> None:
    state = play(new(3), "done", "done", "done")
    assert open_tiles(state) == [None, 0, 1, 2, 3]
    assert state.observation(0)["tiles_out"] == [4]
    play(state, "draw tile 9")
    assert open_tiles(state) == [9, 0, 1, 2, 3]
    assert state.observation(0)["first_player"] == 1
    settle(play(state, "done", "done", "done"))
    assert state.observation(0)["first_player"] == 2
    settle(play(state, "done", "done", "done"))
    assert state.observation(0)["first_player"] == 0


# -- end and tie-breaks -------------------------------------------------------------------


def test_it_declares_the_only_finisher_the_winner_at_the_end_of_the_round() -> None:
    state = new()
    one_cube_short(state, 0, C1)
    play(state, "staff asm1", "done", "staff a1", "done", "cube c1>asm1")
    assert not state.is_terminal()
    assert state.current_player() == 1
    play(state, "done")
    outcome = state.outcome()
    assert outcome.winners == (0,)
    assert outcome.reason == "assembled"
    assert state.returns() == [1.0, -1.0]


def test_it_breaks_a_shared_finish_on_the_most_blueprints_first() -> None:
    state = new()
    state.factories[0].blueprints, state.factories[1].blueprints = 3, 5
    state.factories[1].workers = 4  # fewer workers and more machines do not matter
    finish_both(state)
    assert state.outcome().winners == (1,)
    assert state.outcome().reason == "tie_break"


def test_it_breaks_a_shared_finish_on_the_most_available_workers_next() -> None:
    state = new()
    state.factories[1].workers, state.factories[1].housing_left = 6, 2
    finish_both(state)
    assert state.outcome().winners == (1,)
    assert state.outcome().reason == "tie_break"


def test_it_breaks_a_shared_finish_on_the_fewest_machine_tiles_then() -> None:
    state = finish_both(new())  # tanks have 5 machine tiles, shells 6
    stats = state.outcome().stats
    assert (stats[0]["machines"], stats[1]["machines"]) == (5, 6)
    assert state.outcome().winners == (0,)
    assert state.outcome().reason == "tie_break"


def test_it_shares_the_win_when_every_tie_break_is_level() -> None:
    state = new()
    state.factories[1].grid[A3] = None  # shells down to 5 machine tiles too
    finish_both(state)
    assert state.outcome().winners == (0, 1)
    assert state.outcome().reason == "shared"
    assert state.returns() == [0.0, 0.0]


def test_it_breaks_a_shared_finish_on_the_most_posters_in_the_challenge_mode() -> None:
    state = new(mode="challenge")
    state.factories[1].grid[A3] = None
    state.factories[1].posters = [[THRIFT, 1, -1]]
    finish_both(state)
    assert state.outcome().winners == (1,)
    assert state.outcome().reason == "tie_break"


def test_at_the_round_limit_the_most_cubes_assembled_win_then_the_tie_breaks() -> None:
    # Nobody has assembled anything: level on cubes, level on blueprints and workers; tanks
    # (5 machines) beats shells (6) on the third tie-break, fewest machines.
    state = settle(play(new(max_rounds=1), "done", "done"))
    assert state.is_terminal()
    assert state.outcome().winners == (0,)
    assert state.outcome().reason == "round_cap_tie_break"
    # One yellow cube on the shells' assembly card: shells lead on cubes and win outright.
    state = new(max_rounds=1)
    state.factories[1].assembly[0][0] = 1
    state = settle(play(state, "done", "done"))
    assert state.outcome().winners == (1,)
    assert state.outcome().reason == "round_cap"


def test_a_game_at_the_round_limit_has_a_winner_who_takes_the_series_point() -> None:
    # RULES.md, *Completion (round limit)*: the capped game is won, not left without a winner.
    state = new(max_rounds=1)
    state.factories[1].assembly[0][0] = 1
    outcome = settle(play(state, "done", "done")).outcome()
    assert outcome.returns == (-1.0, 1.0)
    game = game_record(seats=(0, 1), winners=outcome.winners, reason=outcome.reason)
    score = GAME.score_series([game], 2)
    assert (score["points"], score["winner"]) == ([0, 1], 1)


# -- «Вызов» ------------------------------------------------------------------------------


def challenge(*posters: int) -> FactoryRaceState:
    """A «Вызов» game with the open posters drawn as given (slot 1 to 3)."""
    state = new(mode="challenge")
    assert state.is_chance_node()
    return play(state, *(f"draw poster {poster}" for poster in posters))


def test_it_lays_out_three_open_posters_in_the_challenge_mode() -> None:
    state = challenge(5, 6, 7)
    assert state.observation(0)["open_posters"] == [5, 6, 7]
    assert state.observation(0)["poster_stack"] == 21


def test_it_draws_an_event_from_the_second_round() -> None:
    state = challenge(5, 6, 7)
    assert state.observation(0)["phase"] == "place"  # round 1: no event
    play(state, "done", "done", "draw poster 8", "draw tile 7")  # the refresh
    assert legal(state) == {f"event {event}" for event in range(16)}
    state.factories[0].blueprints = state.factories[1].blueprints = 4
    play(state, f"event {AIR_RAID}")
    assert state.observation(0)["event"] == AIR_RAID
    assert state.observation(0)["round"] == 2
    assert [mine(state, p)["blueprints"] for p in range(2)] == [2, 2]


def test_it_applies_an_instant_poster_at_once_and_discards_it() -> None:
    state = challenge(BLUEPRINTS_FOR_THE_FRONT, 6, 7)
    play(state, "poster cell", "done", "done", "take poster 1")
    assert mine(state)["blueprints"] == 2
    assert mine(state)["posters"] == []
    assert state.observation(0)["poster_discard"] == [BLUEPRINTS_FOR_THE_FRONT]


def test_it_lets_the_owner_choose_the_other_player_of_a_two_player_poster() -> None:
    state = challenge(EMULATION, 6, 7)
    play(state, "poster cell", "done", "done", "take poster 1", "draw poster 9")
    assert legal(state) == {"choose P1"}
    state.apply_checked(factory_game.CHOOSE + 1)  # "choose P1" (its notation: see test_it_reads_back_...)
    assert [mine(state, p)["blueprints"] for p in range(2)] == [2, 2]


def test_it_refills_the_poster_line_from_the_left_when_one_is_taken() -> None:
    state = challenge(5, 6, 7)
    play(state, "poster cell", "done", "staff a1", "done", "take poster 2")
    assert state.observation(0)["open_posters"] == [None, 5, 7]
    play(state, "draw poster 9")
    assert state.observation(0)["open_posters"] == [9, 5, 7]


def test_it_discards_the_rightmost_poster_at_the_end_of_the_round() -> None:
    state = play(challenge(5, 6, 7), "done", "done")
    assert state.observation(0)["open_posters"] == [None, 5, 6]
    assert state.observation(0)["poster_discard"] == [7]


def test_it_gives_the_take_of_a_five_blueprint_tile_a_poster_too() -> None:
    state = challenge(BLUEPRINTS_FOR_THE_FRONT, 6, 7)
    state.factories[0].blueprints = 5
    play(state, "request", "done", "done", "take tile 1", "draw tile 7", "put b2 turn 0")
    assert state.observation(0)["step"] == "bonus_poster"
    assert legal(state) == {"done", "take poster 1", "take poster 2", "take poster 3"}
    play(state, "take poster 1")
    assert mine(state)["blueprints"] == 2  # 5 - 5 + 2


def test_it_brings_one_housing_worker_home_when_a_poster_already_freed_it() -> None:
    state = challenge(NEW_HANDS, 6, 7)
    state.factories[0].blueprints = 5
    play(state, "housing", "request", "done", "done", "take tile 1", "draw tile 7", "put b2 turn 0")
    play(state, "take poster 1")  # "Новые кадры": the worker of the first housing cell comes home now
    assert mine(state)["housing_left"] == 2
    play(state, "draw poster 9")  # step 3: the two workers come back from the cell whose worker is home
    assert mine(state)["housing_left"] == 2  # the next cell (price 3) had no workers on it
    assert mine(state)["next_housing_cost"] == 3


def test_it_keeps_an_until_used_poster_for_a_later_round() -> None:
    state = challenge(RATIONALISERS, 6, 7)
    play(state, "poster cell", "done", "done", "take poster 1")
    assert [p["id"] for p in mine(state)["posters"]] == [RATIONALISERS]
    settle(state, event=BONUS)  # round 2: +1 blueprint each
    if state.current_player() == 1:
        play(state, "done")
    assert "use poster 10" in legal(state)
    play(state, "use poster 10")
    assert mine(state)["blueprints"] == 4
    assert mine(state)["posters"] == []


def test_it_starts_a_permanent_poster_in_the_next_round() -> None:
    state = challenge(LEARN, 6, 7)
    # P0 takes "Учиться" (the bureau pays everyone one more) after its bureau step; P1's bureau comes after
    play(state, "poster cell", "done", "bureau", "done", "take poster 1", "draw poster 9")
    assert mine(state, 1)["blueprints"] == 1  # not yet: the poster was taken this round
    settle(state, event=HEADS_DOWN)
    state.factories[0].blueprints = state.factories[1].blueprints = 0
    while state.observation(0)["phase"] == "optimise":
        play(state, "done")
    play(state, "bureau", "done", "done")
    assert mine(state, 1)["blueprints"] == 2  # one worker, one more from the poster


def test_it_blocks_the_use_of_posters_in_a_heads_down_round() -> None:
    state = challenge(5, 6, 7)
    state.factories[0].posters = [[RATIONALISERS, 1, -1], [VIGILANCE, 1, -1]]
    settle(play(state, "done", "done"), event=HEADS_DOWN)
    assert state.observation(0)["phase"] == "place"  # no immunity asked, no poster to use: no optimisation
    state = challenge(5, 6, 7)
    state.factories[0].posters = [[RATIONALISERS, 1, -1]]
    settle(play(state, "done", "done"), event=BONUS)
    if state.current_player() == 1:
        play(state, "done")
    assert "use poster 10" in legal(state)


def test_it_lets_a_vigilance_poster_shield_its_owner_from_a_harmful_event() -> None:
    state = challenge(5, 6, 7)
    state.factories[0].posters = [[VIGILANCE, 1, -1]]
    play(state, "done", "done")
    state.factories[0].blueprints = state.factories[1].blueprints = 4
    settle(state, event=AIR_RAID)
    assert state.current_player() == 0
    assert legal(state) == {"done", "immunity"}
    play(state, "immunity")
    assert [mine(state, p)["blueprints"] for p in range(2)] == [4, 2]
    assert VIGILANCE in state.observation(0)["poster_discard"]
    assert mine(state)["posters"] == []


def test_it_shuts_the_bureau_for_a_round_on_the_meeting_event() -> None:
    state = settle(play(challenge(5, 6, 7), "done", "done"), event=BUREAU_CLOSED)
    assert state.observation(0)["phase"] == "place"
    assert "bureau" not in legal(state)
    assert "request" in legal(state)


def test_it_names_the_event_when_it_refuses_a_shut_bureau() -> None:
    state = settle(play(challenge(5, 6, 7), "done", "done"), event=BUREAU_CLOSED)
    with pytest.raises(IllegalActionError, match=r"event|shut|closed|meeting"):
        state.apply_notation("bureau")  # an empty bureau: "holds 3 workers" is not why


def request_in_round_two(event: int, blueprints: int, posters: list[list[int]]) -> FactoryRaceState:
    """Round 2 of «Вызов» under ``event``: P0 holds ``blueprints`` and ``posters``, stands on the request."""
    state = play(challenge(5, 6, 7), "done", "done")
    state.factories[0].posters = posters
    settle(state, event=event)
    state.factories[0].blueprints = blueprints
    while state.observation(0)["phase"] == "optimise":
        play(state, "done")
    play(state, "done", "request", "done")  # P1 is first this round
    assert (state.observation(0)["step"], state.current_player()) == ("take_tile", 0)
    return state


def test_it_changes_the_tile_prices_for_a_round_on_the_supply_events() -> None:
    # The open prices are 5 5 4 3 2.
    assert legal(request_in_round_two(BONUS, 2, [])) == {"done", "take tile 5"}
    assert legal(request_in_round_two(LEND_LEASE, 2, [])) == {"done", "take tile 4", "take tile 5"}
    assert legal(request_in_round_two(BONUS, 3, [])) == {"done", "take tile 4", "take tile 5"}
    assert legal(request_in_round_two(SUPPLY_FAILURE, 3, [])) == {"done", "take tile 5"}


def test_it_lowers_the_owners_tile_prices_with_a_thrift_poster_from_the_round_after() -> None:
    assert legal(request_in_round_two(BONUS, 2, [[THRIFT, 1, -1]])) == {"done", "take tile 4", "take tile 5"}
    assert legal(request_in_round_two(BONUS, 2, [[THRIFT, 2, -1]])) == {"done", "take tile 5"}  # taken this round


def test_it_sets_a_worker_aside_for_the_round_on_the_day_off_event() -> None:
    state = settle(play(challenge(5, 6, 7), "done", "done"), event=DAY_OFF)
    assert [mine(state, p)["workers"] for p in range(2)] == [4, 4]
    settle(play(state, "done", "done"), event=BONUS)
    while state.observation(0)["phase"] == "optimise":
        play(state, "done")
    assert [mine(state, p)["workers"] for p in range(2)] == [5, 5]


def test_it_classifies_the_harmful_events() -> None:
    harmful = {data.EVENTS[event].title.split(" (")[0] for event in data.HARMFUL_EVENTS}
    assert harmful == {"Налёт", "Бюро на совещании", "Затемнение", "Перебои в снабжении", "Проверка", "Выходной"}


# -- configuration, saving, notation, series ----------------------------------------------


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ({"mode": "hard"}, "mode"),
        ({"stars": 2}, "challenge"),
        ({"mode": "challenge", "stars": 4}, "stars"),
        ({"start": "oldest"}, "start"),
        ({"max_rounds": 0}, "max_rounds"),
        ({"max_rounds": 101}, "max_rounds"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_it_refuses_a_bad_configuration_naming_the_key(config: dict[str, Any], key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        GAME.new_initial_state(num_players=2, config=config)


def test_it_plays_with_two_to_four_players() -> None:
    for count in (1, 5):
        with pytest.raises(ConfigError, match="2 to 4 players"):
            new(count)


def test_it_restores_a_saved_game_exactly() -> None:
    state = challenge(5, 6, 7)
    play(state, "bureau", "poster cell", "done", "staff a1", "done", "take poster 1", "draw poster 9")
    saved = state.to_json()
    restored = GAME.state_from_json(saved)
    assert restored == state
    assert restored.observation(1) == state.observation(1)


@pytest.mark.parametrize(
    ("saved", "message"),
    [
        ({"game": "factory_race", "history": "done"}, "history"),
        ({"game": "factory_race", "num_players": 2, "history": [factory_game.BUREAU] * 4}, r"history\[3\]"),
        ({"game": "factory_race", "config": {"mode": "hard"}, "history": []}, "mode"),
        ({"game": "watch", "history": []}, "watch"),
        ({"game": "factory_race", "num_players": 7, "history": []}, "players"),
    ],
)
def test_it_refuses_a_bad_saved_state(saved: dict[str, Any], message: str) -> None:
    with pytest.raises(StateFormatError, match=message):
        GAME.state_from_json(saved)


ACTION_IDS = {
    "DONE": 0, "ROTATE": 1, "MOVE": 19, "SWAP": 100, "ROLLBACK": 181, "USE": 289, "STAFF": 313, "STAFF_ASM": 322,
    "HOUSING": 326, "BUREAU": 327, "REQUEST": 328, "POSTER_CELL": 329, "TAKE_TILE": 330, "PUT": 335, "DISCARD": 371,
    "RELOCATE": 372, "CUBE": 381, "TAKE_POSTER": 537, "TAKE_TOP": 540, "CHOOSE": 541, "IMMUNITY": 545,
    "DRAW_TILE": 546, "DRAW_POSTER": 585, "DRAW_EVENT": 609, "DIE": 625, "NUM_ACTIONS": 631,
}  # fmt: skip


def test_it_numbers_the_actions_as_documented() -> None:
    assert {name: getattr(factory_game, name) for name in ACTION_IDS} == ACTION_IDS
    assert GAME.info.num_distinct_actions == 631


def test_it_names_every_action_once() -> None:
    notation = factory_game.NOTATION
    assert len(notation) == factory_game.NUM_ACTIONS
    assert all(notation)
    assert len(set(notation)) == len(notation)
    state = new()
    assert state.parse_action("  Staff  A1 ") == factory_game.STAFF
    assert state.action_to_string(factory_game.CHOOSE + 1) == "choose P1"
    assert state.action_to_string(factory_game.CUBE + 9 * 13 + 0) == "cube red>a1"


def test_it_reads_back_every_name_it_writes() -> None:
    state = new()
    unreadable = []
    for name in factory_game.NOTATION:
        try:
            state.parse_action(name)
        except IllegalActionError:
            pass  # a real action, not legal in this position
        except engines.MalformedActionError:
            unreadable.append(name)
    assert unreadable == []


def record(winners: list[int], forfeit: int | None = None) -> GameRecord:
    return game_record([0, 1, 2], winners, "assembled", forfeit=forfeit)


def test_it_scores_a_point_a_game_won_and_each_winner_of_a_shared_win() -> None:
    score = GAME.score_series([record([0]), record([0, 2]), record([1])], 3)
    assert score["points"] == [2, 1, 1]
    assert score["winner"] == 0
    assert any("shared the win" in step for step in score["steps"])


def test_it_scores_nothing_for_a_forfeited_game_and_the_rest_of_the_series() -> None:
    score = GAME.score_series([record([1]), record([1], forfeit=1), record([1])], 3)
    assert score["points"] == [0, 1, 0]
    assert score["game_wins"] == [0, 3, 0]


def test_it_plays_a_series_of_as_many_games_as_players() -> None:
    series = engines.declaration("factory_race").series
    assert series.default_games(3) == 3
    assert series.check_games(3, 3) is None
    assert "3 games" in series.check_games(3, 2)
    assert GAME.default_config["start"] == "rotate"
