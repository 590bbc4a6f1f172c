"""Downloading a version's archive: its owner and staff get the stored bytes, nobody else does."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from arena.bots.artifacts import archive_path

pytestmark = pytest.mark.django_db


def test_the_owner_and_staff_download_the_stored_archive(
    ladder: dict[str, Any], client_of: Callable[[Any], Any], make_user: Callable[..., Any]
) -> None:
    version = ladder["versions"]["greedy"]
    url = reverse("bot-version-download", args=[version.bot_id, version.number])
    stored = archive_path(version.archive_sha256, version.archive_format).read_bytes()
    for user in (ladder["users"]["bob"], make_user("operator", is_staff=True)):
        response = client_of(user).get(url)
        assert response.status_code == 200
        assert b"".join(response.streaming_content) == stored
        assert response["Content-Disposition"] == 'attachment; filename="greedy-v1.tar.gz"'


def test_another_user_is_refused_and_an_anonymous_visitor_sent_to_log_in(
    ladder: dict[str, Any], client_of: Callable[[Any], Any]
) -> None:
    version = ladder["versions"]["greedy"]
    url = reverse("bot-version-download", args=[version.bot_id, version.number])
    refused = client_of(ladder["users"]["ann"]).get(url)
    assert refused.status_code == 403
    assert "Only the bot's owner and staff can download its archives." in html.unescape(refused.content.decode())
    anonymous = client_of(None).get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"] == f"{reverse('login')}?next={url}"


def test_an_unknown_version_is_a_404(ladder: dict[str, Any], client_of: Callable[[Any], Any]) -> None:
    version = ladder["versions"]["greedy"]
    url = reverse("bot-version-download", args=[version.bot_id, 9])
    assert client_of(ladder["users"]["bob"]).get(url).status_code == 404


def test_a_missing_file_is_a_404_that_says_so(ladder: dict[str, Any], client_of: Callable[[Any], Any]) -> None:
    version = ladder["versions"]["greedy"]
    archive_path(version.archive_sha256, version.archive_format).unlink()
    response = client_of(ladder["users"]["bob"]).get(reverse("bot-version-download", args=[version.bot_id, 1]))
    assert response.status_code == 404
    assert "missing from the artifact store" in response.content.decode()
