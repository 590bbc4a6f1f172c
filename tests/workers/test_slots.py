"""Host-wide worker slot leases (workers/slots.py): one series per slot at a time, whoever asks.

Each test leases in a directory of its own (the host's, /run/arena-slots, is
for running series: test_slot_sharing.py and the hostile suite use it).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import workers.referee
import workers.sandbox
from workers.botpkg import load_bot_package
from workers.referee import SandboxFailure, SeriesSpec, TimeControl, run_series
from workers.slots import SlotError, SlotsExhausted, holds_uid, lease_slot

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534

#: Leases a slot in another process and says which; then waits to be killed or told to go.
OTHER_PROCESS = textwrap.dedent(
    """
    import sys
    sys.path[:0] = [sys.argv[1]]
    from pathlib import Path
    from workers.slots import lease_slot

    lease = lease_slot(int(sys.argv[3]), int(sys.argv[4]), directory=Path(sys.argv[2]), slots=16)
    print(lease.slot, flush=True)
    sys.stdin.read()
    """
)


@pytest.fixture
def root() -> None:
    if os.geteuid() != 0:
        pytest.skip("slots are leased only as root (a bot author's own runs lease nothing)")


def lease_elsewhere(directory: Path, preferred: int, uid_base: int = 60000) -> tuple[subprocess.Popen[str], int]:
    """Lease a slot from ``preferred`` on in another process; return it (holding the lease) and the slot."""
    other = subprocess.Popen(
        [sys.executable, "-c", OTHER_PROCESS, str(REPO), str(directory), str(preferred), str(uid_base)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert other.stdout is not None
    return other, int(other.stdout.readline())


def end(other: subprocess.Popen[str]) -> None:
    other.communicate("", timeout=30)


def test_a_slot_is_one_series_at_a_time_in_any_process_and_a_lease_moves_on_to_the_next_free_one(
    root: None, tmp_path: Path
) -> None:
    directory = tmp_path / "slots"
    first = lease_slot(5, 60000, directory=directory, slots=16)
    second = lease_slot(5, 60000, directory=directory, slots=16)  # as a second thread of this process
    assert (first.slot, second.slot) == (5, 6)
    assert list(first.uids) == list(range(60040, 60048))
    assert first.lock_file == directory / "uids-60040-60047"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE(first.lock_file.stat().st_mode) == 0o600
    assert all(holds_uid(uid) for uid in (60040, 60047, 60048))
    other, slot = lease_elsewhere(directory, 5)
    assert slot == 7  # another process (or container) sees both leases
    end(other)
    # Named by uids: a worker with another uid_base is kept apart where (and only where) its uids meet ours.
    with lease_slot(4, 60008, directory=directory, slots=16) as shifted:
        assert shifted.slot == 6  # slot 4 of base 60008 is 60040-60047 (held), slot 5 is 60048-60055 (held)
        assert list(shifted.uids) == list(range(60056, 60064))
    first.release()
    first.release()  # twice: nothing more happens
    assert not holds_uid(60040)
    assert holds_uid(60048)
    other, slot = lease_elsewhere(directory, 5)
    assert slot == 5  # given back
    end(other)
    second.release()


def test_the_lease_of_a_killed_process_is_free_at_once(root: None, tmp_path: Path) -> None:
    directory = tmp_path / "slots"
    other, slot = lease_elsewhere(directory, 3)
    assert slot == 3
    with lease_slot(3, 60000, directory=directory, slots=16) as lease:
        assert lease.slot == 4  # taken while the other process lives
    other.kill()
    other.wait()
    assert other.stdout is not None
    other.stdout.close()
    other.stdin.close()  # type: ignore[union-attr]
    with lease_slot(3, 60000, directory=directory, slots=16) as lease:
        assert lease.slot == 3  # the kernel dropped the lock with its last descriptor: no stale lease


def test_a_forked_process_holds_none_of_its_parents_leases_and_they_stay_held(root: None, tmp_path: Path) -> None:
    directory = tmp_path / "slots"
    with lease_slot(2, 60000, directory=directory, slots=16):
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - the child reports through the pipe
            os.write(write, b"1" if holds_uid(60016) else b"0")
            os._exit(0)
        os.close(write)
        assert os.read(read, 1) == b"0"  # a Celery pool process forked from a worker starts with no slot
        os.close(read)
        os.waitpid(child, 0)
        other, slot = lease_elsewhere(directory, 2)
        assert slot == 3  # the child closed its copies of the lock: the parent still holds it
        end(other)


def test_when_every_slot_is_leased_it_says_so_and_a_slot_given_back_is_leased_again(root: None, tmp_path: Path) -> None:
    directory = tmp_path / "slots"
    leases = [lease_slot(0, 60000, directory=directory, slots=4) for _ in range(4)]
    assert sorted(lease.slot for lease in leases) == [0, 1, 2, 3]
    with pytest.raises(SlotsExhausted) as refused:
        lease_slot(2, 60000, directory=directory, slots=4)
    assert str(refused.value) == (
        f"all 4 worker slots (bot uids 60000 to 60031) are leased by running series on this host "
        f"(locks in {directory}); try again when a series has ended"
    )
    leases[1].release()
    with lease_slot(2, 60000, directory=directory, slots=4) as lease:
        assert lease.slot == 1  # from 2 on, round to the one free
    for lease in leases:
        lease.release()


def test_a_slot_directory_another_user_could_plant_or_hold_locks_in_is_refused(root: None, tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, NOBODY, NOBODY)
    with pytest.raises(SlotError, match=rf"slot directory {theirs} belongs to uid {NOBODY}, not to this worker's 0"):
        lease_slot(0, 60000, directory=theirs)
    assert list(theirs.iterdir()) == []
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    with pytest.raises(SlotError, match="is not a directory"):
        lease_slot(0, 60000, directory=tmp_path / "link")
    # Ours but open to everyone (as docker makes a bind mount's missing source): closed first.
    real.chmod(0o777)
    with lease_slot(0, 60000, directory=real) as lease:
        assert lease.slot == 0
    assert stat.S_IMODE(real.stat().st_mode) == 0o700
    # A lock name that is not a plain file is refused, never followed or waited on.
    (real / "uids-60008-60015").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(SlotError, match=r"cannot open the slot lock .*uids-60008-60015"):
        lease_slot(1, 60000, directory=real)
    assert not (tmp_path / "elsewhere").exists()
    os.mkfifo(real / "uids-60016-60023")
    with pytest.raises(SlotError, match=r"the slot lock .*uids-60016-60023 is not a regular file"):
        lease_slot(2, 60000, directory=real)


def test_a_referee_that_can_lease_no_slot_fails_the_series_as_the_platforms_problem(
    root: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    os.chown(theirs, NOBODY, NOBODY)
    monkeypatch.setenv("ARENA_SLOT_DIR", str(theirs))
    polite = load_bot_package(REPO / "tests/workers/hostile/polite", tmp_path / "work")
    started = []
    monkeypatch.setattr(workers.referee, "start_bot", lambda *args, **kwargs: started.append(args))
    with pytest.raises(SandboxFailure, match=f"no worker slot for the bots: the slot directory {theirs} belongs"):
        run_series(SeriesSpec(bots=[polite, polite], sandbox="bwrap"))  # a worker retries a SandboxFailure
    assert started == []


def test_bad_slots_and_uid_bases_are_refused() -> None:
    with pytest.raises(ValueError, match="a worker slot is from 0 to 8191, not 8192"):
        lease_slot(8192)
    with pytest.raises(ValueError, match="a worker slot is from 0 to 8191, not -1"):
        lease_slot(-1)
    with pytest.raises(ValueError, match=r"uid_base must be above 0 \(uid 0 is root\), not 0"):
        lease_slot(0, 0)
    with pytest.raises(ValueError, match="slot must be an integer, not True"):
        lease_slot(True)  # type: ignore[arg-type]


def as_nobody(work: Callable[[], Any]) -> Any:
    """Run ``work`` in a forked child with uid and gid 65534 and return what it returns (JSON), or raise its error.

    The interpreter lives under /root, which nobody cannot read: everything ``work``
    needs is imported before the fork.
    """
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.setgroups([])
            os.setresgid(NOBODY, NOBODY, NOBODY)
            os.setresuid(NOBODY, NOBODY, NOBODY)
            report = json.dumps({"result": work()})
        except BaseException:
            report = json.dumps({"error": traceback.format_exc()})
        os.write(write, report.encode())
        os._exit(0)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 65536):
        chunks.append(chunk)
    os.close(read)
    os.waitpid(child, 0)
    answer = json.loads(b"".join(chunks))
    assert "error" not in answer, answer["error"]
    return answer["result"]


def test_without_root_nothing_is_leased_and_a_sandboxed_series_plays(
    root: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot author's own `arena play`: the bots run as the author's uid, so there is no slot uid to lease."""
    slot_parent = tmp_path / "root-only"
    slot_parent.mkdir(mode=0o700)
    monkeypatch.setenv("ARENA_SLOT_DIR", str(slot_parent / "slots"))  # nobody could not even look there
    home = Path(tempfile.mkdtemp(prefix="arena-nobody-"))  # tmp_path is root's alone
    os.chown(home, NOBODY, NOBODY)
    polite = load_bot_package(REPO / "tests/workers/hostile/polite", home / "work")
    workers.sandbox.sandbox_problem()  # what the child will need from the root-only standard library
    workers.sandbox._cached_seccomp_program()
    workers.sandbox.bot_runtime()
    workers.sandbox.shared_staging()

    def leases() -> list[Any]:
        first, second = lease_slot(5), lease_slot(5)
        return [first.slot, second.slot, first.locked, str(first.lock_file), holds_uid(100040)]

    assert as_nobody(leases) == [5, 5, False, "None", False]

    def play() -> dict[str, Any]:
        tempfile.tempdir = str(home)
        workers.sandbox._SHARED.clear()  # a staging area of its own, as its own `arena play` makes
        document = run_series(
            SeriesSpec(bots=[polite, polite], sandbox="bwrap", slot=7, time_control=TimeControl(3000, 20000))
        )
        return {"sandbox": document["sandbox"], "forfeits": [game["forfeit"] for game in document["games"]]}

    try:
        assert as_nobody(play) == {"sandbox": "bwrap", "forfeits": [None, None]}
    finally:
        shutil.rmtree(home)
    assert not (slot_parent / "slots").exists()
