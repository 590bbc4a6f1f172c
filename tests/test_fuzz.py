"""The fuzz command (tests/fuzz.py) plays within its budget, says what it played and fails loudly on a broken engine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz import main
from tests.toygame.broken import break_clones_after_a_centre_opening
from tests.toygame.tictactoe import DECLARATION

ROOT = Path(__file__).resolve().parents[1]
NAME = DECLARATION.name


def row_of(out: str, case: str) -> list[str]:
    """Return the words of the report's line for ``case``: the game, the players, games, seeds and seconds."""
    return next(line.split() for line in out.splitlines() if line.startswith(f"{case} "))


def test_the_documented_command_plays_every_case_of_the_games_it_is_given() -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "DJANGO_SETTINGS_MODULE")}
    result = subprocess.run(
        [sys.executable, "tests/fuzz.py", "--budget-s", "0", "--game", "watch", "--game", "watch_race"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    lines = result.stdout.splitlines()
    assert lines[0] == "fuzz: 6 cases from seed 0, budget 0 s"
    # A budget of 0 still plays the first seed of every case: watch with 2 players, the race with 2 to 6.
    played = [line.split()[:4] for line in lines[2:8]]
    assert played == [["watch", "2p", "1", "0-0"]] + [["watch_race", f"{n}p", "1", "0-0"] for n in range(2, 7)]
    assert lines[8].startswith("fuzz: played 6 games of 2 engines in ")
    assert lines[8].endswith("; 0 cases failed")


def test_it_plays_more_seeds_while_the_budget_lasts(toy: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", NAME, "--budget-s", "0.3"]) == 0
    games, seeds = row_of(capsys.readouterr().out, f"{NAME} 2p")[2:4]
    assert int(games) > 1
    assert seeds == f"0-{int(games) - 1}"


def test_it_starts_from_the_first_seed_it_is_given(toy: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", NAME, "--budget-s", "0", "--first-seed", "40"]) == 0
    assert row_of(capsys.readouterr().out, f"{NAME} 2p")[2:4] == ["1", "40-40"]


def test_it_names_the_failing_game_and_seed_with_a_reproduction(
    toy: None, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first_centre = break_clones_after_a_centre_opening(monkeypatch)
    assert first_centre > 0

    assert main(["--game", NAME, "--budget-s", "5"]) == 1
    out = capsys.readouterr().out
    assert f"; 1 cases failed\nFAILED {NAME} 2p seed {first_centre}: AssertionError" in out
    assert f"  reproduce: .venv/bin/python tests/fuzz.py --game {NAME} --players 2 --seed {first_centre}\n" in out
    # The failing case stops at its failure: it played the seeds up to it.
    assert row_of(out, f"{NAME} 2p")[2:4] == [str(first_centre + 1), f"0-{first_centre}"]

    # The reproduction replays that one game and raises where the contract broke.
    with pytest.raises(AssertionError):
        main(["--game", NAME, "--players", "2", "--seed", str(first_centre)])
    assert main(["--game", NAME, "--players", "2", "--seed", str(first_centre - 1)]) == 0


def test_it_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--game", "chess"])
    assert exit_.value.code == 2
    assert "unknown game chess; registered: " in capsys.readouterr().err
