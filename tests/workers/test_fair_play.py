"""What a bot can know and when it can think, tried as a competitor who wants to win unfairly would.

Each test runs real series through the sandbox (the ``arena`` fixture, conftest.py):

- chance comes from the series' secret, so a bot that replays the referee's generator from every
  number it is sent foresees no hidden draw;
- a seat is told its observation, its legal moves and its own clock, and nothing counted over the
  other seats' (secret) actions; another bot's forfeit reaches it without the forfeiter's legal moves;
- a stall of the referee itself (its worker stopped) is charged to no bot and forfeits no one.

docs/protocol.md ("What a bot can know") and docs/sandbox.md state the promises these hold.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import engines
from workers import chance
from workers.referee import ILLEGAL_ACTION, MALFORMED_OUTPUT, Forfeit, parse_answer_line

REPO = Path(__file__).resolve().parents[2]


def opening_chance(game: dict[str, Any]) -> list[int]:
    """Return the chance outcomes the referee drew before a game's first decision."""
    drawn = []
    for action in game["actions"]:
        if action["seat"] is not None:
            break
        drawn.append(action["action"])
    return drawn


def test_a_bot_that_replays_the_referees_chance_from_what_it_is_sent_foresees_nothing(arena) -> None:
    # The Watch race deals every objective card and sets the hidden timer before anyone moves.
    series = arena.play("seed_spy", "polite", game="watch_race", games=2, stderr_cap_bytes=4 * 1024 * 1024)
    series.assert_completed()
    actual = {game["index"]: opening_chance(game) for game in series.document["games"]}
    assert all(len(drawn) >= 6 for drawn in actual.values()), actual
    predictions: dict[int, dict[str, list[int]]] = {}
    for line in series.stderr().splitlines():
        if line.startswith("PREDICT "):
            _, game, guess, drawn = line.split(" ", 3)
            predictions.setdefault(int(game), {})[guess] = json.loads(drawn)
    assert set(predictions) == set(actual)
    common = set.intersection(*(set(by_guess) for by_guess in predictions.values()))
    assert len(common) > 30, common  # its seed, the game index, the clock... each under six rules
    # No number it was sent, under any rule, foresees the deals (before protocol 2, its seed under
    # "(n-player)//1000*1000+g" foresaw every one: the seed was the series seed * 1000 + player,
    # and game g's deal came from Random(series seed * 1000 + g)). A blind guess foresees a whole
    # Watch race opening (a card order of 6 and a timer of 41) once in 29,520, both games' once in 9e8.
    foreseen = [guess for guess in common if all(predictions[g][guess] == actual[g] for g in actual)]
    assert foreseen == []


def messages(series: Any, player: int) -> list[dict[str, Any]]:
    return [json.loads(line[8:]) for line in series.stderr(player).splitlines() if line.startswith("MESSAGE ")]


def test_a_seat_is_told_its_observation_its_moves_and_its_own_clock_and_nothing_more(arena) -> None:
    # The factory race places workers in secret, all at once: a count of the game's actions in a
    # request (protocol 1's "ply") told a seat how many workers the others had placed.
    series = arena.play("message_log", "polite", game="factory_race", games=2, hostile_player=1)
    series.assert_completed()
    seen = messages(series, 1)
    kinds = [message["type"] for message in seen]
    assert kinds[0] == "start"
    assert kinds[-1] == "series_over"
    assert kinds.count("game_start") == 2
    start = seen[0]
    assert set(start) == {"type", "protocol", "game", "rules_version", "player", "num_players", "games", "seed",
                          "config", "time_control"}  # fmt: skip
    assert start["protocol"] == 2
    for message in seen:
        if message["type"] == "request":
            assert set(message) == {"type", "game_index", "observation", "legal_actions", "clock"}, message
            assert set(message["clock"]) == {"decision_ms", "bank_ms"}, message
            assert isinstance(message["clock"]["bank_ms"], float | int), message  # its own bank, no one else's
        elif message["type"] == "game_start":
            assert set(message) == {"type", "game_index", "seat", "seats"}
        elif message["type"] == "game_over":
            assert set(message) == {"type", "game_index", "outcome", "forfeit"}
    # Its own seed is for its own randomness: nothing a referee's generator was seeded with.
    assert start["seed"] == chance.bot_seed(chance.local_secret(0), 1)


def test_another_bots_forfeit_is_told_without_its_legal_moves(arena) -> None:
    # An illegal move's detail lists the moves that were legal, which in a game of secrets names the
    # forfeiter's hidden cards: the other seats hear who forfeited and why, not that.
    series = arena.play("message_log", "illegal_once", games=2)
    forfeits = [game["forfeit"] for game in series.document["games"] if game["forfeit"]]
    assert forfeits[0]["reason"] == ILLEGAL_ACTION
    assert "legal now" in forfeits[0]["detail"]
    told = [message["forfeit"] for message in messages(series, 0) if message["type"] == "game_over"]
    assert told == [{"player": 1, "seat": 1, "reason": ILLEGAL_ACTION}]


# -- the answer: one meaning for every reader --------------------------------------------------------
@pytest.mark.parametrize(
    ("line", "says"),
    [
        (b'\xef\xbb\xbf{"action": 3}', "byte-order mark"),
        (b'{"action": 3}\r', "carriage return"),
        (b'{"action": 999999, "action": 3}', "appears twice"),
        (b'{"action": 3, "why": {"a": 1, "a": 2}}', "appears twice"),
        (b'{"action": NaN}', "NaN is not JSON"),
        (b'{"action": -Infinity}', "Infinity is not JSON"),
        (b'{"action": 3} {"action": 4}', "not JSON"),
        (b'["action", 3]', 'expected {"action": ...}'),
        (b'{"act\xffion": 3}', "not JSON"),
    ],
)
def test_an_answer_that_could_be_read_two_ways_is_malformed(line: bytes, says: str) -> None:
    with pytest.raises(Forfeit) as caught:
        parse_answer_line(line)
    assert caught.value.reason == MALFORMED_OUTPUT
    assert says in caught.value.detail


