"""A version that became active takes its predecessors' places in the seasons, with a seeded rating.

On ``version_activated(version, retired)`` (arena.bots.signals), per season:

* The seasons are those, not finished, where one of the ``retired`` versions
  has an active entry: the new version takes over those places. A version
  that takes over no place (a bot's first version, or one whose predecessors
  were entered nowhere) joins every *running* season of its game instead.
  A season whose game the new bot.toml no longer lists is left out.
* The new version gets an active :class:`SeasonEntry`; every entry of the
  retired versions is deactivated (in all seasons: a retired version is
  paired nowhere).
* Where a retired version has a rating in the season (the newest such
  version when several do), the new version's :class:`Rating` starts at that
  μ with σ reset to the season's default, as a seed row in
  :class:`RatingHistory` (series empty) says too. Without one, nothing is
  created: ``rating_for`` seeds the default rating at the first series.

Each season is done in its own transaction holding the season row's lock,
the lock ``record_series_result`` takes first, so a seed snapshots the
predecessor's μ between two recorded series, and the seed row is where
``recompute_season`` starts the new version. A series of the predecessor
still running when it retired is recorded for the predecessor afterwards and
does not move the seed. Calling this twice changes nothing the second time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from arena.bots.models import BotVersion
from arena.ratings.models import Rating, RatingHistory
from arena.seasons.models import Season, SeasonEntry


def enter_seasons(sender: Any, version: BotVersion, retired: Iterable[BotVersion] = (), **kwargs: Any) -> list[Season]:
    """Enter ``version`` where ``retired`` played; return the seasons entered (a step of arena/ops/receivers.py)."""
    retired_ids = [v.pk for v in retired]
    seasons = list(
        Season.objects.filter(entries__version_id__in=retired_ids, entries__active=True)
        .exclude(status=Season.Status.FINISHED)
        .distinct()
        .order_by("pk")
    )
    if not seasons:
        seasons = list(Season.objects.filter(status=Season.Status.RUNNING).order_by("pk"))
    games = set(version.games)
    entered = []
    for season in seasons:
        if games and season.game not in games:
            continue
        with transaction.atomic():
            locked = Season.objects.select_for_update(no_key=True).get(pk=season.pk)
            enter_season(locked, version, retired_ids)
        entered.append(season)
    SeasonEntry.objects.filter(version_id__in=retired_ids, active=True).update(active=False)
    return entered


def enter_season(season: Season, version: BotVersion, retired_ids: list[int]) -> None:
    """Give ``version`` an active entry in ``season`` and, if a retired version was rated there, its seeded rating."""
    from arena.results.recording import season_parameters  # arena.series imports this app's models

    entry, created = SeasonEntry.objects.get_or_create(season=season, version=version)
    if not created and not entry.active:
        entry.active = True
        entry.save(update_fields=["active"])
    SeasonEntry.objects.filter(season=season, version_id__in=retired_ids, active=True).update(active=False)
    if Rating.objects.filter(season=season, version=version).exists():
        return  # seeded already (a repeated signal), or it has played
    newest = (
        Rating.objects.filter(season=season, version_id__in=retired_ids).order_by("-version__number", "-pk").first()
    )
    if newest is None:
        return
    sigma = season_parameters(season).sigma
    # One rating per role the predecessor had (a team game's "player" and "gm"; "" for other games).
    for predecessor in Rating.objects.filter(season=season, version_id=newest.version_id).order_by("role"):
        if predecessor.role and not version.plays_role(predecessor.role):
            continue
        Rating.objects.create(season=season, version=version, role=predecessor.role, mu=predecessor.mu, sigma=sigma)
        RatingHistory.objects.create(
            season=season, version=version, role=predecessor.role, series=None, mu=predecessor.mu, sigma=sigma
        )
