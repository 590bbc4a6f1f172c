"""The rlimits behind the cgroup, and the limits' own validation."""

from __future__ import annotations

import resource

import pytest

from workers.sandbox import Limits, backstop_rlimits


def test_it_limits_processes_per_uid_only_where_the_bot_has_a_uid_of_its_own() -> None:
    limits = Limits(pids=16)
    as_slot_uid = dict(backstop_rlimits(limits, own_uid=True))
    as_author = dict(backstop_rlimits(limits, own_uid=False))
    assert as_slot_uid[resource.RLIMIT_NPROC] == 20  # the bot's 16 and bubblewrap's processes
    assert resource.RLIMIT_NPROC not in as_author  # it would count the author's whole session
    assert as_author[resource.RLIMIT_CORE] == 0
    assert as_author[resource.RLIMIT_CPU] == limits.cpu_seconds


@pytest.mark.parametrize(
    "field", ["memory_mb", "pids", "tmp_mb", "shm_mb", "file_size_mb", "open_files", "cpu_seconds"]
)
@pytest.mark.parametrize("value", [0, -1, True, 1.5])
def test_it_refuses_a_limit_that_is_not_a_positive_integer(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=f"sandbox limit {field} must be a positive integer"):
        Limits(**{field: value})
