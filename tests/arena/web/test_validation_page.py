"""A version's validation series page, and its state in words on the bot page.

The validation series is played for real in the sandbox (no broker: on commit,
in the test). A crashing bot's owner reads its traceback on the validation
page; anybody else sees the games and the verdict but never the stderr.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from arena.bots.models import BotVersion
from arena.bots.submissions import submit_version
from arena.seasons.models import Season, SeasonEntry

pytestmark = pytest.mark.django_db(transaction=True)

REPO = Path(__file__).resolve().parents[3]
CRASHING_MAIN = (
    "import sys\nprint('loading my model', file=sys.stderr)\nraise RuntimeError('my model file is missing')\n"
)


@pytest.fixture
def crasher(artifact_dir: Path, tmp_path: Path) -> BotVersion:
    source = tmp_path / "crasher"
    source.mkdir()
    (source / "bot.toml").write_text('name = "crasher"\nentry = "main.py"\ngames = ["watch"]\n')
    (source / "main.py").write_text(CRASHING_MAIN)
    owner = get_user_model().objects.create_user("owner", password="correct-horse-battery-7")
    with transaction.atomic():
        version = submit_version(owner, "crasher", source)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED_VALIDATION
    return version


def page(client: Client, version: BotVersion) -> str:
    response = client.get(f"/bots/{version.bot_id}/versions/{version.number}/validation/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_owner_reads_the_traceback_and_the_move_it_failed_on(crasher: BotVersion) -> None:
    client = Client()
    client.login(username="owner", password="correct-horse-battery-7")
    text = page(client, crasher)
    assert "Validation of crasher v1" in text
    assert "watch: failed" in text
    assert "validation series: game 1, its move 1: crash:" in text
    assert "RuntimeError: my model file is missing" in text  # its stderr, with the traceback
    assert "loading my model" in text
    assert 'data-replay="replay-' in text  # the games with their replay viewer


def test_others_see_the_games_but_never_the_stderr(crasher: BotVersion) -> None:
    get_user_model().objects.create_user("mallory", password="correct-horse-battery-7")
    mallory = Client()
    mallory.login(username="mallory", password="correct-horse-battery-7")
    for client in (mallory, Client()):
        text = page(client, crasher)
        assert "Game 1" in text
        assert "my model file is missing" not in text
        assert "loading my model" not in text


def test_the_bot_page_links_the_validation_series_and_says_why_it_plays_nothing(crasher: BotVersion) -> None:
    text = Client().get(f"/bots/{crasher.bot_id}/").content.decode()
    assert f"/bots/{crasher.bot_id}/versions/1/validation/" in text
    assert "Failed its validation series, so it plays in no season" in text


def test_an_active_version_says_where_it_plays_and_what_comes_next(artifact_dir: Path) -> None:
    owner = get_user_model().objects.create_user("ann")
    season = Season.objects.create(name="Spring", game="watch", games_per_series=2, players_per_series=2)
    season.transition(Season.Status.RUNNING)
    with transaction.atomic():
        version = submit_version(owner, "steady", REPO / "bots" / "watch" / "packages" / "random")
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE
    assert SeasonEntry.objects.filter(season=season, version=version).exists()
    text = Client().get(f"/bots/{version.bot_id}/").content.decode()
    assert "Active in Spring." in text
    assert "Next series expected at the matchmaker" in text
    assert "No series finished yet." in text
    passed = page(Client(), version)
    assert "watch: passed" in passed


def test_an_unknown_version_is_a_404(crasher: BotVersion) -> None:
    assert Client().get(f"/bots/{crasher.bot_id}/versions/9/validation/").status_code == 404
    assert Client().get("/bots/999999/versions/1/validation/").status_code == 404
