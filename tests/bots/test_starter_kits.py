"""The starter kits and the reference bot packages, run as real processes through whole series.

Each bot runs on the system Python (``/usr/bin/python3``), as in the sandbox:
a .py entry with the repository on PYTHONPATH (the sandbox's ``/arena``) and
cwd the bot's directory, an executable entry with an empty environment. The
test plays the referee: it sends every protocol message, checks each answer
through the engine's checked path, and expects nothing on stdout but answers.
"""

from __future__ import annotations

import json
import os
import random
import select
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import engines
from bots.watch import RandomPolicy
from engines.watch import WatchState
from workers.botpkg import load_bot_package

ROOT = Path(__file__).resolve().parents[2]
SYSTEM_PYTHON = "/usr/bin/python3"
PACKAGES = [
    "bots/starter/watch-python",
    "bots/starter/watch-shell",
    "bots/watch/packages/random",
    "bots/watch/packages/greedy",
    "bots/watch/packages/solver",
]
REPLY_TIMEOUT = 20.0


class BotSession:
    """A bot process and the referee's side of its pipes."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0
        )
        self.pending = b""

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")

    def ask(self, message: dict[str, Any]) -> Any:
        """Send a request and return the action of the one line that answers it."""
        self.send(message)
        line = self.read_line(REPLY_TIMEOUT)
        reply = json.loads(line)
        assert list(reply) == ["action"], line
        return reply["action"]

    def read_line(self, timeout: float) -> bytes:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(remaining, 0))
            if not ready:
                raise AssertionError(f"no answer within {timeout}s; stderr: {self.stderr()}")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError(f"the bot closed stdout (exit {self.process.poll()}); stderr: {self.stderr()}")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line

    def finish(self) -> tuple[int, bytes]:
        """Close stdin as the referee does after series_over; return the exit status and any further output."""
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.close()
        status = self.process.wait(timeout=5)
        return status, self.pending + self.process.stdout.read()

    def stderr(self) -> str:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")


def start_session(package_dir: Path, tmp_path: Path) -> BotSession:
    package = load_bot_package(package_dir, tmp_path)
    if package.entry.endswith(".py"):
        # What python_bot_command does inside the sandbox, with host paths.
        command = [SYSTEM_PYTHON, "-B", "-s", package.entry]
        env = {"PYTHONPATH": str(ROOT)}
    else:
        command = [str(package.directory / package.entry)]
        env = {}
    return BotSession(command, package.directory, env)


def play_series(session: BotSession, games: int = 2, seed: int = 5) -> list[str]:
    """Referee a series against a random opponent; return the reasons the games ended."""
    session.send(
        {
            "type": "start",
            "protocol": 2,
            "game": "watch",
            "rules_version": "1",
            "player": 0,
            "num_players": 2,
            "games": games,
            "seed": seed,
            "config": {},
            "time_control": {"decision_ms": 2000, "bank_ms": 60000, "increment_ms": 0},
        }
    )
    opponent = RandomPolicy(seed=seed)
    reasons = []
    for game_index in range(games):
        seat = game_index % 2  # the bot plays White, then Black
        seats = [0, 1] if seat == 0 else [1, 0]
        session.send({"type": "game_start", "game_index": game_index, "seat": seat, "seats": seats})
        state = engines.get("watch").new_initial_state(seed=seed + game_index)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == seat:
                action = session.ask(
                    {
                        "type": "request",
                        "game_index": game_index,
                        "observation": state.observation(seat),
                        "legal_actions": legal,
                        "clock": {"decision_ms": 2000, "bank_ms": 60000.0},
                    }
                )
                if isinstance(action, str):
                    state.apply_notation(action)
                else:
                    state.apply_checked(action)
            else:
                state.apply_action(opponent.choose(state.observation(1 - seat), legal))
        outcome = state.outcome()
        assert outcome is not None
        reasons.append(outcome.reason)
        session.send({"type": "game_over", "game_index": game_index, "outcome": outcome.to_json(), "forfeit": None})
    session.send({"type": "series_over", "score": {"points": [0, 0]}})
    return reasons


@pytest.mark.parametrize("package", PACKAGES)
def test_it_plays_a_whole_series_with_legal_answers_and_exits_cleanly(package: str, tmp_path: Path) -> None:
    session = start_session(ROOT / package, tmp_path)

    reasons = play_series(session)

    status, extra_output = session.finish()
    assert status == 0, session.stderr()
    assert extra_output == b""  # nothing but answers on stdout
    assert len(reasons) == 2


def test_the_shell_bot_answers_the_first_legal_action_whatever_the_observation(tmp_path: Path) -> None:
    session = start_session(ROOT / "bots/starter/watch-shell", tmp_path)
    session.send({"type": "start", "protocol": 2, "seed": 1})
    session.send({"type": "game_start", "game_index": 0, "seat": 0, "seats": [0, 1]})
    tricky_observation = {
        "nested": {"legal_actions": [999], "deeper": [[1, 2], {"x": "]"}]},
        "text": 'he said "legal_actions": [5]',
        "history": list(range(300)),
    }
    long_legal = list(range(17, 17 + 250))

    first = session.ask({"type": "request", "observation": tricky_observation, "legal_actions": long_legal})
    compact = json.dumps({"type": "request", "observation": {}, "legal_actions": [42, 1]}, separators=(",", ":"))
    session.process.stdin.write(compact.encode() + b"\n")  # type: ignore[union-attr]
    second = json.loads(session.read_line(REPLY_TIMEOUT))["action"]
    # A non-request message that mentions legal_actions gets no answer.
    session.send({"type": "game_over", "game_index": 0, "outcome": {"legal_actions": [3]}, "forfeit": None})
    session.send({"type": "series_over", "score": {}})

    status, extra_output = session.finish()
    assert (first, second) == (17, 42)
    assert status == 0
    assert extra_output == b""


def position_with_a_winning_move() -> tuple[WatchState, list[int]]:
    """Return the first position of some random games where some moves win at once and others do not."""
    for seed in range(100):
        rng = random.Random(seed)
        state = engines.get("watch").new_initial_state(seed=seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.phase == "move":
                winning = [action for action in legal if _wins(state, action)]
                if 0 < len(winning) < len(legal):
                    return state, winning
            state.apply_action(rng.choice(legal))
    raise AssertionError("no such position in 100 games")


def _wins(state: WatchState, action: int) -> bool:
    child = state.clone()
    child.apply_action(action)
    return child.is_terminal()


def test_the_python_starter_takes_a_winning_move(tmp_path: Path) -> None:
    state, winning = position_with_a_winning_move()
    seat = state.current_player()
    session = start_session(ROOT / "bots/starter/watch-python", tmp_path)
    session.send({"type": "start", "protocol": 2, "seed": 1})

    action = session.ask(
        {"type": "request", "observation": state.observation(seat), "legal_actions": state.legal_actions()}
    )

    session.send({"type": "series_over", "score": {}})
    assert session.finish()[0] == 0
    assert action in winning
