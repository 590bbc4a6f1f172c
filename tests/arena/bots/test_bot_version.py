"""Bots and bot versions: names, numbering, and versions that cannot change once stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from arena.bots.models import Bot, BotVersion, ImmutableVersionError

pytestmark = pytest.mark.django_db


def test_it_keeps_bot_names_unique_per_owner(user: Any, django_user_model: Any) -> None:
    Bot.objects.create(owner=user, name="alpha")
    Bot.objects.create(owner=django_user_model.objects.create_user("bob"), name="alpha")  # another owner: fine
    with pytest.raises(IntegrityError, match="bot_name_unique_per_owner"), transaction.atomic():
        Bot.objects.create(owner=user, name="alpha")


def test_it_refuses_a_bot_name_that_is_not_a_package_name(user: Any) -> None:
    with pytest.raises(IntegrityError, match="bot_name_form"), transaction.atomic():
        Bot.objects.create(owner=user, name="no spaces/allowed")


def test_it_shows_a_version_as_owner_bot_and_number(make_version: Callable[..., Any]) -> None:
    assert str(make_version("alpha")) == "alice/alpha v1"


def test_it_keeps_version_numbers_unique_per_bot(make_version: Callable[..., Any]) -> None:
    make_version("alpha", number=1)
    make_version("beta", number=1)
    with pytest.raises(IntegrityError, match="bot_version_number_unique"), transaction.atomic():
        make_version("alpha", number=1)


def test_it_refuses_version_number_zero(make_version: Callable[..., Any]) -> None:
    with pytest.raises(IntegrityError, match="bot_version_number_positive"), transaction.atomic():
        make_version("alpha", number=0)


@pytest.mark.parametrize("sha256", ["A" * 64, "a" * 63, "g" * 64, "a" * 63 + "\n"])
def test_it_refuses_an_archive_digest_that_is_not_64_lowercase_hex(
    make_version: Callable[..., Any], sha256: str
) -> None:
    with pytest.raises(IntegrityError, match="bot_version_sha256_hex"), transaction.atomic():
        make_version("alpha", archive_sha256=sha256)


def test_it_refuses_an_unknown_status(make_version: Callable[..., Any]) -> None:
    with pytest.raises(IntegrityError, match="bot_version_status"), transaction.atomic():
        make_version("alpha", status="sleeping")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("archive_sha256", "b" * 64),
        ("manifest", {"name": "alpha", "entry": "other.py", "games": []}),
        ("entry", "other.py"),
        ("number", 7),
        ("archive_size", 1),
    ],
)
def test_it_refuses_to_change_a_stored_version(make_version: Callable[..., Any], field: str, value: Any) -> None:
    version = make_version("alpha")
    setattr(version, field, value)
    with pytest.raises(ImmutableVersionError, match=rf"alice/alpha v1: {field} cannot change, .* submit a new version"):
        version.save()
    version.refresh_from_db()
    assert getattr(version, field) != value


def test_it_refuses_a_change_hidden_in_update_fields(make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    version.entry = "other.py"
    with pytest.raises(ImmutableVersionError, match="entry cannot change"):
        version.save(update_fields=["status", "entry"])


def test_it_lets_the_status_change(make_version: Callable[..., Any]) -> None:
    version = make_version("alpha")
    version.status, version.status_reason = BotVersion.Status.DISABLED, "abusive stderr"
    version.save()
    version.refresh_from_db()
    assert (version.status, version.status_reason) == ("disabled", "abusive stderr")


def test_it_lists_earlier_versions_newest_first(make_version: Callable[..., Any]) -> None:
    first, second, third = make_version("alpha"), make_version("alpha"), make_version("alpha")
    assert third.predecessor == second
    assert list(third.earlier_versions()) == [second, first]
    assert list(first.earlier_versions()) == []


def test_it_names_the_archive_in_the_artifact_store(make_version: Callable[..., Any]) -> None:
    version = make_version("alpha", archive_sha256="ab" + "0" * 62, archive_format="zip")
    assert version.archive_key == f"bots/ab/ab{'0' * 62}.zip"


def test_it_keeps_a_version_that_others_build_on(make_version: Callable[..., Any]) -> None:
    from django.db.models import ProtectedError

    first = make_version("alpha")
    make_version("alpha")
    with pytest.raises(ProtectedError):
        first.delete()
