"""Season entries: which versions take part in a season."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError

from arena.seasons.models import Season, SeasonEntry

pytestmark = pytest.mark.django_db


def test_it_enters_a_version_once_per_season(season: Season, make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    entry = SeasonEntry.objects.create(season=season, version=version)
    assert entry.active
    assert str(entry) == "alice/alpha v1 in Spring"
    other = Season.objects.create(name="Summer", game="watch")
    SeasonEntry.objects.create(season=other, version=version)  # another season: fine
    with pytest.raises(IntegrityError, match="season_entry_unique"), transaction.atomic():
        SeasonEntry.objects.create(season=season, version=version)


def test_it_lists_the_active_entries_of_a_season(season: Season, make_version: Callable[..., Any]) -> None:
    first, second = make_version("alpha"), make_version("beta")
    SeasonEntry.objects.create(season=season, version=first, active=False)
    SeasonEntry.objects.create(season=season, version=second)
    assert [e.version for e in season.entries.filter(active=True)] == [second]


def test_it_keeps_a_version_that_takes_part(season: Season, make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    SeasonEntry.objects.create(season=season, version=version)
    with pytest.raises(ProtectedError):
        version.delete()


def test_it_refuses_a_version_whose_manifest_names_other_games(
    season: Season, make_version: Callable[..., Any]
) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match=r"alice/alpha v1 plays othello \(its bot.toml says\), not watch"):
        SeasonEntry.objects.create(season=season, version=make_version("alpha", games=["othello"]))
    SeasonEntry.objects.create(season=season, version=make_version("beta", games=[]))  # not stated: welcome
    assert SeasonEntry.objects.count() == 1
