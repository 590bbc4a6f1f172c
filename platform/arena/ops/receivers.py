"""The platform's one receiver of ``version_activated``: the steps that follow an activation, in their order.

Each step needs the one before it, so they are called here one after the
other instead of being connected as receivers of their own (whose order
would be the order of INSTALLED_APPS):

1. :func:`arena.results.entries.enter_seasons`: the version takes its
   predecessors' places (or joins the running seasons of its games), with a
   seeded rating.
2. :func:`arena.matchmaking.scheduling.schedule_new_version`: in the running
   solo seasons it entered, its series are queued at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.bots.models import BotVersion
from arena.matchmaking.scheduling import schedule_new_version
from arena.results.entries import enter_seasons


def follow_activation(sender: Any, version: BotVersion, retired: Iterable[BotVersion] = (), **kwargs: Any) -> None:
    """Receiver of ``version_activated``: enter ``version`` into its seasons, then queue its solo series."""
    enter_seasons(sender, version=version, retired=retired)
    schedule_new_version(sender, version=version)
