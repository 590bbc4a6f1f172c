"""Record finished series exactly once: games, series points, TrueSkill ratings and their history.

A delivery (:func:`record_series_result`, the ``platform`` queue's task) does
two things. It puts the result in the season's inbox, :class:`PendingResult`,
unique per series, and commits: from then on the result cannot be lost, and a
second delivery of the same series is refused by the unique constraint or, once
applied, by the series' ``done`` state. Then it applies the season's inbox
(:func:`apply_pending`): whoever holds the season row's lock takes every
pending result of the season, oldest first, applies them in one transaction
(bulk inserts and bulk updates, a handful of statements per batch instead of
a dozen per result) and deletes them. Every delivery by task takes this road,
in process (the embedded default, tests) as with a broker.

A drain of the match workers' results stream (arena.results.inflow) records
its batch with :func:`record_many` instead, on the same lock and inbox: it
applies each season's share at once when the lock is free, skipping the
inbox's insert, delete and second parse, and puts it in the inbox otherwise.
A single delivery does not skip the inbox: its insert is what refuses a
second delivery of a result still waiting there, so the first delivery wins
and the task can say whether it brought the result.

Only one transaction at a time holds a season's lock (``FOR NO KEY UPDATE``
on the season row, as the matchmaker and the seeding of new versions take
it too), so the rating updates
of a season are applied one after another whatever the number of platform
workers. A delivery that finds the lock taken leaves its result to the holder:
the holder looks at the inbox again after it commits, and the result was
committed before the delivery tried the lock, so the holder sees it.

A solo season's series (one player, a score ladder) are recorded the same
way, games and seat included, but rate nobody: its standings are computed from
the recorded results (arena.series.score_ladder).

A team game's series (engines/teams.py) rates the players' team against the
GM (arena.ratings.ranking.rate_teams) from which side won more games; each
version is rated per role (``Rating.role``), and the engine's built-in GM,
when it took the GM's part, sits at its declared fixed rating and is never
stored. The players' ratings also count the games played and the turns of
the games their team won (the win rate and turns to win of a season without
GM bots).

The result goes to the append-only :class:`SeriesResultLog` in the same
transaction, in the order its ratings moved, so the log's id order is the
rating order and :func:`recompute_season` replays it to the same numbers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, ClassVar

from django.db import connection, models, transaction
from django.utils import timezone
from psycopg.types.json import Jsonb

import engines
from arena.ratings.closed_form import TrueSkillParameters
from arena.ratings.models import Rating, RatingHistory
from arena.ratings.ranking import ranks_from_points, rate_ranking, rate_teams
from arena.results.forfeits import (
    FORFEIT_MIN_SERIES,
    FORFEIT_THRESHOLD,
    disable_for_forfeits,
    forfeit_by,
    should_disable,
)
from arena.results.signals import series_recorded
from arena.seasons.models import RECORD_FIELDS, Season
from arena.series.models import GameRecord, PendingResult, Series, SeriesResultLog, SeriesSeat, SeriesState
from engines import kinds, teams
from engines.declaration import MU, SIGMA, RatingConstants
from engines.result import ResultFormatError, SeriesResult
from engines.teams import GM, PLAYER

logger = logging.getLogger(__name__)

#: A version's rating counts as provisional until it has played this many series.
PROVISIONAL_SERIES = 10
#: Inserts of at least this many rows go by COPY on PostgreSQL.
COPY_FROM_ROWS = 20
#: Results applied in one transaction at most; the rest wait for the next batch.
BATCH_SIZE = 500
#: States a result may still be recorded in. A failed series (swept too often) still takes its
#: late result: a result is never thrown away. A cancelled one does not: the operator said so.
RECORDABLE = (SeriesState.QUEUED, SeriesState.RUNNING, SeriesState.FAILED)


#: The rating constants of a season whose game this installation no longer registers.
UNREGISTERED_GAME_RATING = RatingConstants(draw_probability=0.10)


def season_parameters(season: Season) -> TrueSkillParameters:
    """Return the TrueSkill constants of ``season``: its game's declaration, as a local round robin's.

    The one road from a season to its constants: every platform reader calls
    this, and the local round robin (workers/cli.py) reads the same declaration.
    """
    try:
        declared = engines.declaration(season.game).rating
    except engines.UnknownGameError:
        declared = UNREGISTERED_GAME_RATING
    return TrueSkillParameters(
        mu=MU,
        sigma=SIGMA,
        beta=declared.beta,
        tau=declared.tau,
        draw_probability=declared.draw_probability,
    )


def series_ranks(result: SeriesResult) -> list[int]:
    """Return each series player's rank (0 best, ties shared) from the result's series points."""
    return ranks_from_points(list(result.score.points))


def record_series_result(series_id: int, document: dict[str, Any]) -> bool:
    """Deliver a finished series' result document and apply its season's inbox.

    Return False when the series already has a result (recorded, or waiting in
    the inbox from an earlier delivery) or was cancelled, True when this
    delivery brought it. Raise ``Series.DoesNotExist`` for an unknown series.
    """
    season_id = _deliver(series_id, document)
    if season_id is None:
        if not Series.objects.filter(pk=series_id).exists():
            raise Series.DoesNotExist(f"there is no series {series_id}")
        return False
    apply_pending(season_id)
    return True


def _deliver(series_id: int, document: dict[str, Any]) -> int | None:
    """Put the result in its season's inbox in one statement; return the season, or None if it was not taken.

    Not taken: the series is done or cancelled, or the inbox has its result
    already (the unique series), or there is no such series. Outside a
    transaction the insert commits at once.
    """
    return deliver_many([(series_id, document)]).get(series_id)


def record_many(results: list[tuple[int, dict[str, Any]]]) -> int:
    """Record a batch of results drained from the results stream; return how many series they recorded.

    Each season's share is applied at once in one transaction when its lock is
    free, without passing through the inbox (no insert, delete and second
    parse of each document); when another transaction holds the lock, the
    share goes to the inbox first and the holder applies it after its commit,
    as for any delivery. Results of done, cancelled or unknown series change
    nothing. Everything is committed when this returns.
    """
    seasons = dict(Series.objects.filter(pk__in={series_id for series_id, _ in results}).values_list("pk", "season_id"))
    shares: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for series_id, document in results:
        if series_id in seasons:
            shares.setdefault(seasons[series_id], []).append((series_id, document))
    recorded = 0
    for season_id, share in sorted(shares.items()):
        with transaction.atomic():
            locked = _season_lock(season_id)
            if locked is not None:
                for start in range(0, len(share), BATCH_SIZE):
                    recorded += _apply_batch(locked, share[start : start + BATCH_SIZE])
        if locked is None:
            deliver_many(share)  # committed before the lock is tried again, so its holder sees it
        # As every holder of the lock does after its commit: whatever others delivered meanwhile.
        if PendingResult.objects.filter(season_id=season_id).exists():
            recorded += apply_pending(season_id)
    return recorded


def deliver_many(results: list[tuple[int, dict[str, Any]]]) -> dict[int, int]:
    """Put many results in their seasons' inboxes in one statement; return ``{series id: season id}`` of those taken.

    A delivery's one statement (:func:`_deliver` is a batch of one), and a
    drained batch whose season another transaction holds: a result is not
    taken when its series is done, cancelled or unknown, or its inbox holds it
    already. A series named twice in ``results`` is taken once, the first time.
    """
    unique: dict[int, dict[str, Any]] = {}
    for series_id, document in results:
        unique.setdefault(series_id, document)
    if not unique:
        return {}
    value = "CAST(v.result AS jsonb)" if connection.vendor == "postgresql" else "v.result"
    key = "CAST(v.series_id AS bigint)" if connection.vendor == "postgresql" else "v.series_id"
    rows = ", ".join(["(%s, %s)"] * len(unique))
    sql = (
        f"WITH v (series_id, result) AS (VALUES {rows}) "
        f"INSERT INTO {PendingResult._meta.db_table} (series_id, season_id, result, received_at) "
        f"SELECT s.id, s.season_id, {value}, %s FROM v JOIN {Series._meta.db_table} s ON s.id = {key} "
        "WHERE s.state NOT IN (%s, %s) ORDER BY s.id "
        "ON CONFLICT (series_id) DO NOTHING RETURNING series_id, season_id"
    )
    params: list[Any] = []
    for series_id, document in unique.items():
        params += [series_id, document.text if isinstance(document, EncodedJson) else json.dumps(document)]
    params += [connection.ops.adapt_datetimefield_value(timezone.now()), SeriesState.DONE, SeriesState.CANCELLED]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return dict(cursor.fetchall())


def apply_pending(season_id: int) -> int:
    """Apply the inbox of season ``season_id`` unless another transaction is applying it; return results applied."""
    applied = 0
    while True:
        with transaction.atomic():
            locked = _season_lock(season_id)
            if locked is None:
                return applied  # the holder of the lock applies ours after its own commit
            batch = _take_pending(season_id)
            if batch:
                applied += _apply_batch(locked, batch)
        # Committed. Anything delivered while we held the lock is in the inbox now: go round again.
        if not PendingResult.objects.filter(season_id=season_id).exists():
            return applied


def _take_pending(season_id: int) -> list[tuple[int, dict[str, Any]]]:
    """Delete and return the season's oldest pending results, at most BATCH_SIZE, as ``(series id, document)``."""
    table = PendingResult._meta.db_table
    sql = (
        f"DELETE FROM {table} WHERE id IN (SELECT id FROM {table} WHERE season_id = %s ORDER BY id LIMIT %s) "
        "RETURNING id, series_id, result"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [season_id, BATCH_SIZE])
        rows = sorted(cursor.fetchall())  # RETURNING keeps no order: delivery order is the id's
    return [(series_id, json.loads(result) if isinstance(result, str) else result) for _, series_id, result in rows]


