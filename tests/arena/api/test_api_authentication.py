"""Authorization: Bearer <key>: accepted, or refused with 401 and a message saying what to do."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from arena.api.tokens import issue_token, revoke_token

pytestmark = pytest.mark.django_db


def me(header: str | None) -> Any:
    client = APIClient()
    if header is not None:
        client.credentials(HTTP_AUTHORIZATION=header)
    return client.get("/api/me/")


def test_a_good_key_authenticates(owner: Any) -> None:
    _, key = issue_token(owner, "laptop")
    response = me(f"Bearer {key}")
    assert response.status_code == 200
    assert response.json() == {"id": owner.pk, "username": "owner", "is_staff": False}
    assert me(f"bearer {key}").status_code == 200  # the scheme is case-insensitive (RFC 7235)


def test_no_credentials_is_401_with_a_bearer_challenge(db: None) -> None:
    response = me(None)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("Bearer", "has no key"),
        ("Bearer ", "has no key"),
        ("Bearer wa_a wa_b", "no spaces"),
        ("Bearer wa_unknown", "your token was refused"),
        ("Bearer wa_é", "plain ASCII"),
    ],
)
def test_a_malformed_or_unknown_bearer_header_is_401_saying_why(db: None, header: str, message: str) -> None:
    response = me(header)
    assert response.status_code == 401
    assert message in response.json()["detail"]


def test_a_refused_token_points_at_the_token_page(owner: Any) -> None:
    token, key = issue_token(owner, "laptop")
    revoke_token(token)
    response = me(f"Bearer {key}")
    assert response.status_code == 401
    assert "http://testserver/account/tokens/" in response.json()["detail"]


def test_a_bad_token_is_refused_even_on_public_endpoints(db: None) -> None:
    # Silently answering as anonymous would hide a broken token from its owner's scripts.
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer wa_wrong")
    assert client.get("/api/games/").status_code == 401


def test_another_scheme_is_left_to_the_session(db: None) -> None:
    response = me("Basic dXNlcjpwYXNz")
    assert response.status_code == 401  # not logged in, but not a Bearer refusal either
    assert "refused" not in response.json()["detail"]
