"""Score ladders (engines/score_ladder.py): the interval, the titles, forfeits, and what a declaration may say."""

from __future__ import annotations

import dataclasses
import math
import statistics

import pytest

from engines.declaration import DemoSeason, ScoreLadder
from engines.score_ladder import deal_scores, score_series, standing, t_975
from tests.engines.records import record
from tests.toygame.solitaire import DECLARATION

LADDER = ScoreLadder(titles=((75, "barely keeps the job"), (100, "the new foreman")), forfeit_score=-5)


def test_it_uses_students_t_and_wider_rows_between_the_table_s() -> None:
    assert t_975(19) == 2.093
    assert t_975(35) == 2.042  # between 30 and 40: the wider value of 30
    assert t_975(500) == 1.96


def test_it_gives_the_mean_and_its_95_percent_interval() -> None:
    scores = [float(v) for v in range(60, 120, 3)]  # 20 deals
    found = standing(scores, LADDER)
    margin = 2.093 * statistics.stdev(scores) / math.sqrt(20)
    assert found.mean == pytest.approx(statistics.fmean(scores))
    assert (found.low, found.high) == (pytest.approx(found.mean - margin), pytest.approx(found.mean + margin))
    assert (found.best, found.worst, found.games) == (117.0, 60.0, 20)


def test_the_highest_threshold_reached_names_the_title() -> None:
    assert LADDER.title(74.9) == ""
    assert LADDER.title(75) == "barely keeps the job"
    assert LADDER.title(130) == "the new foreman"


def test_a_forfeit_scores_its_game_and_the_deals_after_it() -> None:
    games = [
        record([0], returns=[90.0], index=0),
        record([0], forfeit=0, forfeit_reason="crash", index=1),
    ]
    assert deal_scores(games, 20, LADDER) == ([90.0, *[-5.0] * 19], 1)
    score = score_series(games, 20, LADDER)
    assert score["steps"][1] == "deal 2: -5 (forfeited: crash)"
    assert score["steps"][2] == "deal 3: -5 (not played: a forfeit ended the series)"
    assert score["points"] == [round((90 - 5 * 19) / 20, 1)]


def test_it_refuses_fewer_than_20_deals_and_unordered_titles() -> None:
    with pytest.raises(ValueError, match="at least 20 deals, not 19"):
        ScoreLadder(deals=19)
    with pytest.raises(ValueError, match="rise strictly"):
        ScoreLadder(titles=((100, "b"), (75, "a")))


def test_a_game_for_one_player_declares_a_score_ladder() -> None:
    with pytest.raises(ValueError, match="a game for one player declares how it is ranked"):
        dataclasses.replace(DECLARATION, score_ladder=None, solo_demo=None)
    with pytest.raises(ValueError, match="the solo_demo: a solo season plays the same 20 or more deals"):
        dataclasses.replace(DECLARATION, solo_demo=DemoSeason(title="Short", players=1, games=10))
