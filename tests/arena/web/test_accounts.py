"""Accounts: sign-up, log-in (rate limited per address), log-out by POST, the user's bots."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from arena.bots.models import BotVersion

from_ip = {"REMOTE_ADDR": "203.0.113.7"}

pytestmark = pytest.mark.django_db


def test_signing_up_creates_the_account_logs_it_in_and_shows_my_bots(db: None) -> None:
    client = Client()
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": "a long enough passphrase", "password2": "a long enough passphrase"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("my-bots")
    assert get_user_model().objects.filter(username="newbie").exists()
    page = html.unescape(client.get(reverse("my-bots")).content.decode())
    assert "Welcome, newbie." in page
    assert "You have no bots yet." in page


def test_a_bad_sign_up_shows_the_errors(db: None) -> None:
    response = Client().post(reverse("signup"), {"username": "x", "password1": "abc", "password2": "abd"})
    assert response.status_code == 200
    assert "didn’t match" in html.unescape(response.content.decode())
    assert not get_user_model().objects.filter(username="x").exists()


def test_logging_in_and_out(make_user: Callable[..., Any]) -> None:
    make_user("ann")
    client = Client()
    response = client.post(reverse("login"), {"username": "ann", "password": "correct horse battery"})
    assert response.status_code == 302
    assert response["Location"] == reverse("my-bots")
    assert "Log out" in client.get(reverse("home")).content.decode()
    assert client.get(reverse("logout")).status_code == 405  # a link cannot log anybody out
    assert client.post(reverse("logout")).status_code == 302
    assert "Log in" in client.get(reverse("home")).content.decode()


def test_a_wrong_password_is_refused_on_the_form(make_user: Callable[..., Any]) -> None:
    make_user("ann")
    response = Client().post(reverse("login"), {"username": "ann", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_log_in_attempts_are_rate_limited_per_address_with_a_429(make_user: Callable[..., Any], settings: Any) -> None:
    settings.ARENA_LOGIN_RATE = "3/m"
    make_user("ann")
    client = Client()
    tries = [client.post(reverse("login"), {"username": "ann", "password": "guess"}, **from_ip) for _ in range(3)]
    assert [r.status_code for r in tries] == [200, 200, 200]
    limited = client.post(reverse("login"), {"username": "ann", "password": "correct horse battery"}, **from_ip)
    assert limited.status_code == 429
    retry = int(limited["Retry-After"])
    assert 0 < retry <= 60
    page = html.unescape(limited.content.decode())
    assert "Too many requests" in page
    assert f"Try again in {retry} second" in page
    assert "Logging in" in page
    assert client.get(reverse("login"), **from_ip).status_code == 200  # the form itself is not limited
    other = client.post(
        reverse("login"), {"username": "ann", "password": "correct horse battery"}, REMOTE_ADDR="198.51.100.2"
    )
    assert other.status_code == 302


def test_a_log_in_post_without_the_csrf_token_is_refused(make_user: Callable[..., Any]) -> None:
    make_user("ann")
    response = Client(enforce_csrf_checks=True).post(
        reverse("login"), {"username": "ann", "password": "correct horse battery"}
    )
    assert response.status_code == 403
    assert "security token" in response.content.decode()


def test_my_bots_lists_only_my_bots_with_why_a_version_failed(
    user: Any, make_user: Callable[..., Any], make_version: Callable[..., Any], client_of: Callable[[Any], Client]
) -> None:
    make_version("mine", status=BotVersion.Status.FAILED_VALIDATION, status_reason="main.py crashed at import")
    make_version("theirs", owner=make_user("bob"))
    page = html.unescape(client_of(user).get(reverse("my-bots")).content.decode())
    assert ">mine</a>" in page
    assert "failed validation" in page
    assert "main.py crashed at import" in page
    assert "theirs" not in page
    assert reverse("upload") + "?bot=mine" in page


def test_my_bots_needs_a_log_in(client_of: Callable[[Any], Client], db: None) -> None:
    response = client_of(None).get(reverse("my-bots"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