def _season_lock(season_id: int) -> Season | None:
    """Return the season row locked by this transaction, or None when another transaction holds it.

    FOR NO KEY UPDATE, the season lock everywhere: it excludes the other holders
    but not the key-share lock an insert referencing the season takes, so a
    delivery's insert into the inbox never waits for a batch being applied.
    """
    return Season.objects.select_for_update(no_key=True, skip_locked=True).filter(pk=season_id).order_by().first()


def apply_all_pending() -> int:
    """Apply every season's inbox (the beat's safety net for a delivery that died before applying)."""
    seasons = PendingResult.objects.values_list("season_id", flat=True).distinct().order_by()
    return sum(apply_pending(season_id) for season_id in list(seasons))


@dataclass
class _Rating:
    """One rating row as a batch reads and changes it: plain values, written back in one statement."""

    pk: int | None  # None: not in the database yet
    mu: float
    sigma: float
    series_played: int
    won: int
    drawn: int
    lost: int
    series_points: Decimal
    game_wins: int
    forfeits: int
    games_played: int = 0
    win_turns: int = 0
    provisional: bool = True
    changed: bool = False
    disable_reason: str | None = None

    FIELDS: ClassVar[tuple[str, ...]] = (
        "mu",
        "sigma",
        *RECORD_FIELDS,
        "forfeits",
        "games_played",
        "win_turns",
        "provisional",
    )


