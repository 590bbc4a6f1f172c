"""The Python bot SDK, driven through whole fake series on in-memory streams."""

from __future__ import annotations

import enum
import io
import json
import random
import sys
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import engines
from bots.sdk import run
from bots.sdk.protocol import ProtocolError, encode_action
from bots.watch import RandomPolicy


def start_message(seed: int = 12345) -> dict[str, Any]:
    return {
        "type": "start",
        "protocol": 2,
        "game": "watch",
        "rules_version": "1",
        "player": 0,
        "num_players": 2,
        "games": 1,
        "seed": seed,
        "config": {},
        "time_control": {"decision_ms": 2000, "bank_ms": 60000, "increment_ms": 0},
    }


def requests_of_a_game(seat: int = 0, seed: int = 7) -> list[dict[str, Any]]:
    """Return the requests a bot in ``seat`` receives in one random game of Watch."""
    state = engines.get("watch").new_initial_state(seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        if player == seat:
            out.append(
                {
                    "type": "request",
                    "game_index": 0,
                    "observation": state.observation(seat),
                    "legal_actions": legal,
                    "clock": {"decision_ms": 2000, "bank_ms": 60000.0},
                }
            )
        state.apply_action(rng.choice(legal))
    return out


def series(requests: list[dict[str, Any]], *, end: bool = True) -> list[dict[str, Any]]:
    """Return a one-game series around ``requests``."""
    messages = [start_message(), {"type": "game_start", "game_index": 0, "seat": 0, "seats": [0, 1]}, *requests]
    if end:
        messages += [
            {
                "type": "game_over",
                "game_index": 0,
                "outcome": {"winners": [0], "reason": "capture", "returns": [1.0, -1.0], "stats": [{}, {}]},
                "forfeit": None,
            },
            {"type": "series_over", "score": {"points": [1, 0]}},
        ]
    return messages


def lines(messages: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(message) + "\n" for message in messages)


@dataclass
class Served:
    """What a bot run by the SDK wrote, and how it ended."""

    stdout: str
    stderr: str
    exit_code: int | None  # None: run() returned normally

    @property
    def answers(self) -> list[Any]:
        return [json.loads(line)["action"] for line in self.stdout.splitlines()]


def serve(policy: Any, messages: list[dict[str, Any]] | str) -> Served:
    """Run the SDK on ``messages`` with in-memory streams."""
    text = messages if isinstance(messages, str) else lines(messages)
    stdout, stderr = io.StringIO(), io.StringIO()
    exit_code = None
    try:
        run(policy, stdin=io.StringIO(text), stdout=stdout, stderr=stderr)
    except SystemExit as exc:
        exit_code = exc.code  # type: ignore[assignment]
    return Served(stdout.getvalue(), stderr.getvalue(), exit_code)


class RecordingPolicy:
    """A policy class with every hook, recording what the SDK called."""

    name = "recording"
    instances: ClassVar[list[RecordingPolicy]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.calls: list[str] = []
        RecordingPolicy.instances.append(self)

    def choose(self, observation: dict[str, Any], legal_actions: list[int]) -> int:
        self.calls.append("choose")
        return legal_actions[-1]

    def on_start(self, message: dict[str, Any]) -> None:
        self.calls.append(f"start games={message['games']}")

    def on_game_start(self, message: dict[str, Any]) -> None:
        self.calls.append(f"game_start seat={message['seat']}")

    def on_request(self, message: dict[str, Any]) -> None:
        self.calls.append(f"request bank={message['clock']['bank_ms']}")

    def on_game_over(self, message: dict[str, Any]) -> None:
        self.calls.append(f"game_over {message['outcome']['reason']}")

    def on_series_over(self, message: dict[str, Any]) -> None:
        self.calls.append("series_over")


def test_it_answers_every_request_of_a_series_with_a_policy_class_and_calls_its_hooks() -> None:
    RecordingPolicy.instances.clear()
    requests = requests_of_a_game()

    served = serve(RecordingPolicy, series(requests))

    assert served.exit_code is None
    assert served.answers == [request["legal_actions"][-1] for request in requests]
    assert served.stderr == ""
    (policy,) = RecordingPolicy.instances  # one instance for the whole series
    assert policy.seed == 12345
    expected = ["start games=1", "game_start seat=0"]
    for request in requests:
        expected += [f"request bank={request['clock']['bank_ms']}", "choose"]
    expected += ["game_over capture", "series_over"]
    assert policy.calls == expected


def test_it_runs_a_plain_function() -> None:
    requests = requests_of_a_game(seat=1)

    served = serve(lambda observation, legal_actions: legal_actions[0], series(requests))

    assert served.answers == [request["legal_actions"][0] for request in requests]


def test_it_runs_a_reference_policy_and_every_answer_is_legal() -> None:
    requests = requests_of_a_game()

    served = serve(RandomPolicy, series(requests))

    assert len(served.answers) == len(requests)
    assert all(answer in request["legal_actions"] for answer, request in zip(served.answers, requests, strict=True))


def test_it_accepts_a_policy_instance() -> None:
    policy = RecordingPolicy(seed=1)

    serve(policy, series(requests_of_a_game()))

    assert policy.seed == 1  # not replaced by a new instance
    assert policy.calls[:2] == ["start games=1", "game_start seat=0"]


def test_it_sends_answers_in_the_games_notation() -> None:
    requests = requests_of_a_game()

    def notation(observation: dict[str, Any], legal_actions: list[int]) -> str:
        replay = engines.get("watch").state_from_json({"history": observation["history"]})
        return replay.action_to_string(legal_actions[0])

    served = serve(notation, series(requests[:1]))

    assert served.stdout == '{"action": "dark-green@a2"}\n'


def test_it_exits_non_zero_with_the_traceback_when_the_policy_raises() -> None:
    calls = []

    def failing(observation: dict[str, Any], legal_actions: list[int]) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise ZeroDivisionError("my bug")
        return legal_actions[0]

    served = serve(failing, series(requests_of_a_game()))

    assert served.exit_code == 1
    assert len(served.answers) == 2  # the answers before the failure
    assert "Traceback (most recent call last)" in served.stderr
    assert "ZeroDivisionError: my bug" in served.stderr


def test_it_exits_non_zero_when_a_hook_raises() -> None:
    class BadHook(RecordingPolicy):
        def on_game_start(self, message: dict[str, Any]) -> None:
            raise KeyError("seat")

    served = serve(BadHook, series(requests_of_a_game()))

    assert served.exit_code == 1
    assert served.stdout == ""
    assert "KeyError: 'seat'" in served.stderr


def test_it_exits_non_zero_when_the_answer_is_not_an_action() -> None:
    served = serve(lambda observation, legal_actions: None, series(requests_of_a_game()))

    assert served.exit_code == 1
    assert served.stdout == ""
    assert "returned NoneType None" in served.stderr


def test_it_returns_at_end_of_input_without_series_over() -> None:
    requests = requests_of_a_game()

    served = serve(RandomPolicy, series(requests[:3], end=False))

    assert served.exit_code is None
    assert len(served.answers) == 3
    assert served.stderr == ""


def test_it_stops_reading_at_series_over() -> None:
    requests = requests_of_a_game()
    text = lines(series(requests[:1])) + lines(requests[1:2])  # a request after the end of the series

    served = serve(RandomPolicy, text)

    assert len(served.answers) == 1


def test_it_ignores_unknown_message_types_and_blank_lines() -> None:
    requests = requests_of_a_game()
    messages = series(requests[:2])
    text = lines(messages[:2]) + "\n" + json.dumps({"type": "ping", "note": "from protocol 2"}) + "\n"
    text += lines(messages[2:])

    served = serve(RandomPolicy, text)

    assert served.exit_code is None
    assert len(served.answers) == 2
    assert served.stderr == ""


def test_it_exits_with_status_2_on_a_line_that_is_not_json() -> None:
    served = serve(RandomPolicy, lines(series([])[:2]) + "this is not json\n")

    assert served.exit_code == 2
    assert "cannot read the referee's line 'this is not json'" in served.stderr


def test_it_plays_unseeded_when_a_request_comes_before_start() -> None:
    RecordingPolicy.instances.clear()
    requests = requests_of_a_game()

    served = serve(RecordingPolicy, lines(requests[:1]))

    assert served.answers == [requests[0]["legal_actions"][-1]]
    assert RecordingPolicy.instances[0].seed is None


def test_it_works_on_binary_streams() -> None:
    requests = requests_of_a_game()
    stdout = io.BytesIO()

    run(RandomPolicy, stdin=io.BytesIO(lines(series(requests)).encode()), stdout=stdout, stderr=io.StringIO())

    assert len(stdout.getvalue().splitlines()) == len(requests)


def test_it_sends_print_output_to_stderr_and_keeps_stdout_for_the_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    requests = requests_of_a_game()
    fake_stdin = io.TextIOWrapper(io.BytesIO(lines(series(requests[:2])).encode()), encoding="utf-8")
    fake_stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    log = io.StringIO()
    monkeypatch.setattr(sys, "stdin", fake_stdin)
    monkeypatch.setattr(sys, "stdout", fake_stdout)

    def chatty(observation: dict[str, Any], legal_actions: list[int]) -> int:
        print("thinking about", len(legal_actions), "actions")
        return legal_actions[0]

    run(chatty, stderr=log)

    assert sys.stdout is fake_stdout  # restored
    fake_stdout.flush()
    answers = fake_stdout.buffer.getvalue().decode().splitlines()
    assert [json.loads(answer)["action"] for answer in answers] == [r["legal_actions"][0] for r in requests[:2]]
    assert log.getvalue().count("thinking about") == 2


def test_it_encodes_integer_like_actions_and_refuses_booleans() -> None:
    class Square(enum.IntEnum):
        B3 = 307

    assert encode_action(17) == b'{"action": 17}\n'
    assert encode_action(Square.B3) == b'{"action": 307}\n'
    assert encode_action('b3-"c3"') == b'{"action": "b3-\\"c3\\""}\n'
    with pytest.raises(ProtocolError, match="return an action id"):
        encode_action(True)
    with pytest.raises(ProtocolError, match=r"float 3\.0"):
        encode_action(3.0)


# -- the SDK's own reading of JSON (no `json` package at start-up) --------------------------------
JSON_TEXTS = [
    '{"type": "request", "observation": {"history": ["a", "b"]}, "legal_actions": [0, 1, 2]}\n',
    '  {"a": [1, -2, 3.5e-3, true, false, null, "é\\u00e9\\ud83d\\ude00"]}  \r\n',
    "[]",
    '"text"',
    "12345678901234567890123",
    '{"x": NaN, "y": Infinity, "z": -Infinity}',
    '{"a": 1, "a": 2}',
]
NOT_JSON = [
    "",
    "   \n",
    "{",
    '{"a": 1} trailing',
    '{"a": 1}{"b": 2}',
    "{'a': 1}",
    '{"a": "\x01"}',  # a control character inside a string: strict, as json.loads
    "[1, 2,]",
    "nul",
    b'{"a": "\xff"}',  # not UTF-8
]


@pytest.mark.parametrize("text", JSON_TEXTS)
def test_the_sdk_reads_every_json_text_as_json_loads_does(text: str) -> None:
    from bots.sdk.protocol import loads

    for line in (text, text.encode()):
        assert repr(loads(line)) == repr(json.loads(line))


@pytest.mark.parametrize("text", NOT_JSON)
def test_the_sdk_refuses_what_json_loads_refuses_with_the_same_complaint(text: str | bytes) -> None:
    from bots.sdk.protocol import loads

    complaints = []
    for reader in (json.loads, loads):
        try:
            reader(text)
        except ValueError as refused:  # JSONDecodeError, or UnicodeDecodeError for bytes that are not UTF-8
            complaints.append((type(refused), str(refused).split(":")[0]))
    assert len(complaints) == 2
    assert complaints[0] == complaints[1]
