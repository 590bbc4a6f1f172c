"""The reference bots of the Watch race: what this folder provides to the validation, the demo and the tables."""

from __future__ import annotations

from pathlib import Path

from bots.provided import ReferenceBots, packages_in
from bots.watch_race import POLICIES

PROVIDES = ReferenceBots(
    game="watch_race",
    packages=packages_in(Path(__file__).parent / "packages", POLICIES),
    validation_bot="random",
    policies=POLICIES,
)
