"""Leaves a daemon behind: double fork, setsid, ignore every catchable signal, sleep for ever. Then plays."""

import os
import signal
import sys
import time

from bots.sdk import run

child = os.fork()
if child == 0:
    os.setsid()
    if os.fork() > 0:
        os._exit(0)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_IGN)
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.chdir("/")
    while True:
        time.sleep(3600)
os.waitpid(child, 0)
print(f"HOSTILE daemon: left behind, session leader child {child}", file=sys.stderr, flush=True)

run(lambda observation, legal_actions: legal_actions[0])
