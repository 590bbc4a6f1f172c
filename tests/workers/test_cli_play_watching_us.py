"""``arena play watching_us`` as a bot author uses it: player bots against a GM bot, or the built-in GM."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workers.cli import main

RANDOM = str(Path(__file__).resolve().parents[2] / "bots" / "watching_us" / "packages" / "random")


def test_two_players_and_a_gm_play_one_game_per_player_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "watching_us", RANDOM, RANDOM, RANDOM, "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0, out
    rows = re.findall(r"^([12])  (watching-us-random \(\d\))\s", out, re.M)
    # The player seats rotate between the two player bots; the GM (the last bot) keeps its seat.
    assert rows == [("1", "watching-us-random (1)"), ("2", "watching-us-random (2)")]
    steps = re.findall(r"^    (game \d: .*)$", out, re.M)
    assert len(steps) == 2
    for step in steps:
        assert re.fullmatch(
            r"game \d: (watching-us-random \(1\) and watching-us-random \(2\) defeated the Adversary in \d+ turns"
            r"|the GM, watching-us-random \(3\), won: (every Character died|the night never ended \(the turn limit\)))",
            step,
        ), step
    assert re.search(
        r"^Team series: players \(watching-us-random \(1\), watching-us-random \(2\)\) \d – \d GM "
        r"\(watching-us-random \(3\)\)",
        out,
        re.M,
    )


def test_the_built_in_gm_takes_the_gm_seat_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "watching_us", RANDOM, RANDOM, RANDOM, "--builtin-gm", "--seed", "4"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "3 games, seed 4" in out  # three player seats, one game each
    assert re.search(r"^Team series: players \(.*\) \d – \d GM \(the built-in GM\)", out, re.M), out


def test_a_bot_is_refused_a_role_its_bot_toml_does_not_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gm_only = tmp_path / "gm-only"
    gm_only.mkdir()
    (gm_only / "main.py").write_text((Path(RANDOM) / "main.py").read_text())
    (gm_only / "bot.toml").write_text('name = "gm-only"\nentry = "main.py"\ngames = ["watching_us"]\nroles = ["gm"]\n')
    code = main(["play", "watching_us", str(gm_only), RANDOM, RANDOM])
    assert code == 2
    assert "plays gm (its bot.toml's roles), not player" in capsys.readouterr().err


def test_one_player_is_too_few(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "watching_us", RANDOM, RANDOM])
    assert code == 2
    assert "watching_us with gm='seat' is for 3 to 6 seats" in capsys.readouterr().err
