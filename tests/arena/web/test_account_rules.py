"""Accounts a newcomer cannot trip over: real passwords, names that cannot pass for others, limits that hold.

Sign-up runs Django's password validators and refuses a user name that is,
once normalised and case-folded, or by letters that look alike, an existing
one. The admin's log-in is limited like the site's. One upload quota covers
the site's form and the API. A user has at most ten working API tokens.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from arena.api.tokens import MAX_LIVE_TOKENS, TokenNameError, issue_token, revoke_token
from arena.web.usernames import problem, skeleton
from tests.arena.api.test_api_upload import GOOD, tar_gz

pytestmark = pytest.mark.django_db
GOOD_PASSWORD = "correct-horse-battery-7"


def sign_up(username: str, password: str = GOOD_PASSWORD) -> str:
    response = Client().post("/account/signup/", {"username": username, "password1": password, "password2": password})
    if response.status_code == 302:
        return "created"
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("abc", "This password is too short. It must contain at least 8 characters."),
        ("1", "This password is too short"),
        ("12345678901", "This password is entirely numeric."),
        ("password123", "This password is too common."),
        ("quentin-the-bot", "The password is too similar to the username."),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(password: str, message: str) -> None:
    page = sign_up("quentin-the-bot", password)
    assert message in page
    assert not get_user_model().objects.filter(username="quentin-the-bot").exists()


def test_a_good_password_makes_the_account() -> None:
    assert sign_up("quentin") == "created"


@pytest.mark.parametrize(
    "lookalike",
    [
        "Alice",  # case
        "ALICE",
        "ａｌｉｃｅ",  # full-width: NFKC makes it "alice"
        "аlice",  # Cyrillic а
        "alіce",  # Cyrillic і
        "a1ice",  # the digit one for the letter l
    ],
)
def test_a_name_that_looks_like_an_existing_one_is_refused(lookalike: str) -> None:
    get_user_model().objects.create_user("alice")
    page = sign_up(lookalike)
    assert page != "created"
    assert any(reason in page for reason in ("taken", "already exists", "cannot mix Latin"))
    assert get_user_model().objects.count() == 1


def test_mixed_scripts_and_invisible_characters_are_refused() -> None:
    assert "cannot mix Latin letters with Cyrillic" in sign_up("pаypal")  # Cyrillic а inside Latin
    assert get_user_model().objects.count() == 0
    assert problem("bob\u200bby", []) == "A user name cannot hold invisible or control characters."


def test_a_wholly_cyrillic_name_is_fine_unless_it_looks_like_a_taken_one() -> None:
    assert sign_up("наташа") == "created"
    get_user_model().objects.create_user("cop")
    assert "taken" in sign_up("сор")  # Cyrillic с, о, р: looks exactly like "cop"


def test_skeletons() -> None:
    assert skeleton("ＡｌＩｃＥ") == skeleton("alice")
    assert skeleton("b0b") == skeleton("bob")
    assert skeleton("carol") != skeleton("karol")


def test_the_admin_log_in_is_rate_limited_like_the_sites(settings: Any) -> None:
    settings.ARENA_LOGIN_RATE = "3/m"
    client = Client()
    answers = [client.post("/admin/login/", {"username": "admin", "password": "guess"}).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    assert client.get("/admin/login/").status_code == 200  # looking at the form is not limited


def test_one_upload_quota_covers_the_site_and_the_api(settings: Any, tmp_path: Path) -> None:
    settings.ARENA_UPLOAD_RATE = "2/h"
    settings.ARENA_ARTIFACT_DIR = tmp_path / "artifacts"
    user = get_user_model().objects.create_user("uma")
    client = Client()
    client.force_login(user)
    web = client.post(
        "/account/upload/", {"bot_name": "web-bot", "archive": SimpleUploadedFile("b.tar.gz", tar_gz(GOOD))}
    )
    assert web.status_code == 302
    api = client.post("/api/versions/", {"bot": "api-bot", "archive": SimpleUploadedFile("b.tar.gz", tar_gz(GOOD))})
    assert api.status_code == 201
    over_api = client.post("/api/versions/", {"bot": "x", "archive": SimpleUploadedFile("b.tar.gz", tar_gz(GOOD))})
    assert over_api.status_code == 429
    over_web = client.post(
        "/account/upload/", {"bot_name": "y", "archive": SimpleUploadedFile("b.tar.gz", tar_gz(GOOD))}
    )
    assert over_web.status_code == 429


def test_a_user_has_at_most_ten_working_tokens(settings: Any) -> None:
    user = get_user_model().objects.create_user("tess")
    tokens = [issue_token(user, f"machine {n}")[0] for n in range(MAX_LIVE_TOKENS)]
    with pytest.raises(TokenNameError, match="10 working tokens"):
        issue_token(user, "one more")
    client = Client()
    client.force_login(user)
    api = client.post("/api/tokens/", {"name": "one more"})
    assert api.status_code == 400
    assert "revoke one you no longer use" in api.content.decode()
    page = client.post("/account/tokens/", {"name": "one more"})
    assert "revoke one you no longer use" in html.unescape(page.content.decode())
    revoke_token(tokens[0])
    assert issue_token(user, "replacement")[0].name == "replacement"