def test_a_plain_answer_is_read() -> None:
    assert parse_answer_line(b'{"action": 3}') == {"action": 3}
    assert parse_answer_line(b'{ "action" : "a4-c4", "note": "keys other than action are ignored" }')["action"] == (
        "a4-c4"
    )


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ('sys.stdout.write("{\\"action\\": %d}\\r\\n" % legal_actions[0])', "carriage return"),
        ('sys.stdout.write("{\\"action\\": 999999, \\"action\\": %d}\\n" % legal_actions[0])', "appears twice"),
        ('sys.stdout.write("{\\"action\\": %d}\\n\\n" % legal_actions[0])', "more than one line"),
    ],
)
def test_a_bot_that_answers_two_ways_forfeits_through_the_sandbox(arena, answer: str, says: str) -> None:
    main = textwrap.dedent(
        f"""
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] == "request":
                legal_actions = message["legal_actions"]
                {answer}
                sys.stdout.flush()
        """
    )
    series = arena.play(arena.package("polite", files={"main.py": main}), time_control=arena.short)
    forfeit = series.assert_forfeit(MALFORMED_OUTPUT)
    # The blank line may come with the answer, or be found before the next request.
    assert says in forfeit["detail"] or (says == "more than one line" and "without a request" in forfeit["detail"])


# -- a stalled referee forfeits no one --------------------------------------------------------------
STALLED_REFEREE = """
import json, sys
sys.path[:0] = [{repo!r}]
from workers.botpkg import load_bot_package
from workers.referee import SeriesSpec, TimeControl, run_series
from workers.sandbox import Limits
from workers.slots import lease_slot
bots = [load_bot_package({slow!r}, {work!r}), load_bot_package({slow!r}, {work!r})]
lease = lease_slot({slot}, {uid_base})
with open({slot_file!r}, "w") as handle:
    handle.write(str(lease.slot))
spec = SeriesSpec(bots=bots, games=4, sandbox="bwrap", uid_base={uid_base},
                  time_control=TimeControl(decision_ms=300, bank_ms=3000), limits=Limits(memory_mb=64, pids=16),
                  start_timeout_ms=2000)
print(json.dumps(run_series(spec, slot_lease=lease)))
"""


def test_a_referee_stopped_for_longer_than_a_decision_forfeits_no_one(arena, tmp_path: Path) -> None:
    # A match worker stopped (SIGSTOP, a frozen container, a suspended host) for 1.2 s, twice,
    # in a series whose decisions may take 300 ms: the bot on move answered in time; the
    # referee just could not read it. Before, that was the innocent bot's decision_timeout.
    slot_file = tmp_path / "slot"
    script = STALLED_REFEREE.format(
        repo=str(REPO), slow=str(arena.hostile_dir / "polite_slow"), work=str(tmp_path / "work"),
        slot=arena.slot + 1, uid_base=arena.uid_base, slot_file=str(slot_file),
    )  # fmt: skip
    referee = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while not slot_file.exists() or not slot_file.read_text():
            assert referee.poll() is None, referee.communicate()[1].decode()[-2000:]
            assert time.monotonic() < deadline, "the referee never leased a slot"
            time.sleep(0.05)
        uids = arena.uids_of(int(slot_file.read_text()))
        while len({p.uid for p in arena.processes_of(uids) if "python3" in p.cmdline}) < 2:
            assert referee.poll() is None, referee.communicate()[1].decode()[-2000:]
            assert time.monotonic() < deadline, "the bots never started"
            time.sleep(0.05)
        time.sleep(0.7)  # past their start-up, into the first game (4 games of 40 ms moves: about 5 s)
        for _ in range(2):
            os.kill(referee.pid, signal.SIGSTOP)
            time.sleep(1.2)
            os.kill(referee.pid, signal.SIGCONT)
            time.sleep(0.6)
        out, err = referee.communicate(timeout=120)
    finally:
        if referee.poll() is None:
            referee.kill()
            referee.wait()
    assert referee.returncode == 0, err.decode()[-2000:]
    document = json.loads(out)
    assert [game["forfeit"] for game in document["games"]] == [None] * 4
    assert document["referee_stall_ms"] > 0  # seen, and charged to no bot
    assert not arena.wait_no_survivors(uids)


def test_the_chance_secret_streams_are_independent_and_fixed() -> None:
    secret = chance.local_secret(7)
    assert chance.local_secret(7) == secret != chance.local_secret(8)
    assert chance.game_rng(secret, 0).random() == chance.game_rng(secret, 0).random()
    assert chance.game_rng(secret, 0).random() != chance.game_rng(secret, 1).random()
    assert chance.bot_seed(secret, 0) != chance.bot_seed(secret, 1)
    assert 0 <= chance.bot_seed(secret, 0) < 2**63
    with pytest.raises(chance.SecretError):
        chance.from_hex("ab" * 31)
    with pytest.raises(chance.SecretError):
        chance.from_hex("zz" * 32)
    assert chance.from_hex(secret.hex()) == secret
    assert engines.CHANCE == -1
