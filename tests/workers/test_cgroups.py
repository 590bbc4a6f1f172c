"""Bot cgroups on cgroup v2, checked against a cgroup file system laid out in a temporary folder.

These machines only have v1 (which the hostile-bot suite exercises for real);
production hosts mostly have v2, so the knobs written there are pinned here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workers import cgroups
from workers.cgroups import CgroupLimits, create_bot_cgroup, detect_version

LIMITS = CgroupLimits(memory_bytes=64 * 1024 * 1024, pids=16, cpu_cores=0.5)


def fake_v2(root: Path, controllers: str = "cpuset cpu io memory pids", processes: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "cgroup.controllers").write_text(controllers + "\n")
    (root / "cgroup.subtree_control").write_text("")
    (root / "cgroup.procs").write_text(processes)
    return root


def test_it_detects_v2_only_when_memory_and_pids_are_offered(tmp_path: Path) -> None:
    assert detect_version(fake_v2(tmp_path / "full")) == 2
    assert detect_version(fake_v2(tmp_path / "bare", controllers="cpu io")) is None
    assert detect_version(tmp_path / "nothing") is None


def test_it_writes_memory_swap_pids_and_cpu_limits_on_v2(tmp_path: Path) -> None:
    root = fake_v2(tmp_path)
    group = create_bot_cgroup(LIMITS, root=root, own_paths={"": "/"})
    assert group is not None
    assert group.version == 2
    directory = group.dirs[""]
    assert directory.parent == root
    assert directory.name.startswith("arena-bot-")
    assert (directory / "memory.max").read_text() == str(64 * 1024 * 1024)
    assert (directory / "memory.swap.max").read_text() == "0"
    assert (directory / "pids.max").read_text() == "16"
    assert (directory / "cpu.max").read_text() == "50000 100000"
    assert (root / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"


def test_it_leaves_a_busy_parent_for_a_supervisor_leaf_before_enabling_controllers(tmp_path: Path) -> None:
    # v2 forbids processes in a cgroup whose children have controllers: the
    # worker's own cgroup (holding the worker) must be emptied into a leaf first.
    root = fake_v2(tmp_path)
    own = fake_v2(root / "worker.service", processes="4242\n")
    group = create_bot_cgroup(LIMITS, root=root, own_paths={"": "/worker.service"})
    assert group is not None
    assert (own / "arena-supervisor" / "cgroup.procs").read_text() == "4242"
    assert (own / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"
    assert group.dirs[""].parent == own


def test_it_freezes_and_kills_through_the_v2_files(tmp_path: Path) -> None:
    group = create_bot_cgroup(LIMITS, root=fake_v2(tmp_path), own_paths={"": "/"})
    assert group is not None
    directory = group.dirs[""]
    (directory / "cgroup.procs").write_text("")
    (directory / "cgroup.kill").write_text("0")
    group.kill_all()
    assert (directory / "cgroup.kill").read_text() == "1"
    # The kernel freezer: the fallback for a process tree that keeps forking.
    assert group._kernel_freeze(True)
    assert (directory / "cgroup.freeze").read_text() == "1"
    assert group._kernel_freeze(False)
    assert (directory / "cgroup.freeze").read_text() == "0"


def test_it_declines_where_the_host_offers_no_controllers(tmp_path: Path) -> None:
    assert create_bot_cgroup(LIMITS, root=fake_v2(tmp_path, controllers="cpu"), own_paths={"": "/"}) is None


def test_a_cgroup_that_vanishes_while_its_limits_are_written_is_an_error_that_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # For real, on v1: one directory per controller, and the pids one removed (as a sweep or an
    # operator would) before its limit is written. The others must not stay behind.
    if os.geteuid() != 0 or detect_version() != 1:
        pytest.skip("needs root and cgroup v1 (v2 makes one directory, which the fake tests cover)")
    write = cgroups._write
    made: list[Path] = []

    def vanishing(path: Path, value: str) -> None:
        made.append(path.parent)
        if path.name == "pids.max":
            path.parent.rmdir()
        write(path, value)

    monkeypatch.setattr(cgroups, "_write", vanishing)
    with pytest.raises(FileNotFoundError, match=r"arena-bot-.*pids\.max"):
        create_bot_cgroup(LIMITS)
    name = made[0].name
    assert name.startswith("arena-bot-")
    left = list(cgroups.CGROUP_ROOT.glob(f"*/**/{name}"))
    for directory in left:  # this test's own, should the code under test have left them
        directory.rmdir()
    assert left == []
