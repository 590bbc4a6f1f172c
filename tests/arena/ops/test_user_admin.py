"""The user admin links each user to their bots and filters the users who have some."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_links_a_user_to_their_bots(admin_client: Client, make_version: Callable[..., Any], user: Any) -> None:
    make_version("alpha")
    make_version("beta")
    page = admin_client.get(reverse("admin:auth_user_changelist")).content.decode()
    link = reverse("admin:bots_bot_changelist") + f"?owner__id__exact={user.pk}"
    assert f'<a href="{link}">2 bots</a>' in page
    bots_page = admin_client.get(link).content.decode()
    assert "alpha" in bots_page
    assert "beta" in bots_page


def test_the_bot_list_of_one_owner_shows_only_theirs(
    admin_client: Client, make_version: Callable[..., Any], django_user_model: Any, user: Any
) -> None:
    make_version("alpha")
    make_version("zulu-bot", owner=django_user_model.objects.create_user("bob"))
    page = admin_client.get(reverse("admin:bots_bot_changelist"), {"owner__id__exact": user.pk}).content.decode()
    assert "alpha" in page
    assert "zulu-bot" not in page


def test_it_filters_users_with_and_without_bots(
    admin_client: Client, make_version: Callable[..., Any], django_user_model: Any
) -> None:
    make_version("alpha")
    django_user_model.objects.create_user("idle-user")
    url = reverse("admin:auth_user_changelist")
    with_bots = admin_client.get(url, {"has_bots": "yes"}).content.decode()
    without = admin_client.get(url, {"has_bots": "no"}).content.decode()
    assert "alice" in with_bots
    assert "idle-user" not in with_bots
    assert "idle-user" in without
    assert "alice" not in without


def test_a_user_who_is_not_staff_cannot_list_users(member_client: Client) -> None:
    response = member_client.get(reverse("admin:auth_user_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
