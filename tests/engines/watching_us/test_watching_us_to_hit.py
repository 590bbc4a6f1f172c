"""The To Hit notation, every line of "TO-HIT DICE CLARIFICATIONS" as known answers, and malformed values."""

from __future__ import annotations

import pytest

from engines.base import EngineError
from engines.watching_us.to_hit import ToHitError, parse


def test_plus_means_that_number_or_higher() -> None:
    # "#+ means you need to roll that number or higher."
    assert [parse("5+").damage([r], proxy=True) for r in range(1, 7)] == [0, 0, 0, 0, 1, 1]


def test_minus_means_that_number_or_lower() -> None:
    # "#- means you need to roll that number or lower."
    assert [parse("2-").damage([r], proxy=True) for r in range(1, 7)] == [1, 1, 0, 0, 0, 0]


def test_a_bare_number_means_exactly_that_number() -> None:
    # "# by itself (no + or -) means you need to roll exactly that number."
    assert [parse("4").damage([r], proxy=True) for r in range(1, 7)] == [0, 0, 0, 1, 0, 0]


def test_commas_list_several_viable_rolls() -> None:
    # "For example, "3, 4" means you must roll exactly 3 or exactly 4."
    assert [parse("3, 4").damage([r], proxy=True) for r in range(1, 7)] == [0, 0, 1, 1, 0, 0]
    assert parse("3,4") == parse("3, 4")


def test_k_x_n_needs_that_many_of_that_number() -> None:
    # "2x1 means you need to roll two ones."
    assert parse("2x1").damage([1], proxy=True) == 0
    assert parse("2x1").damage([1, 1], proxy=True) == 1
    assert parse("2x1").damage([1, 2], proxy=True) == 0


def test_proxies_count_every_instance_four_ones_are_two_damage() -> None:
    # "For damaging Proxies, it counts every instance of that number four 1s counts as two 2x1s, and thus 2 damage."
    assert parse("2x1").damage([1, 1, 1, 1], proxy=True) == 2
    assert parse("2x1").damage([1, 1, 1], proxy=True) == 1
    assert parse("5+").damage([5, 6, 6, 2], proxy=True) == 3


def test_an_adversary_takes_one_damage_per_ritual() -> None:
    # "An Adversary can only take 1 damage per Ritual ... while A Proxy takes 1 damage per matching roll"
    assert parse("2x1").damage([1, 1, 1, 1], proxy=False) == 1
    assert parse("5+").damage([5, 6, 6], proxy=False) == 1
    assert parse("5+").damage([1, 2], proxy=False) == 0


def test_any_means_every_roll_works() -> None:
    # ""Any" means rolling any number will work."
    assert parse("Any").damage([1, 3, 6], proxy=True) == 3
    assert parse("any").damage([], proxy=True) == 0


def test_two_x_any_means_any_doubles() -> None:
    # "2xAny means rolling any set of doubles will work."
    assert parse("2xAny").damage([3, 3], proxy=True) == 1
    assert parse("2xAny").damage([3, 4], proxy=True) == 0
    assert parse("2xAny").damage([3, 3, 5, 5, 5], proxy=True) == 2


def test_doubles_of_that_number_or_above() -> None:
    # "2x5+ means rolling 2x5 or 2x6 will work." (doubles: the same number twice)
    assert parse("2x5+").damage([5, 5], proxy=True) == 1
    assert parse("2x5+").damage([6, 6], proxy=True) == 1
    assert parse("2x5+").damage([5, 6], proxy=True) == 0
    assert parse("2x2-").damage([1, 1, 2, 2], proxy=True) == 2
    assert parse("2x2-").damage([3, 3], proxy=True) == 0


def test_n_a_cannot_be_damaged_by_ordinary_means() -> None:
    # "N/A means that this Monster cannot be damaged by ordinary means."
    value = parse("N/A")
    assert value.immune
    assert value.damage([1, 2, 3, 4, 5, 6], proxy=True) == 0
    assert parse("n/a").immune


def test_a_die_counts_once_in_a_mixed_list() -> None:
    assert parse("2x1, 6").damage([1, 1, 6], proxy=True) == 2
    assert parse("1, 2x1").damage([1, 1], proxy=True) == 2  # the single term uses each 1


def test_modified_rolls_may_leave_one_to_six() -> None:
    # "they "roll as 2 higher"": a 6 rolled as 2 higher is an 8, enough for 5+ and for no exact 6.
    assert parse("5+").damage([8], proxy=True) == 1
    assert parse("6").damage([8], proxy=True) == 0


def test_double_or_nothing_doubles_the_count() -> None:
    # "take whatever their base To Hit roll is and double it ... A 2x1 becomes a 4x1!"
    assert parse("2x1").doubled() == parse("4x1")
    assert parse("5+").doubled() == parse("2x5+")
    assert parse("N/A").doubled().immune


def test_text_round_trips() -> None:
    for text in ("5+", "2-", "4", "3, 4", "2x1", "Any", "2xAny", "2x5+", "2x2-", "N/A"):
        assert parse(text).text() == text


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("  ", "empty"),
        ("7+", "face 7"),
        ("0", "face 0"),
        ("5++", "not a term"),
        ("3,", "empty term"),
        ("0x5", "at least 1"),
        ("Any+", "'Any' takes no"),
        ("five", "not a term"),
        ("2x", "not a term"),
        ("N/A, 6", "not a term"),
    ],
)
def test_malformed_values_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(ToHitError, match=words):
        parse(text)


def test_a_non_string_is_a_to_hit_error_not_a_type_error() -> None:
    with pytest.raises(ToHitError, match="string"):
        parse(5)
    assert issubclass(ToHitError, EngineError)
    assert issubclass(ToHitError, ValueError)
