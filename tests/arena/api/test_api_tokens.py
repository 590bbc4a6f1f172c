"""arena.api.tokens: keys shown once and stored hashed, revoked and wrong keys refused, last use noted."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from arena.api.models import ApiToken
from arena.api.tokens import TokenNameError, authenticate_key, issue_token, revoke_token

pytestmark = pytest.mark.django_db


def test_it_issues_a_key_that_authenticates_its_user(owner: Any) -> None:
    token, key = issue_token(owner, "laptop")
    assert key.startswith("wa_")
    assert len(key) >= 40
    assert token.prefix == key[:8]
    assert authenticate_key(key) == owner
    assert str(token) == f"owner: laptop ({key[:8]}…)"


def test_the_key_itself_is_stored_nowhere(owner: Any) -> None:
    _, key = issue_token(owner, "laptop")
    assert ApiToken.objects.get().key_sha256 == hashlib.sha256(key.encode()).hexdigest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM api_apitoken")
        stored = " ".join(str(value) for row in cursor.fetchall() for value in row)
    assert key not in stored
    assert key[8:] not in stored


def test_two_tokens_get_different_keys(owner: Any) -> None:
    assert issue_token(owner, "a")[1] != issue_token(owner, "b")[1]


def test_a_revoked_token_is_refused(owner: Any) -> None:
    token, key = issue_token(owner, "laptop")
    revoke_token(token)
    assert token.revoked_at is not None
    assert authenticate_key(key) is None
    first = token.revoked_at
    revoke_token(token)  # again: the first revocation time stands
    assert token.revoked_at == first


@pytest.mark.parametrize(
    "key",
    ["", "wa_", "wa_nottherightkey", "nowa_prefix", "wa_" + "x" * 500, "wa_\x00", "WA_upper"],
)
def test_a_wrong_key_is_refused(owner: Any, key: str) -> None:
    issue_token(owner, "laptop")
    assert authenticate_key(key) is None


def test_a_key_with_one_character_changed_is_refused(owner: Any) -> None:
    _, key = issue_token(owner, "laptop")
    assert authenticate_key(key[:-1] + ("A" if key[-1] != "A" else "B")) is None


def test_an_inactive_users_token_is_refused(owner: Any) -> None:
    _, key = issue_token(owner, "laptop")
    owner.is_active = False
    owner.save()
    assert authenticate_key(key) is None


def test_last_used_is_written_at_most_once_a_minute(owner: Any) -> None:
    token, key = issue_token(owner, "laptop")
    assert token.last_used is None
    authenticate_key(key)
    first = ApiToken.objects.get().last_used
    assert first is not None
    authenticate_key(key)
    assert ApiToken.objects.get().last_used == first
    ApiToken.objects.update(last_used=timezone.now() - timedelta(minutes=2))
    authenticate_key(key)
    assert ApiToken.objects.get().last_used > first


@pytest.mark.parametrize("name", ["", "   ", "x" * 101])
def test_a_token_needs_a_usable_name(owner: Any, name: str) -> None:
    with pytest.raises(TokenNameError):
        issue_token(owner, name)
    assert not ApiToken.objects.exists()
