"""``manage.py test``: the suite on pytest-xdist workers, a file to a worker, unless the caller chose otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from manage import pytest_command, suite_workers

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("cpus", "workers"), [(None, 2), (1, 2), (2, 4), (3, 6), (4, 8), (64, 8)])
def test_it_runs_two_workers_a_cpu_from_two_to_eight(cpus: int | None, workers: int) -> None:
    assert suite_workers(cpus) == workers


def test_the_readme_command_runs_the_suite_on_workers_a_file_to_a_worker() -> None:
    assert pytest_command("py", [], 2) == ["py", "-m", "pytest", "-n", "4", "--dist", "loadfile"]
    assert pytest_command("py", ["--durations=25"], 2) == [
        "py", "-m", "pytest", "-n", "4", "--dist", "loadfile", "--durations=25",
    ]  # fmt: skip
    assert pytest_command("py", ["tests/engines", "-k", "notation"], 1)[3:] == [
        "-n", "2", "--dist", "loadfile", "tests/engines", "-k", "notation",
    ]  # fmt: skip


@pytest.mark.parametrize("count", [["-n", "0"], ["-n0"], ["-nauto"], ["--numprocesses", "3"], ["--numprocesses=3"]])
def test_a_worker_count_of_the_callers_replaces_ours(count: list[str]) -> None:
    assert pytest_command("py", ["tests/engines", *count], 2)[3:] == ["--dist", "loadfile", "tests/engines", *count]


@pytest.mark.parametrize("dist", [["--dist", "load"], ["--dist=loadscope"]])
def test_a_distribution_of_the_callers_replaces_ours(dist: list[str]) -> None:
    assert pytest_command("py", [*dist], 2)[3:] == ["-n", "4", *dist]


@pytest.mark.parametrize("off", [["-p", "no:xdist"], ["-pno:xdist"]])
def test_xdist_turned_off_gets_neither(off: list[str]) -> None:
    assert pytest_command("py", ["tests/engines", *off], 2) == ["py", "-m", "pytest", "tests/engines", *off]


def test_an_argument_that_only_starts_like_n_is_passed_through_with_the_workers() -> None:
    assert pytest_command("py", ["-native"], 2)[3:] == ["-n", "4", "--dist", "loadfile", "-native"]


def test_the_command_runs_the_tests_of_one_file_on_one_worker(tmp_path: Path) -> None:
    # The real command line on two workers: four tests of one file, each saying which worker ran it.
    (tmp_path / "test_four.py").write_text(
        "import os, pytest\n"
        "@pytest.mark.parametrize('n', range(4))\n"
        "def test_worker(n):\n"
        "    print('ran on', os.environ['PYTEST_XDIST_WORKER'])\n"
    )
    run = subprocess.run(
        [sys.executable, "manage.py", "test", "-n", "2", "-p", "no:cacheprovider", "-rA", str(tmp_path)],
        cwd=ROOT,
        env={"ARENA_NO_BOOTSTRAP": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "created: 2/2 workers" in run.stdout
    assert "4 passed" in run.stdout
    workers = {line.split()[-1] for line in run.stdout.splitlines() if line.startswith("ran on ")}
    assert len(workers) == 1, run.stdout


def test_the_files_marked_slow_are_collected_first_each_file_in_its_order() -> None:
    from tests.conftest import pytest_collection_modifyitems

    class Item:
        def __init__(self, name: str, slow: bool) -> None:
            self.name, self.slow = name, slow

        def get_closest_marker(self, marker: str) -> object | None:
            return object() if self.slow and marker == "slow" else None

    items = [Item("a.1", False), Item("long.1", True), Item("a.2", False), Item("long.2", True), Item("b.1", False)]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [item.name for item in items] == ["long.1", "long.2", "a.1", "a.2", "b.1"]
