"""The greedy Watch bot: wins at once when it can, and does not hand the opponent a win at once.

The hand-made positions play on ``BOARD``, a dressing in which no two
neighbouring squares share a colour, drawn like ``WatchState.render()``.
"""

from __future__ import annotations

import random

import engines
from bots.policy import load_policy
from bots.watch import GreedyPolicy
from bots.watch.local import play_series
from engines.watch import WatchState
from engines.watch.game import COLOUR_CODES, COLOUR_NAMES, NEIGHBOURS, SQUARE_INDEX

BOARD = """
6     YE
5  RD LB OR RD LB
4  LB PK RD DB OR
3  YE DG LG YE PK
2  DP LP OR LB DP
1     RD DB LG LP
"""


def board_colours() -> dict[str, str]:
    """Return square -> colour name for ``BOARD``."""
    tiles = {}
    for line in BOARD.strip().splitlines():
        row = line[0]
        for index, col in enumerate("abcde"):
            code = line[3 + 3 * index : 5 + 3 * index].strip()
            if code:
                tiles[f"{col}{row}"] = COLOUR_NAMES[COLOUR_CODES.index(code)]
    return tiles


def played(*notation: str) -> WatchState:
    """Return the game on ``BOARD`` after the pawn placements and moves in ``notation``."""
    state = engines.get("watch").new_initial_state()
    for square, colour in board_colours().items():
        state.apply_notation(f"{colour}@{square}")
    for text in notation:
        state.apply_notation(text)
    return state


def greedy_choice(state: WatchState, seed: int = 0) -> str:
    """Return the greedy bot's choice in ``state``, in notation."""
    action = GreedyPolicy(seed=seed).choose(state.observation(state.current_player()), state.legal_actions())
    return state.action_to_string(action)


def ends_game(state: WatchState, action: int) -> bool:
    child = state.clone()
    child.apply_action(action)
    return child.is_terminal()


def random_positions(count: int) -> list[WatchState]:
    """Return ``count`` movement-phase positions from seeded random games."""
    rng = random.Random(2024)
    positions = []
    seed = 0
    while len(positions) < count:
        state = engines.get("watch").new_initial_state(seed=seed)
        seed += 1
        while not state.is_terminal():
            if state.phase == "move":
                positions.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return positions[:count]


def test_it_loads_by_name() -> None:
    assert isinstance(load_policy("watch", "greedy", seed=1), GreedyPolicy)


def test_it_takes_the_winning_move() -> None:
    # Black sits on red; of White's moves only c3-c4 lands on a red tile.
    for seed in range(10):
        assert greedy_choice(played("W@c3", "B@a5"), seed) == "c3-c4"


def test_it_does_not_move_where_the_opponent_wins_at_once() -> None:
    # Black on e5 can reach e4 (orange) and d5 (red): c3-c4 (red) and c3-c2
    # (orange) would each let Black win by colour; b3 and d3 are safe.
    for seed in range(10):
        assert greedy_choice(played("W@c3", "B@e5"), seed) in {"c3-b3", "c3-d3"}


def test_it_always_wins_at_once_when_it_can() -> None:
    checked = 0
    for index, state in enumerate(random_positions(300)):
        legal = state.legal_actions()
        winning = {action for action in legal if ends_game(state, action)}
        if winning and len(winning) < len(legal):
            choice = GreedyPolicy(seed=index).choose(state.observation(state.current_player()), legal)
            assert choice in winning, state.render()
            checked += 1
    assert checked > 20


def test_it_never_gives_a_win_at_once_when_a_safe_move_exists() -> None:
    checked = 0
    for index, state in enumerate(random_positions(300)):
        legal = state.legal_actions()
        if any(ends_game(state, action) for action in legal):
            continue

        def gives_a_win(action: int, state: WatchState = state) -> bool:
            child = state.clone()
            child.apply_action(action)
            return any(ends_game(child, reply) for reply in child.legal_actions())

        safe = {action for action in legal if not gives_a_win(action)}
        if safe and len(safe) < len(legal):
            choice = GreedyPolicy(seed=index).choose(state.observation(state.current_player()), legal)
            assert choice in safe, state.render()
            checked += 1
    assert checked > 20


def test_it_places_the_black_pawn_out_of_reach_of_whites_first_move() -> None:
    colours = board_colours()
    # From c3 White reaches c4 (red), c2 (orange), b3 (dark green) and d3 (yellow).
    for seed in range(20):
        square = greedy_choice(played("W@c3"), seed).removeprefix("B@")
        assert colours[square] not in {"red", "orange", "dark-green", "yellow"}


def test_it_places_the_white_pawn_where_its_first_move_threatens_four_colours() -> None:
    state = played()
    for seed in range(20):
        square = greedy_choice(state, seed).removeprefix("W@")
        # On BOARD no neighbours share a colour, so that is any square with four neighbours.
        assert len(NEIGHBOURS[SQUARE_INDEX[square]]) == 4


def test_it_plays_only_legal_actions_and_repeats_itself_for_a_seed() -> None:
    for seed in range(6):
        results = [
            play_series([GreedyPolicy(seed=seed), load_policy("watch", "random", seed=seed + 50)], games=2, seed=seed)
            for _ in range(2)
        ]
        assert [game["forfeit"] for game in results[0]["games"]] == [None, None]
        assert [game["actions"] for game in results[0]["games"]] == [game["actions"] for game in results[1]["games"]]
