"""The replay download: the recorded document as a JSON attachment, never with the bots' stderr."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from arena.series.models import Series

pytestmark = pytest.mark.django_db


def test_it_downloads_the_document_without_stderr_even_for_the_owner(
    ladder: dict[str, Any], client_of: Callable[[Any], Any], make_user: Callable[..., Any]
) -> None:
    series = ladder["series"][0]  # ann's chatty bot writes to stderr
    document = series.result
    assert any(entry["text"] for entry in document["stderr"])
    for viewer in (None, ladder["users"]["bob"], ladder["users"]["ann"], make_user("operator", is_staff=True)):
        response = client_of(viewer).get(reverse("series-replay", args=[series.pk]))
        assert response.status_code == 200
        assert response["Content-Type"] == "application/json"
        assert response["Content-Disposition"] == f'attachment; filename="series-{series.pk}.json"'
        downloaded = json.loads(response.content)
        assert "stderr" not in downloaded
        assert downloaded == {key: value for key, value in document.items() if key != "stderr"}
        for entry in document["stderr"]:
            if entry["text"].strip():
                assert entry["text"].strip().encode() not in response.content


def test_a_series_without_a_result_has_no_replay_yet(ladder: dict[str, Any], client_of: Callable[[Any], Any]) -> None:
    queued = Series.objects.create(season=ladder["season"], seed=99)
    response = client_of(None).get(reverse("series-replay", args=[queued.pk]))
    assert response.status_code == 404
    assert "has no recorded result yet (it is queued)" in response.content.decode()
