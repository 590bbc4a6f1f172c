"""Lists every file it can see, and tries the platform's packages and the host's Python libraries.

The bots' runtime promises the interpreter, its standard library and a few
base tools (docs/bot-package.md); anything more (the platform's virtualenv or
/usr/local, Debian's dist-packages, configuration) is a leak. Reports one
line per file outside the standard library, /bot and /arena.
"""

import importlib
import os
import sys

from bots.sdk import run


def report(probe, outcome):
    print(f"HOSTILE {probe}: {outcome}", file=sys.stderr, flush=True)


stdlib = os.path.dirname(os.__file__)
counted = 0
for root, dirs, files in os.walk("/", onerror=lambda error: report(f"walk {error.filename}", type(error).__name__)):
    if root in ("/proc", "/dev", "/sys") or root.startswith(("/proc/", "/dev/", "/sys/")):
        dirs[:] = []
        continue
    for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
        path = os.path.join(root, name)
        if path.startswith((stdlib + "/", "/bot/", "/arena/")):
            counted += 1
            continue
        report(f"file {path}", "link" if os.path.islink(path) else "file")
report("stdlib, bot and arena files", f"OK {counted}")
for module in ("django", "celery", "kombu", "redis", "psycopg", "arena", "workers", "trueskill", "pip",
               "setuptools", "yaml", "numpy", "apt", "requests", "cryptography"):  # fmt: skip
    try:
        importlib.import_module(module)
    except ImportError as exc:
        report(f"import {module}", f"{type(exc).__name__}: {exc}")
    else:
        report(f"import {module}", "OK imported")
for path in ("/usr/local", "/usr/lib/python3/dist-packages", "/usr/share/doc", "/etc/passwd", "/root"):
    report(f"exists {path}", f"OK {os.path.exists(path)}")
report("sys.path", f"OK {sys.path}")

run(lambda observation, legal_actions: legal_actions[0])
