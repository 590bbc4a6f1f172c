"""The reference bots of Watching Us: what this folder provides to the validation, the demo and the tables."""

from __future__ import annotations

from pathlib import Path

from bots.provided import ReferenceBots, packages_in
from bots.watching_us import POLICIES

PROVIDES = ReferenceBots(
    game="watching_us",
    packages=packages_in(Path(__file__).parent / "packages", POLICIES),
    validation_bot="random",
    policies=POLICIES,
    # Player bots and the GM bot the demo enters; with no GM bot the built-in GM would take the GM seat.
    demo_bots=("random", "heuristic"),
    gm_bots=("heuristic_gm",),
)
