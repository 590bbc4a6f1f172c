"""The engine contract under random play, as one function a game's author calls on the game.

:func:`check_game` is to a game here what PettingZoo's ``api_test`` is to an
environment: it plays one game per seed with random legal actions (chance
drawn from the same generator) and checks the position at every ply of the
first :data:`EVERY_PLY_UNTIL`, then at every :data:`CHECK_EVERY`-th ply and at
the end; past the first plies the saved state's round trip (which replays the
whole history) only every :data:`RESTORE_EVERY`-th ply, so that a game of a
thousand plies is not checked in quadratic time. Unless told ``contract_only``,
it then checks what a game needs checking once: the same seed replays the same
game, seeds differ, random play ends in more than one way, and the checked
path refuses bad actions, any action after the end and a saved state that is
not a mapping, changing nothing.

``tests/engines/test_conformance.py`` calls it on every registered game from a
table of (game, configuration) cases; ``tests/fuzz.py`` on seed after seed. A
broken contract raises :class:`AssertionError` naming the seed and the check.

Pure: no I/O, no third-party imports.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterable

from engines.base import (
    CHANCE,
    TERMINAL,
    Game,
    IllegalActionError,
    MalformedActionError,
    State,
    StateFormatError,
    resolve_chance,
)

__all__ = ["CHECK_EVERY", "EVERY_PLY_UNTIL", "RESTORE_EVERY", "check_game", "check_position", "play_randomly"]

EVERY_PLY_UNTIL = 60
CHECK_EVERY = 5
RESTORE_EVERY = 100
#: Seeds whose games must all differ, each played twice to the same end.
REPLAYED_SEEDS = 10
#: Seeds of random play among which at least two games end for different reasons.
VARIED_SEEDS = 100
#: (what, the action, the error the checked path raises, a pattern its message contains); "past the last"
#: stands for the game's ``num_distinct_actions``.
BAD_ACTIONS: tuple[tuple[str, object, type[Exception], str], ...] = (
    ("a negative id", -1, IllegalActionError, "out of range"),
    ("an id past the last", "past the last", IllegalActionError, "out of range"),
    ("a bool", True, MalformedActionError, "an action must be an integer, not bool True"),
    ("a string", "0", MalformedActionError, "an action must be an integer, not str '0'"),
    ("None", None, MalformedActionError, "an action must be an integer, not NoneType None"),
    ("a float", 1.0, MalformedActionError, "an action must be an integer, not float 1.0"),
)


def _require(condition: bool, message: str) -> None:
    """Raise AssertionError with ``message`` unless ``condition`` (kept under ``python -O``, unlike assert)."""
    if not condition:
        raise AssertionError(message)


def check_game(
    game: Game,
    seeds: Iterable[int],
    num_players: int | None = None,
    seats: tuple[int, int] | None = None,
    contract_only: bool = False,
) -> list[State]:
    """Return the final state of a checked random game of ``game`` per seed; raise AssertionError on a broken contract.

    ``game`` is configured as it is to be checked (``engines.get(name,
    config)``); ``num_players`` seats that many (the game's default when
    None), each game ending with one return per player; ``seats`` is the
    range of player counts the configuration allows (``GameInfo``'s when
    None). With ``contract_only``, only the random play is checked, not the
    once-a-game checks (module docstring).
    """
    finals = []
    for seed in seeds:
        try:
            state = play_randomly(game, seed, num_players=num_players, seats=seats)
            if num_players is not None:
                _require(
                    len(state.returns()) == num_players, f"{len(state.returns())} returns for {num_players} players"
                )
        except AssertionError as exc:
            raise AssertionError(f"{game.info.name} seed {seed}: {exc}") from exc
        finals.append(state)
    if not contract_only:
        check_replays(game)
        check_start(game)
        check_varied_results(game)
        check_bad_actions(game)
        check_after_the_end(game)
        check_bad_saved_state(game)
    return finals


def play_randomly(
    game: Game, seed: int, check: bool = True, num_players: int | None = None, seats: tuple[int, int] | None = None
) -> State:
    """Return the final state of a random game; with ``check``, test the contract along the way (module docstring)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, num_players=num_players)
    plies = 0
    while not state.is_terminal():
        if check and (plies < EVERY_PLY_UNTIL or plies % CHECK_EVERY == 0):
            check_position(state, restore=plies < EVERY_PLY_UNTIL or plies % RESTORE_EVERY == 0, seats=seats)
        if state.is_chance_node():
            resolve_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies += 1
        _require(plies <= game.info.max_game_length, f"{game.info.name} ran past max_game_length")
    if check:
        check_position(state, seats=seats)
    return state


