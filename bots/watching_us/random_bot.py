"""The random reference bots for Watching Us: a uniformly random legal action, in any seat and role."""

from __future__ import annotations

from bots.watch.random_bot import RandomPolicy

__all__ = ["RandomPolicy"]
