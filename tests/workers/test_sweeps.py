"""A worker killed mid-series leaves empty cgroups and a staging copy; the next worker sweeps them."""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from workers.cgroups import CGROUP_ROOT, STALE_AFTER_SECONDS, detect_version, sweep_stale_cgroups
from workers.sandbox import sweep_stale_staging


def test_it_deletes_the_staging_area_of_a_dead_worker_and_keeps_a_live_ones(tmp_path: Path) -> None:
    dead = tmp_path / "arena-stage-4194999-abcd"  # above the kernel's pid limit: never alive
    live = tmp_path / f"arena-stage-{os.getpid()}-efgh"
    for directory in (dead, live):
        (directory / "runtime").mkdir(parents=True)
    assert sweep_stale_staging(tmp_path) == 1
    assert not dead.exists()
    assert live.exists()


@pytest.fixture
def cgroup_hierarchy() -> Path:
    if os.geteuid() != 0 or detect_version() is None:
        pytest.fail("this test needs root and a cgroup hierarchy with the pids controller (CI has both)")
    return CGROUP_ROOT / ("pids" if detect_version() == 1 else "")


@pytest.fixture
def own_prefix(cgroup_hierarchy: Path) -> Iterator[str]:
    """A cgroup name prefix of this test's own; whatever it made under it is removed afterwards.

    The tests sweep under it and nothing else: the host's other bot cgroups (another suite's, a
    live ladder's, one a series made a moment ago and its bot is about to join) are never touched.
    """
    prefix = f"arena-bot-test-{uuid.uuid4().hex[:8]}-"
    yield prefix
    for directory in cgroup_hierarchy.glob(f"{prefix}*"):
        with contextlib.suppress(OSError):
            directory.rmdir()


def test_it_removes_an_empty_bot_cgroup_and_keeps_one_with_a_process(cgroup_hierarchy: Path, own_prefix: str) -> None:
    empty = cgroup_hierarchy / f"{own_prefix}empty"
    busy = cgroup_hierarchy / f"{own_prefix}busy"
    # Named as a bot cgroup a concurrent series has just made (another run's, as far as the sweep
    # can tell): empty, because its bot has not joined it yet.
    neighbour = cgroup_hierarchy / f"arena-bot-{uuid.uuid4().hex[:12]}"
    for directory in (empty, busy, neighbour):
        directory.mkdir()
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        (busy / "cgroup.procs").write_text(str(sleeper.pid))
        assert sweep_stale_cgroups(min_age=0, prefix=own_prefix) == 1
        assert not empty.exists()
        assert busy.exists()
        assert neighbour.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
        for directory in (empty, busy, neighbour):
            if directory.exists():
                directory.rmdir()


def test_it_leaves_a_young_empty_cgroup_that_a_starting_bot_may_still_join(
    cgroup_hierarchy: Path, own_prefix: str
) -> None:
    young = cgroup_hierarchy / f"{own_prefix}young"
    stale = cgroup_hierarchy / f"{own_prefix}stale"
    young.mkdir()
    stale.mkdir()
    two_minutes_ago = time.time() - 2 * STALE_AFTER_SECONDS
    os.utime(stale, (two_minutes_ago, two_minutes_ago))
    assert sweep_stale_cgroups(prefix=own_prefix) == 1  # the production sweep's minimum age
    assert young.exists()
    assert not stale.exists()


def test_a_sweep_takes_only_bot_cgroups() -> None:
    for prefix in ("", "arena-", "system.slice", "arena-bo"):
        with pytest.raises(ValueError, match="must start with 'arena-bot-'"):
            sweep_stale_cgroups(min_age=0, prefix=prefix)
