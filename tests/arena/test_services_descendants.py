"""tests/arena/services.py's process-tree walk: a pruned subtree is never entered."""

from __future__ import annotations

import os
import subprocess
import time

from tests.arena.services import descendants


def test_a_pruned_subtree_and_everything_below_it_are_left_out() -> None:
    pruned = subprocess.Popen(["sh", "-c", "sleep 30 & wait"])
    kept = subprocess.Popen(["sleep", "30"])
    try:
        deadline = time.monotonic() + 10
        while not descendants(pruned.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        (grandchild,) = descendants(pruned.pid)
        assert {pruned.pid, grandchild, kept.pid} <= set(descendants(os.getpid()))
        walked = descendants(os.getpid(), prune=frozenset({pruned.pid}))
        assert kept.pid in walked
        assert pruned.pid not in walked
        assert grandchild not in walked
    finally:
        for process in (pruned, kept):
            process.kill()
            process.wait()
