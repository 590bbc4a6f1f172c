"""The reference bots of the Watch factory: what this folder provides to the validation, the demo and the tables."""

from __future__ import annotations

from pathlib import Path

from bots.provided import ReferenceBots, packages_in
from bots.watch_factory import POLICIES

PROVIDES = ReferenceBots(
    game="watch_factory",
    packages=packages_in(Path(__file__).parent / "packages", POLICIES),
    validation_bot="random",
    policies=POLICIES,
    # The slow search bot stays out of the demo seasons (the rated one and the solo ladder).
    demo_bots=("random", "heuristic"),
)
