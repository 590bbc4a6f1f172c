"""The chaos run at small scale: every kind of fault once while a season plays, and nothing lost or doubled.

tests/benchmarks/chaos.py starts its own PostgreSQL and Redis and the
production processes (platform worker, beat, two match workers), injects each
fault (a match worker's pool process killed, a whole match worker killed, the
platform worker killed, Redis restarted without persistence, PostgreSQL
restarted fast and immediate, a match worker restarted on a full disk, a
match worker frozen) and checks the season afterwards. Here a full disk and a
freeze last 5 s, not 20. The large run and its figures are in
docs/operations.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmarks.chaos import FAULTS

#: Long: run first, so the suite's workers overlap it with the rest (tests/conftest.py).
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
#: "Back to full throughput within 2 minutes of any single fault": here, the next series recorded.
RECOVERY_LIMIT_S = 120


def test_a_season_survives_every_kind_of_fault(tmp_path: Path) -> None:
    figures = tmp_path / "chaos.json"
    run = subprocess.run(
        [sys.executable, "tests/benchmarks/chaos.py", "--series", "40", "--fault-every", "3",
         "--min-faults", str(len(FAULTS)), "--sick-s", "5", "--freeze-s", "5", "--timeout", "600",
         "--json", str(figures)],
        cwd=REPO, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    result = json.loads(figures.read_text())
    assert result["problems"] == []
    assert result["series"] >= 40
    assert {fault["kind"] for fault in result["faults"]} == set(FAULTS)
    recoveries = [fault["recovery_s"] for fault in result["faults"] if fault["recovery_s"] is not None]
    assert len(recoveries) == len(result["faults"])  # the run plays on until each fault's recovery is seen
    assert max(recoveries) <= RECOVERY_LIMIT_S, result["faults"]
    assert "Checks: all hold" in run.stdout
