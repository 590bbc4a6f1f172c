"""Writes to stdout for ever and never ends the line."""

import os

chunk = b"x" * 65536
while True:
    os.write(1, chunk)