@dataclass(frozen=True)
class _Seat:
    pk: int
    seat: int
    version_id: int
    sha256: str


class EncodedJson(dict[str, Any]):
    """A result document that also keeps the JSON text it was parsed from.

    The results stream brings each document as the match worker encoded it;
    the log stores that text as it is (by COPY) instead of encoding the
    document again, a tenth of the cost of recording a result.
    """

    text: str

    @classmethod
    def of(cls, document: dict[str, Any], text: str | bytes) -> EncodedJson:
        encoded = cls(document)
        encoded.text = text.decode() if isinstance(text, bytes) else text
        return encoded


@dataclass
class _Batch:
    season: Season
    params: TrueSkillParameters
    ratings: dict[tuple[int, str], _Rating] = field(default_factory=dict)  # by version id and role ("" but teams)
    logs: list[SeriesResultLog] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    history: list[RatingHistory] = field(default_factory=list)
    seats: list[tuple[Decimal, int, int, int]] = field(default_factory=list)  # points, game wins, rank, seat id
    done: list[int] = field(default_factory=list)
    started: dict[int, datetime] = field(default_factory=dict)  # series -> when its worker started it
    rejected: dict[int, tuple[str, str]] = field(default_factory=dict)  # series -> (state, reason)


def _apply_batch(season: Season, pending: list[tuple[int, dict[str, Any]]]) -> int:
    """Apply ``pending`` ``(series id, document)`` results in order, with a fixed number of statements."""
    # The series rows locked: an operator's cancel waits for this batch, or the batch for it.
    locked = Series.objects.select_for_update(no_key=True).filter(pk__in=[p[0] for p in pending])
    states = dict(locked.values_list("pk", "state"))
    seats_by_series: dict[int, list[_Seat]] = {}
    rows = SeriesSeat.objects.filter(series_id__in=list(states)).order_by("series_id", "seat")
    for pk, series_id, seat, version_id, sha256 in rows.values_list(
        "pk", "series_id", "seat", "version_id", "version__archive_sha256"
    ):
        seats_by_series.setdefault(series_id, []).append(_Seat(pk, seat, version_id, sha256))
    batch = _Batch(season=season, params=season_parameters(season))
    _load_ratings(batch, {seat.version_id for seats in seats_by_series.values() for seat in seats})
    for series_id, document in pending:
        if states.get(series_id) not in RECORDABLE:
            continue  # recorded or cancelled meanwhile: this delivery changes nothing
        seats = seats_by_series.get(series_id, [])
        result = _checked(series_id, seats, document, season.kind.min_seats)
        if isinstance(result, str):
            logger.warning("series %s: result not recorded: %s", series_id, result)
            batch.rejected[series_id] = (SeriesState.FAILED, f"result rejected: {result}")
        elif season.status == Season.Status.FINISHED:
            reason = f"{season.name} finished before the result arrived; its standings are final"
            batch.rejected[series_id] = (SeriesState.CANCELLED, reason)
        else:
            RANKINGS[season.kind.ranking].apply(batch, series_id, seats, result, document)
        if not isinstance(result, str) and (started := started_at(result)) is not None:
            batch.started[series_id] = started
        states[series_id] = SeriesState.DONE  # a second result of the same series in this batch is a duplicate
    _write(batch)
    return len(batch.done)


