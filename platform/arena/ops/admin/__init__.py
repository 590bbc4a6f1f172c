"""The admin site's pages for every app, at the top of the layers because their actions call arena.ops.operations.

Django's admin autodiscovery imports this package (``arena.ops`` is an
installed app); importing each module registers its pages.
"""

from __future__ import annotations

from arena.ops.admin import bots, ratings, seasons, series

__all__ = ["bots", "ratings", "seasons", "series"]
