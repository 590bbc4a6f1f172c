"""The factory race (rulebook 003): production lines of tiles, simultaneous workers, blueprints."""

from __future__ import annotations

from engines.factory_race.game import INFO, FactoryRaceGame, FactoryRaceState

__all__ = ["INFO", "FactoryRaceGame", "FactoryRaceState"]