def started_at(result: SeriesResult) -> datetime | None:
    """Return when the match worker started the series (its result's ``started_at``), or None if it does not say."""
    value = result.started_at
    if value is None or not 0 < value < 1e11:
        return None
    return datetime.fromtimestamp(value, UTC)


def _checked(series_id: int, seats: list[_Seat], document: dict[str, Any], fewest: int) -> SeriesResult | str:
    """Return a delivered document as the series result it holds, or why it cannot be recorded.

    A document the type cannot read (engines/result.py) is refused, naming its first bad field,
    as is one whose players are not the series' seats: nothing recorded is unreadable.
    """
    try:
        result = SeriesResult.from_json(document)
    except ResultFormatError as exc:
        return f"series {series_id}: the result is malformed: {exc}"
    players = result.players
    if len(players) != len(seats) or len(seats) < fewest:
        return f"series {series_id}: the result has {len(players)} players for {len(seats)} seats"
    for seat, player in zip(seats, players, strict=True):
        if player.sha256 != seat.sha256:
            return f"series {series_id}: seat {seat.seat} ran {player.sha256}, not its version"
    return result


def _load_ratings(batch: _Batch, version_ids: set[int]) -> None:
    rows = Rating.objects.select_for_update(no_key=True).filter(season=batch.season, version_id__in=list(version_ids))
    names = ("version_id", "role", "pk", *_Rating.FIELDS[:-1])
    for version_id, role, *values in rows.values_list(*names):
        batch.ratings[version_id, role] = _Rating(*values)


