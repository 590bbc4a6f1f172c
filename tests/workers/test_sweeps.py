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


def test_a_cgroup_another_worker_removes_during_the_sweep_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another worker's bot cgroup, listed by the sweep and removed before the sweep looks inside:
    # the sweep ran in a worker's first bot start, and its FileNotFoundError failed that series.
    old = time.time() - 2 * STALE_AFTER_SECONDS
    stale = tmp_path / "cpu" / "arena-bot-0123456789ab"
    going = tmp_path / "cpu" / "worker.slice"
    for directory in (stale, going):
        directory.mkdir(parents=True)
        (directory / "cgroup.procs").write_text("")
        os.utime(directory, (old, old))
    scandir = os.scandir

    def vanishing(path: object = ".") -> object:
        if Path(os.fspath(path)) == going:  # type: ignore[arg-type]
            raise FileNotFoundError(2, "No such file or directory", os.fspath(path))  # type: ignore[arg-type]
        return scandir(path)  # type: ignore[arg-type]

    rmdir = Path.rmdir

    def cgroupfs_rmdir(directory: Path) -> None:  # as on cgroupfs, a cgroup's control files go with it
        (directory / "cgroup.procs").unlink()
        rmdir(directory)

    monkeypatch.setattr(os, "scandir", vanishing)
    monkeypatch.setattr(Path, "rmdir", cgroupfs_rmdir)
    assert sweep_stale_cgroups(tmp_path, min_age=0) == 1
    assert not stale.exists()
