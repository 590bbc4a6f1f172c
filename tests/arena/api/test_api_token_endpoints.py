"""/api/tokens/: your own tokens only, the key shown once at creation, revoking."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from arena.api.models import ApiToken
from arena.api.tokens import authenticate_key

pytestmark = pytest.mark.django_db


def test_it_creates_a_token_and_shows_its_key_once(owner: Any, client_for: Callable) -> None:
    client = client_for(owner)
    response = client.post("/api/tokens/", {"name": "CI"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert (body["name"], body["active"]) == ("CI", True)
    assert authenticate_key(body["key"]) == owner
    listed = client.get("/api/tokens/").json()["results"]
    assert {token["name"] for token in listed} == {"CI", "tests"}
    assert all("key" not in token for token in listed)
    assert body["key"] not in str(listed)


def test_it_lists_only_your_tokens(owner: Any, other: Any, client_for: Callable) -> None:
    client_for(other)  # mallory has a token too
    listed = client_for(owner).get("/api/tokens/").json()
    assert listed["count"] == 1
    assert ApiToken.objects.count() == 2


def test_revoking_refuses_the_token_afterwards(owner: Any, client_for: Callable) -> None:
    client = client_for(owner)
    created = client.post("/api/tokens/", {"name": "old"}, format="json").json()
    response = client.post(f"/api/tokens/{created['id']}/revoke/")
    assert response.status_code == 200
    assert response.json()["active"] is False
    assert response.json()["revoked_at"]
    assert authenticate_key(created["key"]) is None


def test_you_cannot_revoke_another_users_token(owner: Any, other: Any, client_for: Callable) -> None:
    client_for(owner)
    theirs = ApiToken.objects.get(user=owner)
    response = client_for(other).post(f"/api/tokens/{theirs.pk}/revoke/")
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_anonymous_visitors_get_401(owner: Any, client_for: Callable) -> None:
    client_for(owner)
    client = APIClient()
    assert client.get("/api/tokens/").status_code == 401
    assert client.post("/api/tokens/", {"name": "x"}, format="json").status_code == 401
    assert client.post(f"/api/tokens/{ApiToken.objects.get().pk}/revoke/").status_code == 401


def test_a_bad_name_is_400(owner: Any, client_for: Callable) -> None:
    client = client_for(owner)
    for body in ({}, {"name": ""}, {"name": "   "}, {"name": "x" * 101}):
        response = client.post("/api/tokens/", body, format="json")
        assert response.status_code == 400, body
        assert "name" in response.json()
    assert ApiToken.objects.count() == 1


def test_a_session_needs_the_csrf_token_to_create_one(owner: Any) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.get("/api/tokens/").status_code == 200
    response = client.post("/api/tokens/", {"name": "x"}, format="json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert not ApiToken.objects.exists()