def _rating(batch: _Batch, version_id: int, role: str = "") -> _Rating:
    """Return the version's rating (in ``role``, a team game's) in the batch; a first series starts from the default."""
    rating = batch.ratings.get((version_id, role))
    if rating is None:  # created when the batch is written, after a seed row for recompute and the chart
        params = batch.params
        rating = batch.ratings[version_id, role] = _Rating(None, params.mu, params.sigma, 0, 0, 0, 0, Decimal(0), 0, 0)
        batch.history.append(
            RatingHistory(
                season=batch.season, version_id=version_id, role=role, series=None, mu=params.mu, sigma=params.sigma
            )
        )
    return rating


def _log_games(
    batch: _Batch, series_id: int, seats: list[_Seat], result: SeriesResult, document: dict[str, Any]
) -> None:
    """Add the series' result document, as delivered, to the batch's log, and its games to the batch's game records."""
    batch.logs.append(SeriesResultLog(series_id=series_id, result=document))
    for game in result.games:
        winners = game.winners
        batch.games.append(
            GameRecord(
                series_id=series_id,
                index=game.index,
                winner_id=seats[winners[0]].version_id if len(winners) == 1 else None,
                reason=game.reason,
                moves=[game.stat(p, "moves", 0) for p in range(len(seats))],
                forfeit=None if game.forfeit is None else game.forfeit.to_json(),
            )
        )


def _apply_solo(
    batch: _Batch, series_id: int, seats: list[_Seat], result: SeriesResult, document: dict[str, Any]
) -> None:
    """Record a solo series: its log, games and seat (the mean score as points), and no rating.

    A forfeit voids nothing and disables nobody: the score ladder scores the
    forfeited game (engines/score_ladder.py).
    """
    _log_games(batch, series_id, seats, result, document)
    score = result.score
    (seat,) = seats
    batch.seats.append((Decimal(str(score.points[0])), score.game_wins[0], 0, seat.pk))
    batch.done.append(series_id)


def _apply_one(
    batch: _Batch, series_id: int, seats: list[_Seat], result: SeriesResult, document: dict[str, Any]
) -> None:
    ratings = [_rating(batch, seat.version_id) for seat in seats]
    score = result.score
    ranks = series_ranks(result)
    after = rate_ranking([(r.mu, r.sigma) for r in ratings], ranks, batch.params)
    _log_games(batch, series_id, seats, result, document)
    top_shared = ranks.count(0) > 1
    for player, (seat, rating, skill) in enumerate(zip(seats, ratings, after, strict=True)):
        points = Decimal(str(score.points[player]))
        side = teams.LOSS if ranks[player] else teams.DRAW if top_shared else teams.WIN
        forfeited = any(forfeit_by(game) == player for game in result.games)
        _tally(batch, series_id, seat, rating, skill, side, points, score.game_wins[player], forfeited)
        batch.seats.append((points, score.game_wins[player], ranks[player], seat.pk))
    batch.done.append(series_id)


