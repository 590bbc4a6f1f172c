"""bot.toml's ``roles``: the roles a bot plays in a team game, checked as hostile input like every manifest key.

The toy team game (tests/toygame/coop.py, "break-in") is registered for each
test; its roles are "player" and "gm".
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import engines
from tests.toygame.coop import DECLARATION, PACKAGES
from workers.botpkg import BotPackageError, load_bot_package

MAIN = "from bots.sdk import run\n\nrun(lambda observation, legal_actions: legal_actions[0])\n"


@pytest.fixture(autouse=True)
def team_game() -> Iterator[None]:
    engines.register(DECLARATION)
    yield
    engines.unregister(DECLARATION.name)


def package(tmp_path: Path, manifest: str) -> Path:
    directory = tmp_path / "bot"
    directory.mkdir()
    (directory / "bot.toml").write_text('name = "team-bot"\nentry = "main.py"\n' + manifest, encoding="utf-8")
    (directory / "main.py").write_text(MAIN, encoding="utf-8")
    return directory


def load(tmp_path: Path, manifest: str) -> tuple[str, ...]:
    return load_bot_package(package(tmp_path, manifest), tmp_path / "work").roles


def test_it_reads_the_roles_a_bot_plays(tmp_path: Path) -> None:
    assert load(tmp_path, 'games = ["breakin"]\nroles = ["gm"]\n') == ("gm",)
    assert load_bot_package(PACKAGES / "harsh", tmp_path / "harsh").roles == ("gm",)
    assert load_bot_package(PACKAGES / "random", tmp_path / "random").roles == ("player", "gm")


def test_it_reads_no_roles_as_every_role(tmp_path: Path) -> None:
    assert load(tmp_path, 'games = ["breakin"]\n') == ()


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ('games = ["breakin"]\nroles = "gm"\n', r"roles must be a list of role names in quotes, like roles = \["),
        ('games = ["breakin"]\nroles = [1, 2]\n', "roles must be a list of role names in quotes"),
        ('games = ["breakin"]\nroles = [["gm"]]\n', "roles must be a list of role names in quotes"),
        ('games = ["breakin"]\nroles = []\n', "roles lists no role; remove the line to play every role"),
        (
            'games = ["breakin"]\nroles = ["dealer"]\n',
            "roles lists 'dealer', not a role of breakin; the roles are player, gm",
        ),
        ('games = ["breakin"]\nroles = ["GM"]\n', "roles lists 'GM', not a role of breakin"),
        ('games = ["breakin"]\nroles = ["gm", "gm"]\n', "roles lists 'gm' more than once; list each once"),
        ('games = ["watch"]\nroles = ["player"]\n', "roles are for team games, and games lists watch"),
        ('roles = ["player"]\n', "roles are for team games, and games lists no games"),
        ('games = ["breakin"]\nroles = {gm = true}\n', "roles must be a list of role names in quotes"),
    ],
)
def test_it_refuses_roles_it_cannot_use(tmp_path: Path, manifest: str, message: str) -> None:
    with pytest.raises(BotPackageError, match=message):
        load(tmp_path, manifest)
    assert not (tmp_path / "work").exists() or not any((tmp_path / "work").iterdir())


def test_it_cuts_a_huge_role_name_short_in_its_message(tmp_path: Path) -> None:
    with pytest.raises(BotPackageError) as caught:
        load(tmp_path, f'games = ["breakin"]\nroles = ["{"x" * 5000}"]\n')
    assert len(str(caught.value)) < 300
