"""Every registered game keeps the engine contract under random play.

Generic over ``engines.names()``: a new game gets these tests by registering.
Each seed plays one game with random legal actions (chance drawn with the same
generator) and checks the state at every ply of the first
:data:`EVERY_PLY_UNTIL`, then at every :data:`CHECK_EVERY`-th ply and at the
end; past the first plies the saved state's round trip (which replays the
whole history) only every :data:`RESTORE_EVERY`-th ply, so that a game of a
thousand plies is not checked in quadratic time.

The suite plays a small fixed sample of seeds (:data:`SEEDS` with each game's
default player count, :data:`PLAYER_COUNT_SEEDS` with every count it allows);
the fuzz command, ``tests/fuzz.py`` (run by CI after the suite with a time
budget), plays the same checked games on seed after seed.
"""

from __future__ import annotations

import json
import random

import pytest

import engines
from engines import CHANCE, TERMINAL, IllegalActionError, MalformedActionError, State, StateFormatError

SEEDS = range(20)
PLAYER_COUNT_SEEDS = range(5)
GAMES = engines.names()
EVERY_PLY_UNTIL = 60
CHECK_EVERY = 5
RESTORE_EVERY = 100


def play_randomly(name: str, seed: int, check: bool = True, num_players: int | None = None) -> State:
    """Return the final state of a random game of ``name``; with ``check``, test the contract at each ply."""
    game = engines.get(name)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, num_players=num_players)
    plies = 0
    while not state.is_terminal():
        if check and (plies < EVERY_PLY_UNTIL or plies % CHECK_EVERY == 0):
            check_position(state, restore=plies < EVERY_PLY_UNTIL or plies % RESTORE_EVERY == 0)
        if state.is_chance_node():
            engines.resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
        assert plies <= game.info.max_game_length, f"{name} ran past max_game_length"
    if check:
        check_position(state)
    return state


def check_position(state: State, restore: bool = True) -> None:
    info = state.game.info
    players = len(state.returns())  # one return per player, from the first ply
    assert info.min_players <= players <= info.max_players
    player = state.current_player()
    legal = state.legal_actions()
    history = state.history
    assert len(history) <= info.max_game_length
    assert all(isinstance(a, int) and 0 <= a < info.num_distinct_actions for a in history)

    # whose turn, and what they may do
    if state.is_terminal():
        assert player == TERMINAL
        assert legal == []
    else:
        assert player == CHANCE or 0 <= player < players
        assert legal, "a live position needs a legal action"
        assert len(set(legal)) == len(legal)
        assert all(isinstance(a, int) and 0 <= a < info.num_distinct_actions for a in legal)
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == sorted(legal)
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)

    # results
    outcome = state.outcome()
    returns = state.returns()
    if state.is_terminal():
        assert outcome is not None
        assert list(outcome.returns) == returns
        assert set(outcome.winners) <= set(range(players))
        assert len(outcome.returns) == players
        assert outcome.reason
        json.dumps(outcome.to_json())
    else:
        assert outcome is None
        assert returns == [0.0] * len(returns)

    # views: JSON-ready, and the same after a JSON round trip
    for seat in range(players):
        observation = state.observation(seat)
        assert json.loads(json.dumps(observation)) == observation
    assert isinstance(state.render(), str)
    for action in legal:
        assert state.action_to_string(action)

    # a clone is independent of its original
    if legal:
        clone = state.clone()
        clone.apply_action(legal[0])
        assert state.history == history
        assert state.legal_actions() == legal
        assert clone.history == [*history, legal[0]]

    # a saved state comes back as the same position
    if not restore:
        return
    saved = json.loads(json.dumps(state.to_json()))
    restored = state.game.state_from_json(saved)
    assert restored.history == history
    assert restored.to_json() == state.to_json()
    assert restored.legal_actions() == legal
    assert restored.current_player() == player


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_it_keeps_the_engine_contract_under_random_play(name: str, seed: int) -> None:
    state = play_randomly(name, seed)
    assert state.is_terminal()


PLAYER_COUNTS = [
    (name, players)
    for name in GAMES
    for players in range(engines.get(name).info.min_players, engines.get(name).info.max_players + 1)
]


@pytest.mark.parametrize(("name", "players"), PLAYER_COUNTS, ids=[f"{n}-{p}p" for n, p in PLAYER_COUNTS])
@pytest.mark.parametrize("seed", PLAYER_COUNT_SEEDS)
def test_it_keeps_the_engine_contract_with_every_player_count(name: str, players: int, seed: int) -> None:
    state = play_randomly(name, seed, num_players=players)
    assert state.is_terminal()
    assert len(state.returns()) == players


@pytest.mark.parametrize("name", GAMES)
def test_it_replays_the_same_game_for_the_same_seed(name: str) -> None:
    first = [play_randomly(name, seed, check=False).history for seed in range(10)]
    again = [play_randomly(name, seed, check=False).history for seed in range(10)]
    assert first == again
    assert len({tuple(history) for history in first}) == 10, "different seeds should give different games"


@pytest.mark.parametrize("name", GAMES)
def test_it_starts_every_game_the_same_way(name: str) -> None:
    game = engines.get(name)
    assert game.new_initial_state(seed=1).legal_actions() == game.new_initial_state(seed=1).legal_actions()
    assert game.new_initial_state(seed=1).history == []


@pytest.mark.parametrize("name", GAMES)
def test_it_finishes_games_with_more_than_one_kind_of_result(name: str) -> None:
    # A game whose random play always ends the same way is probably not checking its win conditions.
    outcomes = set()
    for seed in range(100):
        outcomes.add(play_randomly(name, seed, check=False).outcome().reason)
        if len(outcomes) > 1:
            break
    assert len(outcomes) > 1


BAD_ACTIONS = [
    ("a negative id", -1, IllegalActionError, "out of range"),
    ("an id past the last", "num_distinct_actions", IllegalActionError, "out of range"),
    ("a bool", True, MalformedActionError, "an action must be an integer, not bool True"),
    ("a string", "0", MalformedActionError, "an action must be an integer, not str '0'"),
    ("None", None, MalformedActionError, "an action must be an integer, not NoneType None"),
    ("a float", 1.0, MalformedActionError, "an action must be an integer, not float 1.0"),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    ("action", "error", "message"), [case[1:] for case in BAD_ACTIONS], ids=[case[0] for case in BAD_ACTIONS]
)
def test_it_refuses_a_bad_action_on_the_checked_path_and_changes_nothing(
    name: str, action: object, error: type[Exception], message: str
) -> None:
    game = engines.get(name)
    if action == "num_distinct_actions":
        action = game.info.num_distinct_actions
    rng = random.Random(7)
    state = game.new_initial_state(seed=7)
    for _ in range(game.info.max_game_length):
        if state.is_terminal():
            break
        before = state.to_json()
        with pytest.raises(error, match=message) as caught:
            state.apply_checked(action)
        assert "legal now: " in str(caught.value)
        assert state.to_json() == before
        state.apply_checked(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_it_refuses_every_action_once_the_game_is_over(name: str) -> None:
    state = play_randomly(name, 3, check=False)
    before = state.to_json()
    for action in (0, -1, True, None):
        with pytest.raises(IllegalActionError, match="the game is over"):
            state.apply_checked(action)
    assert state.to_json() == before


@pytest.mark.parametrize("name", GAMES)
def test_it_refuses_a_saved_state_that_is_not_a_mapping(name: str) -> None:
    with pytest.raises(StateFormatError):
        engines.get(name).state_from_json(["not", "a", "state"])  # type: ignore[arg-type]