def _tally(
    batch: _Batch,
    series_id: int,
    seat: _Seat,
    rating: _Rating,
    skill: tuple[float, float],
    side: int,
    points: Decimal,
    game_wins: int,
    forfeited: bool,
    role: str = "",
) -> None:
    """Count one rated series in ``rating``: its new ``skill``, its ``side`` (WIN, DRAW or LOSS), points and forfeit.

    A rating whose forfeit rate crosses the limit is disabled for the season,
    and the new skill joins the rating history.
    """
    mu, sigma = skill
    rating.mu, rating.sigma = mu, sigma
    rating.series_played += 1
    if side == teams.WIN:
        rating.won += 1
    elif side == teams.DRAW:
        rating.drawn += 1
    else:
        rating.lost += 1
    rating.series_points += points
    rating.game_wins += game_wins
    rating.forfeits += forfeited
    rating.provisional = rating.series_played < PROVISIONAL_SERIES
    rating.changed = True
    # The rate can only cross the limit with a forfeit, or on reaching the minimum count.
    if rating.disable_reason is None and (forfeited or rating.series_played == FORFEIT_MIN_SERIES):
        reason = should_disable(
            rating.forfeits, rating.series_played, threshold=FORFEIT_THRESHOLD, min_series=FORFEIT_MIN_SERIES
        )
        if reason is not None:
            rating.disable_reason = f"{reason} in {batch.season.name}"
    batch.history.append(
        RatingHistory(
            season=batch.season, version_id=seat.version_id, role=role, series_id=series_id, mu=mu, sigma=sigma
        )
    )


def team_roles(season: Season, seats: int) -> tuple[str, ...]:
    """Return the roles of a team season's series of ``seats`` seats: with a GM seat, or the built-in GM's config."""
    config = season.series_config(with_gm_bot=seats > season.players_per_series)
    return season.kind.seat_roles(seats, config) or ()


def builtin_gm_rating(season: Season) -> tuple[float, float]:
    """Return the fixed ``(mu, sigma)`` of a team game's built-in GM (never stored, never updated)."""
    rules = engines.declaration(season.game).teams
    assert rules is not None
    return rules.builtin_mu, rules.builtin_sigma


def _apply_team(
    batch: _Batch, series_id: int, seats: list[_Seat], result: SeriesResult, document: dict[str, Any]
) -> None:
    """Rate a team game's series: the player seats' team against the GM seat's version, or the built-in GM.

    The side that won more games wins the series; equal is a draw. Each side's
    versions record that result, their own series points (the engine's score),
    their side's game wins, the games played, and the players the turns of the
    games they won; a forfeit counts against its version as in any series.
    """
    roles = team_roles(batch.season, len(seats))
    games = result.games
    outcome = teams.series_result(games, roles)
    players_won, _drawn, gm_won = teams.series_sides(games, roles)
    ratings = [_rating(batch, seat.version_id, role) for seat, role in zip(seats, roles, strict=True)]
    team = [(r.mu, r.sigma) for r, role in zip(ratings, roles, strict=True) if role == PLAYER]
    gm_seat = roles.index(GM) if GM in roles else None
    gm_before = builtin_gm_rating(batch.season) if gm_seat is None else (ratings[gm_seat].mu, ratings[gm_seat].sigma)
    team_after, gm_after = rate_teams(team, gm_before, outcome, batch.params)
    after = iter(team_after)
    turns = sum(t for game in games if (t := teams.win_turns(game, roles)) is not None)
    _log_games(batch, series_id, seats, result, document)
    score = result.score
    for player, (seat, rating, role) in enumerate(zip(seats, ratings, roles, strict=True)):
        skill = next(after) if role == PLAYER else gm_after
        side = outcome if role == PLAYER else -outcome
        points = Decimal(str(score.points[player]))
        wins = players_won if role == PLAYER else gm_won
        rating.games_played += len(games)
        rating.win_turns += turns if role == PLAYER else 0
        forfeited = any(game.forfeit is not None and game.forfeit.player == player for game in games)
        _tally(batch, series_id, seat, rating, skill, side, points, wins, forfeited, role)
        rank = 0 if side != teams.LOSS else 1
        batch.seats.append((points, wins, rank, seat.pk))
    batch.done.append(series_id)


