"""Watching Us (rulebook 002, Bearsharktopus Studios): see game.py and RULES.md."""

from engines.watching_us.game import WatchingUsGame, WatchingUsState, seat_roles

__all__ = ["WatchingUsGame", "WatchingUsState", "seat_roles"]
