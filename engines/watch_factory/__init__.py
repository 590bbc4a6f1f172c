"""The Watch factory (rulebook 000, Daniel Newman's *Watch*): see game.py and RULES.md."""

from engines.watch_factory.game import WatchFactoryGame, WatchFactoryState

__all__ = ["WatchFactoryGame", "WatchFactoryState"]
