"""The reference bots of Watch: what this folder provides to the validation, the demo and the tables."""

from __future__ import annotations

from pathlib import Path

from bots.provided import ReferenceBots, packages_in
from bots.watch import POLICIES

PROVIDES = ReferenceBots(
    game="watch",
    packages=packages_in(Path(__file__).parent / "packages", POLICIES),
    validation_bot="random",
    policies=POLICIES,
)
