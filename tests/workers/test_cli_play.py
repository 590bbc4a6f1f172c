"""`arena play`: one series between two bot packages, through the real referee and sandbox."""

from __future__ import annotations

import gzip
import json
import shutil
import tarfile
from pathlib import Path

import pytest

import engines
from engines.watch import format_points
from workers import sandbox
from workers.cli import main

REPO = Path(__file__).resolve().parents[2]
GREEDY = str(REPO / "bots/watch/packages/greedy")
RANDOM = str(REPO / "bots/watch/packages/random")
STARTER_PYTHON = REPO / "bots/starter/watch-python"
STARTER_SHELL = str(REPO / "bots/starter/watch-shell")
# Generous per-move time: a loaded CI machine must not turn a test into a timeout forfeit.
SLOW_OK = ["--decision-ms", "10000"]


def play(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["play", "watch", *args, *SLOW_OK])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def shell_bot(directory: Path, name: str, answer: str) -> Path:
    """Write a shell bot that answers every request with ``answer``."""
    directory.mkdir()
    (directory / "bot.toml").write_text(f'name = "{name}"\nentry = "run"\ngames = ["watch"]\n')
    run = directory / "run"
    run.write_text(
        "#!/bin/sh\n"
        "while IFS= read -r line; do\n"
        "  case $line in *'\"type\":\"request\"'*) printf '%s\\n' '" + answer + "' ;; esac\n"
        "done\n"
    )
    run.chmod(0o755)
    return directory


def test_it_plays_a_series_in_the_sandbox_and_prints_the_result_document(capsys):
    code, out, _ = play(capsys, GREEDY, RANDOM, "--games", "2", "--seed", "5", "--json")

    assert code == 0
    document = json.loads(out)
    assert document["sandbox"] == "bwrap"
    assert [p["name"] for p in document["players"]] == ["greedy", "random"]
    assert len(document["games"]) == 2
    assert [g["seats"][0] for g in document["games"]] == [0, 1]  # each bot is White once
    assert sum(document["score"]["points"]) in (0, 2)
    assert document["score"]["steps"]


def test_it_prints_the_game_table_and_the_watch_score(capsys):
    code, out, _ = play(capsys, GREEDY, RANDOM, "--games", "4", "--seed", "5")

    assert code == 0
    assert "player 0: greedy" in out
    assert "player 1: random" in out
    header = next(line for line in out.splitlines() if line.startswith("#"))
    for column in ("White (seat 0)", "Winner", "Reason", "Moves greedy/random", "Time ms greedy/random", "Forfeit"):
        assert column in header
    rows = [line for line in out.splitlines() if line[:1].isdigit()]
    assert [row.split()[0] for row in rows] == ["1", "2", "3", "4"]
    assert [row.split()[1] for row in rows] == ["greedy", "random", "greedy", "random"]
    assert "Series score (Watch scheme): greedy " in out
    assert "White move totals (the lower scores): greedy " in out
    assert "Black move totals (the higher scores): greedy " in out
    assert "Game wins (not scored): greedy " in out
    assert "White totals " in out  # the scoring steps
    assert "Series winner: " in out
    assert "greedy: wrote nothing" in out


def test_it_writes_a_gzip_replay_and_the_bot_logs_beside_it(capsys, tmp_path):
    replay = tmp_path / "series.json.gz"
    code, out, _ = play(capsys, str(STARTER_PYTHON), RANDOM, "--games", "2", "--seed", "3", "--replay", str(replay))

    assert code == 0
    with gzip.open(replay, "rt", encoding="utf-8") as handle:
        saved = json.load(handle)
    assert saved["format"] == "watch-arena-replay"
    assert len(saved["games"]) == 2
    assert all(game["actions"] for game in saved["games"])
    log = tmp_path / "series.player0-my-watch-bot.stderr.txt"
    assert log.read_text().startswith("game 0 over:")  # the starter kit logs every game_over
    assert f"my-watch-bot: {log}" in out
    assert f"Replay: {replay}" in out


def test_it_shows_the_first_lines_of_the_logs(capsys):
    code, out, _ = play(capsys, str(STARTER_PYTHON), RANDOM, "--games", "2", "--seed", "3", "--show-logs")

    assert code == 0
    assert "    | game 0 over:" in out
    assert "    | game 1 over:" in out


