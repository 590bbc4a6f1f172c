"""``arena play watch_factory`` as a bot author uses it: four players, or one alone on the solo deals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workers.cli import main

PACKAGES = Path(__file__).resolve().parents[2] / "bots" / "watch_factory" / "packages"
HEURISTIC, RANDOM = str(PACKAGES / "heuristic"), str(PACKAGES / "random")


def test_four_bots_play_a_series_of_four_games_scored_by_rank_points(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "watch_factory", HEURISTIC, RANDOM, RANDOM, RANDOM, "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("watch_factory (rules 1): watch-factory-heuristic vs watch-factory-random (1) vs")
    rows = re.findall(r"^([1-4])  (\S+(?: \(\d\))?)\s", out, re.M)
    # Each player starts one game: the seats rotate.
    assert [start for _, start in rows] == [
        "watch-factory-heuristic",
        "watch-factory-random (1)",
        "watch-factory-random (2)",
        "watch-factory-random (3)",
    ]
    steps = re.findall(r"^    game \d: (.*) victory points: rank points (.*)$", out, re.M)
    assert len(steps) == 4
    for scores, points in steps:
        # Four players share 3 + 2 + 1 + 0 rank points a game, the best score first.
        assert sum(float(p) for p in re.findall(r" (\d+(?:\.5)?)(?:,|$)", points)) == 6
        values = [int(v) for v in re.findall(r" (-?\d+)(?:,|$)", scores)]
        assert values == sorted(values, reverse=True)
    assert "Series winner: watch-factory-heuristic" in out


def test_one_bot_alone_plays_the_twenty_solo_deals_and_gets_its_mean_and_title(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["play", "watch_factory", HEURISTIC, "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "watch-factory-heuristic, 20 games, seed 2" in out
    scores = [int(s) for s in re.findall(r"^\s*\d+\s+(-?\d+)  a solo game: its score is the result", out, re.M)]
    assert len(scores) == 20
    mean = re.search(r"Mean score of watch-factory-heuristic: ([\d.]+) over 20 deals, 95 % interval", out)
    assert mean is not None
    assert float(mean.group(1)) == pytest.approx(sum(scores) / 20, abs=0.01)
    # The rulebook's benchmarks name the mean: 75 keeps the job, 100 is the foreman, 125 runs the factory.
    title = re.search(r"^Title: (.*)$", out, re.M)
    assert title is not None
    titles = ((75, "barely keeps the job"), (100, "the new foreman"), (125, "runs the entire factory"))
    expected = [words for threshold, words in titles if float(mean.group(1)) >= threshold]
    assert title.group(1) == expected[-1]


def test_five_bots_are_refused_with_the_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "watch_factory", *[RANDOM] * 5])
    assert code == 2
    assert "watch_factory is for 1 to 4 players" in capsys.readouterr().err
