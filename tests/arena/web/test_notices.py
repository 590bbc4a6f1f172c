"""Owners are told when a version fails validation or is disabled: a notice on the site and an e-mail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import transaction
from django.test import Client

from arena.bots.models import BotVersion, Notice
from arena.bots.submissions import submit_version
from arena.ops.operations import disable_version
from arena.results.forfeits import disable_for_forfeits

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "correct-horse-battery-7"


class BrokenMailServer:
    """An e-mail backend whose server is down."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def send_messages(self, messages: list[Any]) -> int:
        raise ConnectionRefusedError("the SMTP server is down")


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("olga", email="olga@example.org", password=PASSWORD)


def crashing_version(owner: Any, tmp_path: Path) -> BotVersion:
    source = tmp_path / "crasher"
    source.mkdir()
    (source / "bot.toml").write_text('name = "crasher"\nentry = "main.py"\ngames = ["watch"]\n')
    (source / "main.py").write_text("raise SystemExit(3)\n")
    with transaction.atomic():
        version = submit_version(owner, "crasher", source)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.FAILED_VALIDATION
    return version


def signed_in(user: Any) -> Client:
    client = Client()
    client.login(username=user.get_username(), password=PASSWORD)
    return client


def test_a_failed_validation_is_noticed_on_the_site_and_mailed(owner: Any, artifact_dir: Path, tmp_path: Path) -> None:
    version = crashing_version(owner, tmp_path)
    (message,) = mail.outbox
    assert message.to == ["olga@example.org"]
    assert message.subject == "crasher v1 failed its validation series"
    assert "crash: the bot exited with code 3" in message.body
    assert f"/bots/{version.bot_id}/versions/1/validation/" in message.body
    client = signed_in(owner)
    home = client.get("/").content.decode()
    assert "1 new notice</a>" in home
    page = client.get("/account/notices/").content.decode()
    assert "crasher v1 failed its validation series" in page
    assert f'href="/bots/{version.bot_id}/versions/1/validation/">See why</a>' in page
    assert 'class="badge">new</span>' in page
    assert "new notice</a>" not in client.get("/").content.decode()  # read once shown


def test_a_disabled_version_is_noticed_by_an_operator_or_for_forfeits(make_version: Any, user: Any) -> None:
    user.email = "alice@example.org"
    user.save()
    by_operator = make_version("loud")
    disable_version(by_operator, "it spams its log")
    by_forfeits = make_version("flaky")
    assert disable_for_forfeits(by_forfeits.pk, "forfeited 6 of 10 series in Spring")
    subjects = sorted(message.subject for message in mail.outbox)
    assert subjects == ["flaky v1 was disabled", "loud v1 was disabled"]
    texts = list(Notice.objects.filter(user=user).values_list("text", flat=True))
    assert "loud v1 was disabled and plays no more series: it spams its log" in texts
    assert "flaky v1 was disabled and plays no more series: forfeited 6 of 10 series in Spring" in texts


def test_an_owner_without_an_address_gets_the_notice_only(make_version: Any, user: Any) -> None:
    disable_version(make_version("quiet"), "by request")
    assert mail.outbox == []
    assert Notice.objects.filter(user=user).count() == 1


def test_a_mail_server_that_is_down_loses_nothing_but_the_mail(make_version: Any, user: Any, settings: Any) -> None:
    settings.EMAIL_BACKEND = f"{__name__}.BrokenMailServer"
    user.email = "alice@example.org"
    user.save()
    version = disable_version(make_version("loud"), "it spams its log")
    assert version.status == BotVersion.Status.DISABLED
    assert Notice.objects.filter(user=user, version=version).exists()


def test_notices_are_private_and_need_a_sign_in(make_version: Any, user: Any) -> None:
    disable_version(make_version("loud"), "a secret reason")
    other = get_user_model().objects.create_user("mallory", password=PASSWORD)
    assert "a secret reason" not in signed_in(other).get("/account/notices/").content.decode()
    response = Client().get("/account/notices/")
    assert response.status_code == 302
    assert "/account/login/" in response["Location"]
