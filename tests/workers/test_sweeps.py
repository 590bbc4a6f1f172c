"""A worker killed mid-series leaves empty cgroups and a staging copy; the next worker sweeps them."""

from __future__ import annotations

import os
import subprocess
import uuid
from pathlib import Path

import pytest

from workers.cgroups import CGROUP_ROOT, detect_version, sweep_stale_cgroups
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


def test_it_removes_an_empty_bot_cgroup_and_keeps_one_with_a_process(cgroup_hierarchy: Path) -> None:
    empty = cgroup_hierarchy / f"arena-bot-test-{uuid.uuid4().hex[:8]}"
    busy = cgroup_hierarchy / f"arena-bot-test-{uuid.uuid4().hex[:8]}"
    empty.mkdir()
    busy.mkdir()
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        (busy / "cgroup.procs").write_text(str(sleeper.pid))
        sweep_stale_cgroups(min_age=0)
        assert not empty.exists()
        assert busy.exists()
    finally:
        sleeper.kill()
        sleeper.wait()
        for directory in (empty, busy):
            if directory.exists():
                directory.rmdir()


def test_it_leaves_a_young_empty_cgroup_that_a_starting_bot_may_still_join(cgroup_hierarchy: Path) -> None:
    young = cgroup_hierarchy / f"arena-bot-test-{uuid.uuid4().hex[:8]}"
    young.mkdir()
    try:
        sweep_stale_cgroups()
        assert young.exists()
    finally:
        young.rmdir()