def check_position(state: State, restore: bool = True, seats: tuple[int, int] | None = None) -> None:
    """Check one position: whose turn, the legal actions, results, views, a clone and (``restore``) a saved copy."""
    info = state.game.info
    players = len(state.returns())  # one return per player, from the first ply
    fewest, most = seats or (info.min_players, info.max_players)
    _require(fewest <= players <= most, f"{players} players, not {fewest} to {most}")
    player = state.current_player()
    legal = state.legal_actions()
    history = state.history
    _require(len(history) <= info.max_game_length, "the history is longer than max_game_length")
    _require(all(_is_action(a, info.num_distinct_actions) for a in history), f"a history of bad ids: {history}")

    # whose turn, and what they may do
    if state.is_terminal():
        _require(player == TERMINAL, f"a finished game's current player is {player}, not TERMINAL")
        _require(legal == [], f"a finished game has legal actions {legal}")
    else:
        _require(player == CHANCE or 0 <= player < players, f"the current player {player} is no seat")
        _require(bool(legal), "a live position needs a legal action")
        _require(len(set(legal)) == len(legal), f"legal actions repeat: {legal}")
        _require(all(_is_action(a, info.num_distinct_actions) for a in legal), f"legal actions of bad ids: {legal}")
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        _require(sorted(a for a, _ in outcomes) == sorted(legal), "the chance outcomes are not the legal actions")
        total = sum(p for _, p in outcomes)
        _require(math.isclose(total, 1.0, rel_tol=1e-6, abs_tol=1e-12), f"chance probabilities sum to {total}")

    # results
    outcome = state.outcome()
    returns = state.returns()
    if state.is_terminal():
        _require(outcome is not None, "a finished game has no outcome")
        assert outcome is not None
        _require(list(outcome.returns) == returns, f"the outcome's returns {outcome.returns} are not {returns}")
        _require(set(outcome.winners) <= set(range(players)), f"winners {outcome.winners} are not seats")
        _require(len(outcome.returns) == players, "the outcome has not one return per player")
        _require(bool(outcome.reason), "the outcome gives no reason")
        json.dumps(outcome.to_json())
    else:
        _require(outcome is None, "a live game has an outcome")
        _require(returns == [0.0] * len(returns), f"a live game returns {returns}")

    # views: JSON-ready, and the same after a JSON round trip
    for seat in range(players):
        observation = state.observation(seat)
        _require(json.loads(json.dumps(observation)) == observation, f"seat {seat}'s observation is not JSON")
    _require(isinstance(state.render(), str), "render() is not text")
    for action in legal:
        _require(bool(state.action_to_string(action)), f"action {action} has no text")

    # a clone is independent of its original
    if legal:
        clone = state.clone()
        clone.apply_action(legal[0])
        _require(state.history == history, "applying an action to a clone changed its original's history")
        _require(state.legal_actions() == legal, "applying an action to a clone changed its original's legal actions")
        _require(clone.history == [*history, legal[0]], "a clone did not record its own action")

    # a saved state comes back as the same position
    if not restore:
        return
    saved = json.loads(json.dumps(state.to_json()))
    restored = state.game.state_from_json(saved)
    _require(restored.history == history, "a restored state has another history")
    _require(restored.to_json() == state.to_json(), "a restored state saves differently")
    _require(restored.legal_actions() == legal, "a restored state has other legal actions")
    _require(restored.current_player() == player, "a restored state has another current player")


def check_replays(game: Game) -> None:
    """Check that a seed replays the same game and that different seeds give different games."""
    first = [play_randomly(game, seed, check=False).history for seed in range(REPLAYED_SEEDS)]
    again = [play_randomly(game, seed, check=False).history for seed in range(REPLAYED_SEEDS)]
    _require(first == again, "the same seed played a different game")
    _require(
        len({tuple(history) for history in first}) == REPLAYED_SEEDS, "different seeds should give different games"
    )


def check_start(game: Game) -> None:
    """Check that a seed starts the same position, with an empty history."""
    _require(
        game.new_initial_state(seed=1).legal_actions() == game.new_initial_state(seed=1).legal_actions(),
        "the same seed starts with different legal actions",
    )
    _require(game.new_initial_state(seed=1).history == [], "a new game has a history")


def check_varied_results(game: Game) -> None:
    """Check that random play ends in more than one way: a game that never does is probably not checking its ends."""
    reasons = set()
    for seed in range(VARIED_SEEDS):
        outcome = play_randomly(game, seed, check=False).outcome()
        reasons.add(outcome.reason if outcome else None)
        if len(reasons) > 1:
            return
    raise AssertionError(f"{VARIED_SEEDS} random games all ended the same way: {reasons}")


def check_bad_actions(game: Game) -> None:
    """Check that the checked path refuses each bad action at every ply, naming what is legal, changing nothing."""
    rng = random.Random(7)
    state = game.new_initial_state(seed=7)
    for _ in range(game.info.max_game_length):
        if state.is_terminal():
            break
        before = state.to_json()
        for what, action, error, pattern in BAD_ACTIONS:
            bad = game.info.num_distinct_actions if action == "past the last" else action
            try:
                state.apply_checked(bad)
            except error as exc:
                _require(re.search(pattern, str(exc)) is not None, f"{what}: {exc!s} does not say {pattern!r}")
                _require("legal now: " in str(exc), f"{what}: {exc!s} does not say what is legal now")
            else:
                raise AssertionError(f"the checked path took {what} ({bad!r})")
            _require(state.to_json() == before, f"refusing {what} changed the state")
        state.apply_checked(rng.choice(state.legal_actions()))


def check_after_the_end(game: Game) -> None:
    """Check that a finished game refuses every action, changing nothing."""
    state = play_randomly(game, 3, check=False)
    before = state.to_json()
    for action in (0, -1, True, None):
        try:
            state.apply_checked(action)
        except IllegalActionError as exc:
            _require(re.search("the game is over", str(exc)) is not None, f"{exc!s} does not say the game is over")
        else:
            raise AssertionError(f"a finished game took {action!r}")
    _require(state.to_json() == before, "refusing an action after the end changed the state")


def check_bad_saved_state(game: Game) -> None:
    """Check that a saved state that is not a mapping is refused as a bad state format."""
    try:
        game.state_from_json(["not", "a", "state"])  # type: ignore[arg-type]
    except StateFormatError:
        return
    raise AssertionError("a saved state that is not a mapping was not refused with StateFormatError")


def _is_action(action: object, num_distinct_actions: int) -> bool:
    return isinstance(action, int) and 0 <= action < num_distinct_actions
