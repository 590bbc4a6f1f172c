"""The reference bots of the factory race: what this folder provides to the validation, the demo and the tables."""

from __future__ import annotations

from pathlib import Path

from bots.factory_race import POLICIES
from bots.provided import ReferenceBots, packages_in

PROVIDES = ReferenceBots(
    game="factory_race",
    packages=packages_in(Path(__file__).parent / "packages", POLICIES),
    validation_bot="random",
    policies=POLICIES,
    # The search bot (a second a round) stays out of the demo, so that the living ladder's series stay
    # short and a bot uploaded to the served site gets its games at once.
    demo_bots=("random", "heuristic"),
)
