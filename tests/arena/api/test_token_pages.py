"""/account/tokens/: list, create (the key shown once), revoke (POST with CSRF); login required."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from arena.api.models import ApiToken
from arena.api.tokens import authenticate_key, issue_token

pytestmark = pytest.mark.django_db


def logged_in(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def test_anonymous_visitors_are_sent_to_log_in(db: None) -> None:
    response = Client().get("/account/tokens/")
    assert response.status_code == 302
    assert "next=/account/tokens/" in response["Location"]
    assert Client().post("/account/tokens/", {"name": "x"}).status_code == 302
    assert not ApiToken.objects.exists()


def test_it_creates_a_token_and_shows_the_key_once(owner: Any) -> None:
    client = logged_in(owner)
    response = client.post("/account/tokens/", {"name": "laptop"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    page = response.content.decode()
    (key,) = re.findall(r'value="(wa_[^"]+)"', page)
    assert "shown only this once" in page
    again = client.get("/account/tokens/").content.decode()
    assert key not in again
    for shown in ("laptop", key[:8], "never", "active"):
        assert shown in again
    assert authenticate_key(key) == owner
    assert "never" not in client.get("/account/tokens/").content.decode()  # last used: now


def test_it_lists_only_your_own_tokens(owner: Any, other: Any) -> None:
    issue_token(other, "mallory-secret-name")
    issue_token(owner, "mine")
    page = logged_in(owner).get("/account/tokens/").content.decode()
    assert "mine" in page
    assert "mallory-secret-name" not in page


def test_revoking_shows_the_token_as_revoked(owner: Any) -> None:
    token, key = issue_token(owner, "laptop")
    client = logged_in(owner)
    response = client.post(f"/account/tokens/{token.pk}/revoke/", follow=True)
    page = response.content.decode()
    assert "is revoked" in page
    assert "revoked 20" in page  # the state column says when
    assert authenticate_key(key) is None


def test_you_cannot_revoke_another_users_token(owner: Any, other: Any) -> None:
    token, key = issue_token(owner, "laptop")
    assert logged_in(other).post(f"/account/tokens/{token.pk}/revoke/").status_code == 404
    assert authenticate_key(key) == owner


def test_revoking_needs_a_post(owner: Any) -> None:
    token, key = issue_token(owner, "laptop")
    assert logged_in(owner).get(f"/account/tokens/{token.pk}/revoke/").status_code == 405
    assert authenticate_key(key) == owner


def test_posts_without_the_csrf_token_are_refused(owner: Any) -> None:
    token, key = issue_token(owner, "laptop")
    client = logged_in(owner, enforce_csrf_checks=True)
    assert client.post("/account/tokens/", {"name": "x"}).status_code == 403
    assert client.post(f"/account/tokens/{token.pk}/revoke/").status_code == 403
    assert ApiToken.objects.count() == 1
    assert authenticate_key(key) == owner


@pytest.mark.parametrize("name", ["", "x" * 101])
def test_a_bad_name_is_shown_on_the_form(owner: Any, name: str) -> None:
    response = logged_in(owner).post("/account/tokens/", {"name": name})
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert not ApiToken.objects.exists()
