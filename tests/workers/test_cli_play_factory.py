"""``arena play factory_race``: sandboxed series of 2 to 4 bots in either mode, the placements kept secret."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engines
from workers.cli import main

REPO = Path(__file__).resolve().parents[2]
RANDOM = str(REPO / "bots/factory_race/packages/random")
HEURISTIC = str(REPO / "bots/factory_race/packages/heuristic")
SLOW_OK = ["--decision-ms", "10000"]

# A bot that answers the first legal action and writes every observation it is sent to stderr.
SPY = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "request":
        sys.stderr.write(json.dumps(message["observation"]) + "\\n")
        sys.stderr.flush()
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
"""


def play(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["play", "factory_race", *args, *SLOW_OK])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def replay(document: dict, index: int) -> engines.State:
    state = engines.get("factory_race", document["config"]).new_initial_state(
        seed=document["seed"] * 1000 + index, num_players=len(document["players"])
    )
    for action in document["games"][index]["actions"]:
        state.apply_checked(action["action"])
    return state


def test_four_bots_play_the_challenge_mode_each_starting_once(capsys) -> None:
    config = json.dumps({"mode": "challenge", "stars": 2})
    code, out, err = play(capsys, HEURISTIC, RANDOM, HEURISTIC, RANDOM, "--seed", "3", "--config", config, "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["config"] == {"mode": "challenge", "stars": 2, "start": "rotate", "max_rounds": 30}
    assert [g["seats"][0] for g in document["games"]] == [0, 1, 2, 3]
    for index, game in enumerate(document["games"]):
        assert any(a["seat"] is None for a in game["actions"]), "posters, events and tiles are drawn by the referee"
        state = replay(document, index)
        assert state.is_terminal()
        assert state.config["mode"] == "challenge"
        assert [game["seats"][s] for s in state.outcome().winners] == game["winners"]
        assert set(game["winners"]) <= {0, 2}, "a heuristic bot finishes first"
    assert sum(document["score"]["points"]) >= 4


def test_two_bots_play_two_games_of_the_base_mode(capsys) -> None:
    code, out, err = play(capsys, RANDOM, HEURISTIC, "--seed", "8")
    assert code == 0, err
    assert "factory-heuristic" in out
    assert "a factory assembled its batch first" in out
    assert "Series winner: factory-heuristic" in out


def test_a_bot_never_sees_the_placements_of_the_seats_before_it(capsys, tmp_path: Path) -> None:
    spy = tmp_path / "spy"
    spy.mkdir()
    (spy / "bot.toml").write_text('name = "spy"\nentry = "main.py"\ngames = ["factory_race"]\n')
    (spy / "main.py").write_text(SPY)
    # The spy sits second in game 1 and first in game 2; the heuristic places workers in every round.
    code, out, _ = play(capsys, HEURISTIC, str(spy), "--seed", "5", "--json")
    assert code == 0
    document = json.loads(out)
    log = document["stderr"][1]
    lines = [line for line in log["text"].splitlines() if line.startswith("{")]
    if log["truncated_bytes"]:
        lines = lines[:-1]
    seen = [json.loads(line) for line in lines]
    placing = [o for o in seen if o["phase"] == "place"]
    assert placing, "the spy was asked to place workers"
    for observation in placing:
        other = observation["factories"][1 - observation["player"]]
        assert other["placed"] is None
    # ...while the heuristic did place workers in those rounds, before the spy in game 1.
    first = document["games"][0]
    assert any(a["seat"] == 0 and a["notation"].startswith("staff") for a in first["actions"])


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("{mode: base}", "--config: not JSON"),
        ("[1, 2]", "a JSON object of the game's settings, not list"),
        ('{"mode": "blitz"}', "mode must be 'base' or 'challenge'"),
        ('{"stars": 2}', "new technology (2 stars) is played in the 'challenge' mode only"),
        ('{"colour": "red"}', "unknown config key(s) colour"),
    ],
)
def test_it_refuses_a_bad_config_before_playing(capsys, config: str, message: str) -> None:
    code, out, err = play(capsys, RANDOM, RANDOM, "--config", config)
    assert code == 2
    assert out == ""
    assert message in err
