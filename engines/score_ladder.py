"""Score ladders: a game played solo, ranked by the mean score of the same seeded deals.

A solo season (one player a series) plays every version on the same deals, so
the scores are comparable, and ranks the versions by their mean score with a
95 % interval. A game opts in by declaring a :class:`ScoreLadder`
(``GameDeclaration.score_ladder``); the referee then scores a one-player
series with :func:`score_series` instead of the game's own
``Game.score_series``, and the platform summarises a version's series with
:func:`standing` over the deal scores that score holds.

The score of a finished solo game is ``Outcome.returns[0]``: the engine puts
it there, and the referee records each game's returns. A game a forfeit ended
(a crash, a timeout, an illegal move) scores the ladder's ``forfeit_score``,
and so does every deal left unplayed after it (a forfeit ends a series, as in
every game), so each version's mean is over the same deals.

Pure: no I/O, no third-party imports.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.result import GameRecord

#: The fewest deals a solo season plays: fewer would make the interval too wide to rank by.
MIN_DEALS = 20

#: Student's t quantile t(0.975, df) for the 95 % interval, by degrees of freedom (n - 1); a df
#: between two rows takes the smaller row's (wider) value, and beyond 120 the normal 1.96.
T_975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    11: 2.201,
    12: 2.179,
    13: 2.160,
    14: 2.145,
    15: 2.131,
    16: 2.120,
    17: 2.110,
    18: 2.101,
    19: 2.093,
    20: 2.086,
    21: 2.080,
    22: 2.074,
    23: 2.069,
    24: 2.064,
    25: 2.060,
    26: 2.056,
    27: 2.052,
    28: 2.048,
    29: 2.045,
    30: 2.042,
    40: 2.021,
    60: 2.000,
    120: 1.980,
}
NORMAL_975 = 1.96


@dataclass(frozen=True)
class ScoreLadder:
    """How a game ranks solo play: the deals of a season, the titles a mean earns, a forfeit's score.

    A solo game's score is its ``Outcome.returns[0]``; nothing else is declared
    for it.
    """

    #: (threshold, title) pairs: a mean at or above a threshold earns its title, the highest one
    #: reached names it; below every threshold a version has no title.
    titles: tuple[tuple[float, str], ...] = ()
    #: The deals (games) of a solo season when none is given; at least MIN_DEALS.
    deals: int = MIN_DEALS
    #: What a game a forfeit ended scores, and each deal not played after it.
    forfeit_score: float = 0.0

    def __post_init__(self) -> None:
        if self.deals < MIN_DEALS:
            raise ValueError(f"a score ladder plays at least {MIN_DEALS} deals, not {self.deals}")
        thresholds = [threshold for threshold, _ in self.titles]
        if thresholds != sorted(set(thresholds)):
            raise ValueError(f"a score ladder's title thresholds rise strictly, not {thresholds}")

    def title(self, mean: float) -> str:
        """Return the title a mean score earns: the highest threshold reached, or "" below them all."""
        earned = [title for threshold, title in self.titles if mean >= threshold]
        return earned[-1] if earned else ""

    def check_deals(self, deals: int) -> str | None:
        """Return why a solo season of ``deals`` games cannot be played, or None."""
        if deals < MIN_DEALS:
            return f"a solo season plays the same {MIN_DEALS} or more deals for every version, not {deals}"
        return None


def t_975(df: int) -> float:
    """Return Student's t(0.975, df) from :data:`T_975` (the wider tabulated value between rows)."""
    if df > max(T_975):
        return NORMAL_975
    return T_975[max(row for row in T_975 if row <= df)]


@dataclass(frozen=True)
class Standing:
    """A version's scores on a ladder's deals, summed up.

    ``low`` and ``high`` bound the 95 % interval of the mean,
    mean ± t(0.975, n - 1) · s / √n (s the sample standard deviation); with
    fewer than two games there is none and they equal the mean.
    """

    scores: tuple[float, ...]
    mean: float
    low: float
    high: float
    best: float
    worst: float
    forfeits: int
    title: str

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def margin(self) -> float:
        """Return the half-width of the 95 % interval."""
        return self.high - self.mean


def standing(scores: Sequence[float], ladder: ScoreLadder, forfeits: int = 0) -> Standing:
    """Return the standing of a version that scored ``scores`` (at least one) on ``ladder``'s deals."""
    if not scores:
        raise ValueError("a standing needs at least one score")
    n = len(scores)
    mean = math.fsum(scores) / n
    margin = 0.0
    if n > 1:
        deviation = math.sqrt(math.fsum((s - mean) ** 2 for s in scores) / (n - 1))
        margin = t_975(n - 1) * deviation / math.sqrt(n)
    return Standing(
        scores=tuple(scores),
        mean=mean,
        low=mean - margin,
        high=mean + margin,
        best=max(scores),
        worst=min(scores),
        forfeits=forfeits,
        title=ladder.title(mean),
    )


def deal_scores(games: Sequence[GameRecord], planned: int, ladder: ScoreLadder) -> tuple[list[float], int]:
    """Return the score of each of ``planned`` deals from a solo series' game records, and the forfeits.

    A game ended by a forfeit, and every deal not played, scores the ladder's
    ``forfeit_score``; any other game scores its recorded ``returns[0]``.
    """
    scores = [ladder.forfeit_score] * planned
    forfeits = 0
    for game in games:
        if game.forfeit is not None:
            forfeits += 1
        elif 0 <= game.index < planned and game.returns:
            scores[game.index] = float(game.returns[0])
    return scores, forfeits


def format_score(value: float) -> str:
    """Return a score as people read it: whole numbers bare, others to one decimal."""
    return f"{value:.0f}" if value == round(value) else f"{value:.1f}"


def score_series(games: Sequence[GameRecord], planned: int, ladder: ScoreLadder) -> dict[str, Any]:
    """Return the score of a one-player series as ``Game.score_series`` does, with the ladder's facts.

    ``points`` holds the mean score (to one decimal, as the platform stores
    points) and ``game_wins`` the games the player won; ``deal_scores``,
    ``forfeits``, ``mean``, ``low``, ``high`` and ``title`` are the standing
    (:class:`Standing`), and ``steps`` each deal's score and the mean.
    """
    scores, forfeits = deal_scores(games, planned, ladder)
    result = standing(scores, ladder, forfeits)
    steps = []
    for index, score in enumerate(scores):
        game = next((g for g in games if g.index == index), None)
        if game is None:
            why = " (not played: a forfeit ended the series)"
        elif game.forfeit is not None:
            why = f" (forfeited: {game.forfeit.reason})"
        else:
            why = ""
        steps.append(f"deal {index + 1}: {format_score(score)}{why}")
    steps.append(mean_line(result))
    return {
        "points": [round(result.mean, 1)],
        "game_wins": [sum(1 for game in games if 0 in game.winners)],
        "winner": None,
        "deal_scores": scores,
        "forfeits": forfeits,
        "mean": result.mean,
        "low": result.low,
        "high": result.high,
        "title": result.title,
        "steps": steps,
    }


def mean_line(result: Standing) -> str:
    """Return the line that states a standing: the mean, its interval and the title earned."""
    line = (
        f"mean {result.mean:.2f} over {result.games} deals, 95 % interval "
        f"{result.low:.2f} to {result.high:.2f} (± {result.margin:.2f})"
    )
    return f"{line}: {result.title}" if result.title else f"{line}: no title"
