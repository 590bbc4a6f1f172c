"""`arena roundrobin`: every pair of bots plays, ranked by TrueSkill on Watch series points."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import trueskill

import engines
from engines.result import SeriesResult
from tests.results import game_document, result_document
from workers.cli import (
    LoadedBot,
    Standing,
    main,
    ranked,
    record_series,
    schedule,
    trueskill_environment,
)

REPO = Path(__file__).resolve().parents[2]
RANDOM = str(REPO / "bots/watch/packages/random")
GREEDY = str(REPO / "bots/watch/packages/greedy")
SOLVER = str(REPO / "bots/watch/packages/solver")
STARTER_SHELL = str(REPO / "bots/starter/watch-shell")
SLOW_OK = ["--decision-ms", "10000"]


def roundrobin(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["roundrobin", "watch", *args, *SLOW_OK])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def standing(name: str) -> Standing:
    bot = LoadedBot(path=Path(name), package=None, label=name)  # type: ignore[arg-type]
    return Standing(bot=bot, rating=trueskill_environment(engines.flagship()).create_rating())


def played(
    points: list[float], game_wins: list[int], winner: int | None, forfeit_by: int | None = None
) -> SeriesResult:
    """A two-game series of two bots with this score; ``forfeit_by`` forfeits its first game."""
    forfeit = None
    if forfeit_by is not None:
        forfeit = {"player": forfeit_by, "seat": forfeit_by, "reason": "crash", "detail": "exit 1"}
    games = [game_document(0, [0, 1], forfeit=forfeit), game_document(1, [1, 0])]
    players = [{"name": "a", "sha256": "a" * 64}, {"name": "b", "sha256": "b" * 64}]
    score = {"points": points, "game_wins": game_wins, "winner": winner}
    return SeriesResult.from_json(result_document(players=players, games=games, score=score))


def test_it_ranks_three_bots_by_conservative_rating(capsys):
    code, out, err = roundrobin(capsys, RANDOM, SOLVER, STARTER_SHELL, "--games", "2", "--seed", "1")

    assert code == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    lines = out.splitlines()
    assert lines[0] == "watch round robin: 3 bots, 1 round(s), 3 series of 2 games, seed 1"
    assert lines[1].split() == [
        "Rank",
        "Bot",
        "μ",
        "σ",
        "μ−3σ",
        "Series",
        "Won",
        "Drawn",
        "Lost",
        "Points",
        "Game",
        "wins",
        "Forfeits",
    ]
    rows = [line.split() for line in lines[2:5]]
    assert [row[0] for row in rows] == ["1", "2", "3"]
    assert sorted(row[1] for row in rows) == ["random", "solver", "watch-shell"]
    assert rows[0][1] == "solver"  # plays the series objective exactly
    for row in rows:
        mu, sigma, conservative = (float(value) for value in row[2:5])
        assert 10 < mu < 40
        assert 0 < sigma < 25 / 3
        assert conservative == pytest.approx(mu - 3 * sigma, abs=0.021)  # each printed to 0.005: 0.005 + 3 * 0.005
        played, won, drawn, lost = (int(value) for value in row[5:9])
        assert played == 2
        assert won + drawn + lost == played
    assert [float(row[4]) for row in rows] == sorted((float(row[4]) for row in rows), reverse=True)
    assert "Ranked by μ−3σ" in out


def test_it_is_repeatable_with_a_seed_and_reports_json(capsys):
    args = (RANDOM, GREEDY, STARTER_SHELL, "--games", "2", "--rounds", "2", "--seed", "4", "--json")
    code, out, _ = roundrobin(capsys, *args)
    again_code, again, _ = roundrobin(capsys, *args)

    assert code == again_code == 0
    report = json.loads(out)
    assert report["standings"] == json.loads(again)["standings"]
    assert report["trueskill"]["draw_probability"] == engines.declaration("watch").rating.draw_probability
    assert len(report["series"]) == 6
    assert [s["seed"] for s in report["series"]] == [4, 5, 6, 7, 8, 9]
    # The second round swaps who is player 0 (White in the first game).
    assert report["series"][0]["bots"] == ["random", "greedy"]
    assert report["series"][3]["bots"] == ["greedy", "random"]
    assert len(report["standings"]) == 3
    for entry in report["standings"]:
        assert entry["played"] == 4
        assert entry["won"] + entry["drawn"] + entry["lost"] == 4
    assert sum(entry["points"] for entry in report["standings"]) == sum(sum(s["points"]) for s in report["series"])


def test_it_names_a_bot_entered_twice_apart(capsys):
    code, out, _ = roundrobin(capsys, RANDOM, RANDOM, "--games", "2", "--seed", "1")

    assert code == 0
    assert "random (1)" in out
    assert "random (2)" in out


def test_it_needs_two_bots(capsys):
    code, _, err = roundrobin(capsys, RANDOM)

    assert code == 2
    assert "at least two bots" in err


def test_it_rejects_an_odd_number_of_games(capsys):
    code, _, err = roundrobin(capsys, RANDOM, GREEDY, "--games", "5")

    assert code == 2
    assert "even number of games" in err


def test_it_rejects_a_bad_bot_package(capsys, tmp_path):
    (tmp_path / "bot.toml").write_text('name = "x"\n')

    code, _, err = roundrobin(capsys, RANDOM, str(tmp_path))

    assert code == 2
    assert "bad bot package" in err
    assert 'entry = "main.py"' in err


def test_it_alternates_colours_between_rounds():
    assert schedule(3, 2) == [(0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1)]


def test_it_rates_the_series_winner_up_and_counts_a_draw_for_both():
    env = trueskill_environment(engines.flagship())
    a, b = standing("a"), standing("b")

    record_series(env, [a, b], played([0.5, 1.5], [2, 0], winner=1))

    assert (b.won, a.lost, a.game_wins, b.points) == (1, 1, 2, 1.5)
    assert b.rating.mu > 25 > a.rating.mu

    before = (a.rating.mu, b.rating.mu)
    record_series(env, [a, b], played([1.0, 1.0], [1, 1], winner=None))

    assert (a.drawn, b.drawn) == (1, 1)
    assert a.rating.mu > before[0]  # a draw against a stronger bot is good news
    assert b.rating.mu < before[1]


def test_it_counts_forfeits_and_sorts_by_mu_minus_three_sigma():
    env = trueskill_environment(engines.flagship())
    a, b, c = standing("a"), standing("b"), standing("c")
    record_series(env, [a, b], played([0.0, 2.0], [0, 1], winner=1, forfeit_by=0))

    assert a.forfeits == 1
    assert [s.bot.label for s in ranked([a, b, c])] == ["b", "c", "a"]


def test_it_keeps_its_own_trueskill_environment():
    env = trueskill_environment(engines.flagship())

    assert env.draw_probability == engines.declaration(engines.flagship()).rating.draw_probability
    assert env is not trueskill.global_env()
    assert env.tau < env.sigma / 10


def test_each_game_rates_with_its_own_draw_probability() -> None:
    # The bug this replaced: `arena roundrobin --json` reported Watch's draw probability for every game.
    for name in engines.names():
        env = trueskill_environment(name)
        assert env.draw_probability == engines.declaration(name).rating.draw_probability
    assert len({trueskill_environment(name).draw_probability for name in engines.names()}) > 1
