"""``arena play watch_race``: a series of four sandboxed bots, one game each starting, chance drawn by the referee."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines
from workers.cli import main

REPO = Path(__file__).resolve().parents[2]
RANDOM = str(REPO / "bots/watch_race/packages/random")
HEURISTIC = str(REPO / "bots/watch_race/packages/heuristic")
SLOW_OK = ["--decision-ms", "10000"]

SPY = """
import json, sys
turns = {}
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "request":
        turn = turns[message["game_index"]] = turns.get(message["game_index"], -1) + 1
        sys.stderr.write(json.dumps({"turn": turn, "game": message["game_index"],
                                     "observation": message["observation"]}) + "\\n")
        sys.stderr.flush()
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""


def play(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["play", "watch_race", *args, *SLOW_OK])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def replay(document: dict, index: int) -> engines.State:
    game = document["games"][index]
    state = engines.get("watch_race", document["config"]).new_initial_state(num_players=len(document["players"]))
    for action in game["actions"]:
        state.apply_checked(action["action"])
    return state


def test_four_bots_play_four_games_each_starting_once(capsys) -> None:
    code, out, _ = play(capsys, HEURISTIC, RANDOM, RANDOM, RANDOM, "--seed", "11", "--json")
    assert code == 0
    document = json.loads(out)
    assert [p["name"] for p in document["players"]] == ["race-heuristic", "race-random", "race-random", "race-random"]
    assert [g["seats"][0] for g in document["games"]] == [0, 1, 2, 3]
    for index, game in enumerate(document["games"]):
        chance = [a for a in game["actions"] if a["seat"] is None]
        assert chance, "the deal and the timer are chance outcomes the referee draws and records"
        state = replay(document, index)  # the recorded actions are the whole game
        assert state.is_terminal()
        assert [game["seats"][s] for s in state.outcome().winners] == game["winners"]
    score = document["score"]
    assert sum(score["points"]) == sum(len(g["winners"]) == 1 for g in document["games"])
    assert len(score["points"]) == 4


def test_each_bot_sees_only_its_own_observation(capsys, tmp_path: Path) -> None:
    spy = tmp_path / "spy"
    spy.mkdir()
    (spy / "bot.toml").write_text('name = "spy"\nentry = "main.py"\ngames = ["watch_race"]\n')
    (spy / "main.py").write_text(SPY)
    code, out, _ = play(capsys, str(spy), RANDOM, RANDOM, "--seed", "4", "--json", "--games", "3")
    assert code == 0
    document = json.loads(out)
    log = document["stderr"][0]
    lines = [line for line in log["text"].splitlines() if line.startswith('{"turn"')]
    if log["truncated_bytes"]:
        lines = lines[:-1]  # the cap may cut the last line
    seen = [json.loads(line) for line in lines]
    assert len(seen) > 10
    for entry in seen:
        game = document["games"][entry["game"]]
        seat = game["seats"].index(0)  # the spy is series player 0
        # Its decisions are its actions in the record: the state before its turn-th one is what it saw.
        mine = [ply for ply, action in enumerate(game["actions"]) if action["seat"] == seat]
        state = engines.get("watch_race", document["config"]).new_initial_state(num_players=3)
        for action in game["actions"][: mine[entry["turn"]]]:
            state.apply_action(action["action"])
        assert entry["observation"] == state.observation(seat)  # its own view, and nothing more
        assert "timer" not in json.dumps(entry["observation"]).lower().replace("timer_turns", "")


def test_it_prints_the_games_and_the_score_for_people(capsys) -> None:
    code, out, _ = play(capsys, RANDOM, RANDOM, HEURISTIC, "--seed", "2")
    assert code == 0
    assert "watch_race (rules" in out
    assert "Moves by player" in out
    assert "Series score: " in out
    assert "Series winner: " in out


def test_it_refuses_a_bot_count_the_game_does_not_take(capsys) -> None:
    code, _, err = play(capsys, *[RANDOM] * 7)
    assert code == 2
    assert "watch_race is for 2 to 6 players: give that many bots, not 7" in err