def _insert(model: type[models.Model], objects: list[models.Model]) -> None:
    """Insert ``objects`` in order; on PostgreSQL with COPY.

    Django's bulk_create sends PostgreSQL arrays (UNNEST), and quoting a result
    document into an array element cost more than everything else in a batch.
    COPY takes the rows as they are, and assigns ids in row order; for a few
    rows its extra round trips cost more than the quoting, so those go by INSERT.
    """
    if connection.vendor != "postgresql" or len(objects) < COPY_FROM_ROWS:
        model.objects.bulk_create(objects)
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key and not f.generated]
    now = timezone.now()
    for obj in objects:
        for f in fields:
            if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False):
                setattr(obj, f.attname, now)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    json_fields = {f.attname for f in fields if isinstance(f, models.JSONField)}
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {model._meta.db_table} ({columns}) FROM STDIN") as copy,
    ):
        for obj in objects:
            copy.write_row(
                [
                    _copy_json(value) if f.attname in json_fields else value
                    for f in fields
                    for value in (getattr(obj, f.attname),)
                ]
            )


def _copy_json(value: Any) -> Any:
    """What COPY writes for a JSON column: text already encoded as it is, anything else encoded now."""
    if value is None:
        return None
    if isinstance(value, EncodedJson):
        return value.text  # COPY's text format: the server parses it as the column's type
    return Jsonb(value)


def _write(batch: _Batch) -> None:
    # Log first, in rating order: its ids are the order recompute_season replays.
    _insert(SeriesResultLog, batch.logs)
    _insert(GameRecord, batch.games)
    _insert(RatingHistory, batch.history)
    changed = [r for r in batch.ratings.values() if r.changed and r.pk is not None]
    Rating.objects.bulk_create(
        Rating(
            season=batch.season, version_id=version_id, role=role, **{name: getattr(r, name) for name in _Rating.FIELDS}
        )
        for (version_id, role), r in batch.ratings.items()
        if r.pk is None
    )
    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        # Plain parameterised UPDATEs, sent together: Django's bulk_update builds a CASE per
        # field and row, which cost more than everything else in a batch.
        assignments = ", ".join(f"{name} = %s" for name in _Rating.FIELDS)
        cursor.executemany(
            f"UPDATE {Rating._meta.db_table} SET {assignments}, updated = %s WHERE id = %s",
            [(*(getattr(r, name) for name in _Rating.FIELDS[:-1]), r.provisional, now, r.pk) for r in changed],
        )
        cursor.executemany(
            f"UPDATE {SeriesSeat._meta.db_table} SET points = %s, game_wins = %s, rank = %s WHERE id = %s",
            batch.seats,
        )
    Series.objects.filter(pk__in=batch.done).update(
        state=SeriesState.DONE, finished_at=timezone.now(), failure_reason=""
    )
    if batch.started:
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {Series._meta.db_table} SET started_at = %s WHERE id = %s",
                [(ops.adapt_datetimefield_value(at), series_id) for series_id, at in batch.started.items()],
            )
    for series_id, (state, reason) in batch.rejected.items():
        Series.objects.filter(pk=series_id).update(state=state, failure_reason=reason[:2000])
    for (version_id, _role), rating in batch.ratings.items():
        if rating.disable_reason:
            disable_for_forfeits(version_id, rating.disable_reason)
    if batch.done or batch.rejected:
        season_id, settled = batch.season.pk, [*batch.done, *batch.rejected]
        transaction.on_commit(lambda: series_recorded.send(sender=Series, season_id=season_id, series_ids=settled))


def recompute_ratings(season: Season) -> dict[tuple[int, str], tuple[float, float]]:
    """Return every ``(version, role)``'s (μ, σ) from replaying the season's result log (role "" without roles)."""
    return RANKINGS[season.kind.ranking].recompute(season)


