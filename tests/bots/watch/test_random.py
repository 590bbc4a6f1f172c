"""The random Watch bot: legal, seeded, loadable by name."""

from __future__ import annotations

import engines
from bots.policy import load_policy
from bots.watch import RandomPolicy
from bots.watch.local import play_series


def play_choices(seed: int, games: int = 3) -> list[int]:
    """Return every action a RandomPolicy seeded ``seed`` chose while playing both seats of ``games`` games."""
    policy = RandomPolicy(seed=seed)
    chosen = []
    for game_seed in range(games):
        state = engines.get("watch").new_initial_state(seed=game_seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            action = policy.choose(state.observation(state.current_player()), legal)
            assert action in legal
            state.apply_checked(action)
            chosen.append(action)
    return chosen


def test_it_loads_by_name() -> None:
    policy = load_policy("watch", "random", seed=1)
    assert isinstance(policy, RandomPolicy)
    assert policy.name == "random"


def test_it_plays_only_legal_actions_through_whole_games() -> None:
    for seed in range(20):
        assert play_choices(seed)


def test_it_repeats_itself_for_the_same_seed() -> None:
    assert play_choices(7) == play_choices(7)
    assert play_choices(7) != play_choices(8)


def test_two_instances_do_not_share_a_generator() -> None:
    first, second = RandomPolicy(seed=3), RandomPolicy(seed=3)
    legal = list(range(250))
    observation = engines.get("watch").new_initial_state().observation(0)
    picks_first = [first.choose(observation, legal) for _ in range(5)]
    picks_second = [second.choose(observation, legal) for _ in range(5)]
    assert picks_first == picks_second


def test_it_finishes_series_without_forfeits() -> None:
    for seed in range(5):
        result = play_series([RandomPolicy(seed=seed), RandomPolicy(seed=seed + 100)], games=2, seed=seed)
        assert [game["forfeit"] for game in result["games"]] == [None, None]
        assert sum(result["score"]["points"]) in (0.0, 2.0)  # 2 unless both totals tie
