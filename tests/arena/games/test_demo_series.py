"""``manage.py demo_series``: a local Watch series between two reference bots, printed."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[3]


def run_demo(*args: str) -> str:
    out = StringIO()
    call_command("demo_series", *args, stdout=out)
    return out.getvalue()


def test_it_prints_every_game_record_and_the_series_score() -> None:
    output = run_demo("--bots", "greedy", "random", "--games", "4", "--seed", "7")
    for number in (1, 2, 3, 4):
        assert f"Game {number}: " in output
    assert output.count("  dressing: ") == 4
    assert output.count("  pawns:    W@") == 4
    assert "Series score (Watch scheme):" in output
    assert "White total" in output
    assert "Black total" in output
    # The last line is the score in the rulebook's notation: halves as ½.
    last = output.rstrip().splitlines()[-1].strip()
    assert last.startswith("greedy ")
    assert last.endswith(" random")
    assert " – " in last


def test_it_alternates_white_between_the_bots() -> None:
    output = run_demo("--bots", "greedy", "random", "--games", "2", "--seed", "3")
    assert "Game 1: greedy has White" in output
    assert "Game 2: random has White" in output


def test_it_is_reproducible_for_a_seed() -> None:
    assert run_demo("--bots", "random", "random", "--seed", "5") == run_demo(
        "--bots", "random", "random", "--seed", "5"
    )


def test_it_names_two_copies_of_one_bot_apart() -> None:
    output = run_demo("--bots", "random", "random", "--games", "2")
    assert "random (1)" in output
    assert "random (2)" in output


def test_it_refuses_an_odd_number_of_games() -> None:
    with pytest.raises(CommandError, match="positive even number"):
        run_demo("--games", "3")


def test_it_refuses_an_unknown_bot_and_lists_the_known_ones() -> None:
    with pytest.raises(
        CommandError, match=r"no reference bot 'alphawatch' for watch; choose from greedy, random, solver"
    ):
        run_demo("--bots", "alphawatch", "random")


def test_it_prints_the_result_document_as_json() -> None:
    import json

    document = json.loads(run_demo("--bots", "greedy", "random", "--games", "2", "--json"))
    assert document["game"] == "watch"
    assert len(document["games"]) == 2
    assert sum(document["score"]["points"]) in (0, 2)


def test_it_runs_from_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", "demo_series", "--bots", "greedy", "random", "--games", "2"],
        cwd=ROOT,
        env={**os.environ, "ARENA_NO_BOOTSTRAP": "1"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Series score (Watch scheme):" in result.stdout
