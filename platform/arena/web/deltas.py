"""How much one series moved a version's rating: Δμ and Δ(μ − 3σ), from the append-only rating history."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Q, Subquery

from arena.ratings.models import RatingHistory


@dataclass(frozen=True)
class RatingChange:
    """A version's rating change through one series."""

    mu: float
    conservative: float


def rating_changes(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], RatingChange]:
    """Return the change per (series id, version id) in ``pairs``, in one query; pairs with no history are left out.

    Each history row is compared with the row before it for the same version
    in the same season (the seed, before its first series), in recording order.
    """
    if not pairs:
        return {}
    earlier = (
        RatingHistory.objects.filter(season=OuterRef("season"), version=OuterRef("version"))
        .filter(
            Q(recorded_at__lt=OuterRef("recorded_at")) | Q(recorded_at=OuterRef("recorded_at"), id__lt=OuterRef("id"))
        )
        .order_by("-recorded_at", "-id")
    )
    rows = (
        RatingHistory.objects.filter(
            series_id__in={series for series, _ in pairs}, version_id__in={version for _, version in pairs}
        )
        .annotate(
            before_mu=Subquery(earlier.values("mu")[:1]),
            before_conservative=Subquery(earlier.values("conservative")[:1]),
        )
        .values_list("series_id", "version_id", "mu", "conservative", "before_mu", "before_conservative")
    )
    wanted = set(pairs)
    changes = {}
    for series_id, version_id, mu, conservative, before_mu, before_conservative in rows:
        if (series_id, version_id) in wanted and before_mu is not None:
            changes[series_id, version_id] = RatingChange(mu - before_mu, conservative - before_conservative)
    return changes