def test_it_plays_an_archive_against_the_shell_starter_kit(capsys, tmp_path):
    archive = tmp_path / "bot.tar.gz"
    with tarfile.open(archive, "w:gz") as bundle:
        bundle.add(REPO / "bots/watch/packages/greedy", arcname=".")

    code, out, _ = play(capsys, str(archive), STARTER_SHELL, "--games", "2", "--seed", "1", "--json")

    assert code == 0
    document = json.loads(out)
    assert [p["name"] for p in document["players"]] == ["greedy", "watch-shell"]
    assert len(document["games"]) == 2


def test_it_lets_a_bot_play_itself_under_numbered_names(capsys):
    code, out, _ = play(capsys, GREEDY, GREEDY, "--games", "2", "--seed", "2")

    assert code == 0
    assert "greedy (1) vs greedy (2)" in out
    assert "Moves greedy (1)/greedy (2)" in out


def test_it_shows_a_forfeit_with_its_reason_and_detail(capsys, tmp_path):
    cheat = shell_bot(tmp_path / "cheat", "cheat", '{"action": 9999}')

    code, out, _ = play(capsys, RANDOM, str(cheat), "--games", "4", "--seed", "1")

    assert code == 0  # a bot's failure is a result
    assert "cheat: illegal_action" in out
    assert "cheat forfeited (illegal_action): " in out
    assert "the series stopped after game" in out
    assert "Series score (Watch scheme): random 2 – 0 cheat" in out
    assert "cheat forfeited game" in out


def test_it_warns_loudly_without_the_sandbox(capsys):
    code, out, err = play(capsys, GREEDY, RANDOM, "--games", "2", "--seed", "1", "--no-sandbox", "--json")

    assert code == 0
    assert json.loads(out)["sandbox"] == "none"
    assert err.count("WARNING") >= 3
    assert "YOUR privileges" in err


def test_it_explains_a_missing_sandbox_and_suggests_no_sandbox(capsys, monkeypatch):
    monkeypatch.setattr(sandbox, "sandbox_problem", lambda: "bubblewrap is not installed (/usr/bin/bwrap)")

    code, _, err = play(capsys, GREEDY, RANDOM, "--games", "2")

    assert code == 1
    assert "bubblewrap is not installed" in err
    assert "--no-sandbox" in err


def test_it_rejects_a_bad_bot_package_with_the_fix(capsys, tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(REPO / "bots/watch/packages/random", broken)
    (broken / "bot.toml").write_text("name = my bot\n")

    code, out, err = play(capsys, str(broken), RANDOM)

    assert code == 2
    assert out == ""
    assert "bad bot package" in err
    assert "not valid TOML" in err
    assert 'name = "my-bot"' in err  # how to fix it


def test_it_rejects_a_missing_bot_path(capsys, tmp_path):
    code, _, err = play(capsys, str(tmp_path / "nowhere"), RANDOM)

    assert code == 2
    assert "does not exist" in err


def test_it_rejects_an_odd_number_of_games(capsys):
    code, _, err = play(capsys, GREEDY, RANDOM, "--games", "3")

    assert code == 2
    assert "even number of games" in err


def test_it_rejects_an_unknown_game_and_lists_the_registered_ones(capsys):
    code = main(["play", "chess", GREEDY, RANDOM])

    assert code == 2
    assert f"unknown game 'chess'; registered games: {', '.join(engines.names())}" in capsys.readouterr().err


@pytest.mark.parametrize(("flag", "value"), [("--decision-ms", "0"), ("--bank-ms", "-5"), ("--increment-ms", "-1")])
def test_it_rejects_times_out_of_range(capsys, flag, value):
    code = main(["play", "watch", GREEDY, RANDOM, flag, value])

    assert code == 2
    assert flag in capsys.readouterr().err


def test_it_writes_points_the_rulebook_way():
    assert [format_points(p) for p in (0, 0.5, 1, 1.5, 2, 5.5)] == ["0", "½", "1", "1½", "2", "5½"]


def test_it_refuses_a_replay_path_in_a_missing_folder_before_playing(capsys, tmp_path):
    code, out, err = play(capsys, GREEDY, RANDOM, "--replay", str(tmp_path / "missing" / "series.json.gz"))

    assert code == 2
    assert out == ""
    assert "does not exist" in err