def _result_log(season: Season) -> Iterator[tuple[list[int], SeriesResult]]:
    """Yield each logged series of ``season`` in the order its ratings moved: its versions by seat, and its result."""
    seats: dict[int, list[int]] = {}
    for series_id, version_id in (
        SeriesSeat.objects.filter(series__season=season)
        .order_by("series_id", "seat")
        .values_list("series_id", "version_id")
    ):
        seats.setdefault(series_id, []).append(version_id)
    for series_id, result in (
        SeriesResultLog.objects.filter(series__season=season).order_by("id").values_list("series_id", "result")
    ):
        yield seats[series_id], SeriesResult.from_json(result)


def recompute_season(season: Season) -> dict[int, tuple[float, float]]:
    """Return every version's (μ, σ) from replaying a season rated on one leaderboard from its seeds."""
    if season.kind.ranking != kinds.RATED:
        raise ValueError(f"{season.name} is not rated on one leaderboard: use recompute_ratings")
    params = season_parameters(season)
    seeds = {
        row.version_id: (row.mu, row.sigma)
        for row in RatingHistory.objects.filter(season=season, series=None).order_by("id")
    }
    ratings = dict(seeds)
    # One series at a time from the (μ, σ) pairs, exactly as recording stores them.
    for versions, result in _result_log(season):
        before = [ratings.get(v, (params.mu, params.sigma)) for v in versions]
        ranks = series_ranks(result)
        for version, rating in zip(versions, rate_ranking(before, ranks, params), strict=True):
            ratings[version] = rating
    return ratings


def recompute_team_season(season: Season) -> dict[tuple[int, str], tuple[float, float]]:
    """Return every ``(version, role)``'s (μ, σ) from replaying a team season's result log from its seeds."""
    params = season_parameters(season)
    ratings = {
        (row.version_id, row.role): (row.mu, row.sigma)
        for row in RatingHistory.objects.filter(season=season, series=None).order_by("id")
    }
    for versions, result in _result_log(season):
        roles = team_roles(season, len(versions))
        keys = list(zip(versions, roles, strict=True))
        team = [ratings.get(key, (params.mu, params.sigma)) for key in keys if key[1] == PLAYER]
        gm_key = next((key for key in keys if key[1] == GM), None)
        gm = builtin_gm_rating(season) if gm_key is None else ratings.get(gm_key, (params.mu, params.sigma))
        played = result.games
        team_after, gm_after = rate_teams(team, gm, teams.series_result(played, roles), params)
        for key, rating in zip([key for key in keys if key[1] == PLAYER], team_after, strict=True):
            ratings[key] = rating
        if gm_key is not None:
            ratings[gm_key] = gm_after
    return ratings


def _recompute_rated(season: Season) -> dict[tuple[int, str], tuple[float, float]]:
    return {(version, ""): rating for version, rating in recompute_season(season).items()}


def _recompute_unrated(season: Season) -> dict[tuple[int, str], tuple[float, float]]:
    return {}  # a season on the score ladder rates nobody


@dataclass(frozen=True)
class Ranking:
    """How the results of a season are recorded and its ratings replayed, for one ranking of engines/kinds.py."""

    #: (batch, series id, seats, document) -> the series' result added to the batch.
    apply: Callable[[_Batch, int, list[_Seat], SeriesResult, dict[str, Any]], None]
    #: season -> every (version, role)'s (μ, σ) replayed from the result log.
    recompute: Callable[[Season], dict[tuple[int, str], tuple[float, float]]]


#: The ratings layer's table of the kinds of game, keyed by their ranking (engines/kinds.py).
RANKINGS: dict[str, Ranking] = {
    kinds.RATED: Ranking(apply=_apply_one, recompute=_recompute_rated),
    kinds.RATED_PER_ROLE: Ranking(apply=_apply_team, recompute=recompute_team_season),
    kinds.SCORE_LADDER: Ranking(apply=_apply_solo, recompute=_recompute_unrated),
}
