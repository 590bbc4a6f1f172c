"""Arms timers that deliver a signal, to think in the handler while blocked reading the next request.

The referee leaves a bot that is blocked reading its stdin unfrozen (nothing
can wake it but the next request), so a timer firing off turn would let it
think on the other bot's time. Reports on stderr what each timer call
answered (``HOSTILE <call>: refused|armed``), then every request how far the
handler got off turn and on turn (``offturn``/``onturn <increments> <seconds>``,
as sigcont_ring does).
"""

import ctypes
import signal
import sys
import time

count = 0


def think(signum, frame):
    global count
    end = time.monotonic() + 0.0005  # half a millisecond of work per tick
    while time.monotonic() < end:
        count += 1


signal.signal(signal.SIGALRM, think)
try:
    signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
    sys.stderr.write("HOSTILE setitimer: armed\n")
except OSError as exc:
    sys.stderr.write(f"HOSTILE setitimer: refused ({exc})\n")
signal.alarm(5)
remaining, _ = signal.getitimer(signal.ITIMER_REAL)  # an armed alarm has time left
sys.stderr.write(f"HOSTILE alarm: {'armed' if remaining > 0 else 'refused'}\n")
libc = ctypes.CDLL(None, use_errno=True)
timer_id = ctypes.c_void_p()
made = libc.timer_create(1, None, ctypes.byref(timer_id))  # CLOCK_MONOTONIC, SIGALRM by default
sys.stderr.write(f"HOSTILE timer_create: {'armed' if made == 0 else 'refused'} (errno {ctypes.get_errno()})\n")
if made == 0:

    class Timespec(ctypes.Structure):
        _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]

    class Itimerspec(ctypes.Structure):
        _fields_ = [("interval", Timespec), ("value", Timespec)]

    every = Itimerspec(Timespec(0, 1_000_000), Timespec(0, 1_000_000))
    libc.timer_settime(timer_id, 0, ctypes.byref(every), None)
sys.stderr.flush()

from bots.sdk import run  # noqa: E402

answered = None


def play(observation, legal_actions):
    global answered
    now = time.monotonic()
    if answered is not None:
        sys.stderr.write(f"offturn {count - answered[1]} {now - answered[0]:.4f}\n")
    start, first = time.monotonic(), count
    while time.monotonic() - start < 0.02:  # on turn: the ticks' pace while it is allowed to run
        pass
    sys.stderr.write(f"onturn {count - first} {time.monotonic() - start:.4f}\n")
    sys.stderr.flush()
    answered = (time.monotonic(), count)
    return legal_actions[0]


run(play)
