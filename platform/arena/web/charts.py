"""Rating charts drawn on the server as SVG geometry: μ line, μ ± 3σ band, the μ − 3σ line, axes.

The page needs no script and no chart library: this module turns a version's
RatingHistory rows into coordinates, and ``web/_rating_chart.html`` writes
them out as inline SVG (the template escapes every label).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 36
#: More points than this are thinned (evenly, keeping the first and last): a path of a few hundred
#: points already shows every change a reader can see at this width.
MAX_POINTS = 400


@dataclass(frozen=True)
class RatingPoint:
    """One rating of a version after a series (or its seed)."""

    recorded_at: datetime
    mu: float
    sigma: float
    version_number: int
    #: μ − 3σ, what the leaderboard ranks by, as the database computes it (RatingHistory.conservative).
    conservative: float


@dataclass(frozen=True)
class Tick:
    value: str
    y: float


@dataclass(frozen=True)
class Marker:
    """Where a new version's ratings start on the chart."""

    x: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    mu_path: str
    conservative_path: str
    band: str
    ticks: list[Tick]
    markers: list[Marker]
    first: datetime
    last: datetime
    count: int
    latest: RatingPoint
    plot_left: int
    plot_right: int
    plot_bottom: int


def thin(points: Sequence[RatingPoint], limit: int = MAX_POINTS) -> list[RatingPoint]:
    """Return at most ``limit`` of ``points``, evenly spaced, always keeping the first and the last."""
    if len(points) <= limit:
        return list(points)
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Return round tick values covering [low, high], about ``count`` of them."""
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value <= high + step * 0.5:
        ticks.append(round(value, 6))
        value += step
    return ticks


def rating_chart(history: Sequence[RatingPoint]) -> Chart | None:
    """Return the chart of ``history`` (oldest first), or None when there is nothing to draw."""
    if not history:
        return None
    points = thin(history)
    ticks = nice_ticks(min(p.conservative for p in points), max(p.mu + 3 * p.sigma for p in points))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    # Each x once, as text: four lines of a few hundred points share them.
    last = len(points) - 1
    xs = [f"{LEFT + (plot_w * i / last if last else plot_w / 2):.1f}" for i in range(len(points))]
    scale = plot_h / (high - low)

    def y(value: float) -> float:
        return TOP + (high - value) * scale

    def path(values: list[float]) -> str:
        return "M" + " L".join(f"{x},{y(v):.1f}" for x, v in zip(xs, values, strict=True))

    upper = [f"{x},{y(p.mu + 3 * p.sigma):.1f}" for x, p in zip(xs, points, strict=True)]
    lower = [f"{x},{y(p.conservative):.1f}" for x, p in zip(xs, points, strict=True)]
    markers, marked = [], set()
    for x, p in zip(xs, points, strict=True):  # where each version's ratings start (two versions may take turns)
        if p.version_number not in marked:
            marked.add(p.version_number)
            markers.append(Marker(x=float(x), label=f"v{p.version_number}"))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        mu_path=path([p.mu for p in points]),
        conservative_path=path([p.conservative for p in points]),
        band=" ".join(upper + lower[::-1]),
        ticks=[Tick(value=f"{t:g}", y=round(y(t), 1)) for t in ticks],
        markers=markers,
        first=history[0].recorded_at,
        last=history[-1].recorded_at,
        count=len(history),
        latest=history[-1],
        plot_left=LEFT,
        plot_right=WIDTH - RIGHT,
        plot_bottom=HEIGHT - BOTTOM,
    )
