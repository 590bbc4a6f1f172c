"""Head-to-head sums: how each bot's done series went against each opponent bot, summed once, read in a few rows.

The bot page's head-to-head table (arena.web.head_to_head) reads these sums
and adds what the ratings say; who plays whom next is another matter
(arena.matchmaking.pairing).

A pairing is one of a bot's seats in a done series with another seat of that
series. The bot did better (1), as well (0) or worse (-1) by rank (0 is the
best, ties share a rank), or by points when either rank is missing; a pairing
with neither is not counted. A series with two versions of one bot in it
counts for that bot against nobody. Series of exactly two seats are duels too.

:func:`fold` adds newly done series to :class:`~arena.series.models.PairRecord`
(a beat task runs it every ``ARENA_FOLD_INTERVAL_S``) and marks them
``folded`` in the same transaction; :func:`records_of` returns a bot's sums as
the folded rows plus its done series not folded yet, in one statement, so a
page sees one snapshot and counts every series exactly once. Recording a
result does none of this work: the recorder's throughput is untouched.
"""

from __future__ import annotations

from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from arena.bots.models import Bot, BotVersion
from arena.series.models import PairRecord, Series, SeriesSeat, SeriesState

#: Series folded per transaction; a backlog (a ladder upgraded to this, or a burst) takes several.
FOLD_BATCH = 5000
COUNTS = ("won", "drawn", "lost", "duel_series", "duel_won", "duel_drawn")


def _pairings(where: str) -> str:
    """SQL of every pairing of the done series that ``where`` (on ``series`` and ``my_version``) selects.

    Columns: season_id, bot, opponent, outcome (1, 0, -1; never NULL), seats.
    """
    seat, version, series = SeriesSeat._meta.db_table, BotVersion._meta.db_table, Series._meta.db_table
    return f"""
        SELECT series.season_id AS season_id, my_version.bot_id AS bot, their_version.bot_id AS opponent,
               CASE
                   WHEN mine.rank IS NOT NULL AND theirs.rank IS NOT NULL THEN
                       CASE WHEN mine.rank < theirs.rank THEN 1 WHEN mine.rank = theirs.rank THEN 0 ELSE -1 END
                   ELSE
                       CASE WHEN mine.points > theirs.points THEN 1 WHEN mine.points = theirs.points THEN 0
                            WHEN mine.points < theirs.points THEN -1 END
               END AS outcome,
               (SELECT COUNT(*) FROM {seat} every WHERE every.series_id = series.id) AS seats
        FROM {series} series
        JOIN {seat} mine ON mine.series_id = series.id
        JOIN {version} my_version ON my_version.id = mine.version_id
        JOIN {seat} theirs ON theirs.series_id = series.id AND theirs.id <> mine.id
        JOIN {version} their_version ON their_version.id = theirs.version_id
        WHERE series.state = %s AND ({where})
          AND (SELECT COUNT(*) FROM {seat} own JOIN {version} own_version ON own_version.id = own.version_id
               WHERE own.series_id = series.id AND own_version.bot_id = my_version.bot_id) = 1
    """


def _summed(pairings: str) -> str:
    """SQL summing ``pairings`` per season, bot and opponent into the columns of COUNTS."""
    return f"""
        SELECT season_id, bot, opponent,
               SUM(CASE WHEN outcome > 0 THEN 1 ELSE 0 END) AS won,
               SUM(CASE WHEN outcome = 0 THEN 1 ELSE 0 END) AS drawn,
               SUM(CASE WHEN outcome < 0 THEN 1 ELSE 0 END) AS lost,
               SUM(CASE WHEN seats = 2 THEN 1 ELSE 0 END) AS duel_series,
               SUM(CASE WHEN seats = 2 AND outcome > 0 THEN 1 ELSE 0 END) AS duel_won,
               SUM(CASE WHEN seats = 2 AND outcome = 0 THEN 1 ELSE 0 END) AS duel_drawn
        FROM ({pairings}) pairings
        WHERE outcome IS NOT NULL
        GROUP BY season_id, bot, opponent
    """


class OpponentRecord(NamedTuple):
    """A bot's sums against one opponent bot in one season, as :func:`records_of` returns them."""

    season_id: int
    opponent_id: int
    opponent: str
    owner: str
    won: int
    drawn: int
    lost: int
    duel_series: int
    duel_won: int
    duel_drawn: int
    opponents: int  # how many opponents the bot met in that season, shown or not


def records_of(bot_id: int, limit: int | None = None) -> list[OpponentRecord]:
    """Return the bot's sums per season and opponent; with ``limit``, each season's most played only.

    The most played come first, the longest-registered opponent among equals.
    One statement: the folded sums and the done series not folded yet, added
    up, as one snapshot (a fold committing meanwhile changes nothing), cut to
    ``limit`` and then named in the database.
    """
    table = PairRecord._meta.db_table
    bots, users = Bot._meta.db_table, get_user_model()._meta.db_table
    tail = _summed(_pairings("series.folded = %s AND my_version.bot_id = %s"))
    sums = ", ".join(f"SUM({name}) AS {name}" for name in COUNTS)
    columns = ", ".join(COUNTS)
    sql = f"""
        SELECT placed.season_id, placed.opponent, opponent.name, owner.username, {columns}, opponents
        FROM (
            SELECT sums.*,
                   COUNT(*) OVER (PARTITION BY season_id) AS opponents,
                   ROW_NUMBER() OVER (PARTITION BY season_id ORDER BY won + drawn + lost DESC, opponent) AS place
            FROM (
                SELECT season_id, opponent, {sums} FROM (
                    SELECT season_id, opponent_id AS opponent, {columns} FROM {table} WHERE bot_id = %s
                    UNION ALL
                    SELECT season_id, opponent, {columns} FROM ({tail}) tail
                ) everything
                GROUP BY season_id, opponent
            ) sums
        ) placed
        JOIN {bots} opponent ON opponent.id = placed.opponent
        JOIN {users} owner ON owner.id = opponent.owner_id
        WHERE place <= %s
        ORDER BY placed.season_id, place
    """
    with connection.cursor() as cursor:
        cursor.execute(_compact(sql), [bot_id, SeriesState.DONE, False, bot_id, limit if limit is not None else 2**62])
        return [
            OpponentRecord(season, opponent, name, owner, *(int(count) for count in counts), int(opponents))
            for season, opponent, name, owner, *counts, opponents in cursor.fetchall()
        ]


def _compact(sql: str) -> str:
    """``sql`` on one line: psycopg parses a short statement once and a long one every time (docs/benchmarks.md)."""
    return " ".join(sql.split())


def fold(limit: int = FOLD_BATCH) -> int:
    """Add up to ``limit`` done series not folded yet to the pair records; return how many.

    The series are locked (skipped if another fold holds them), summed, added
    and marked folded in one transaction: each is counted once, whatever
    crashes or runs twice.
    """
    with transaction.atomic():
        chosen = Series.objects.filter(state=SeriesState.DONE, folded=False).order_by("id")
        if connection.features.has_select_for_update_skip_locked:
            chosen = chosen.select_for_update(skip_locked=True, of=("self",))
        ids = list(chosen.values_list("id", flat=True)[:limit])
        if not ids:
            return 0
        marks = ", ".join(["%s"] * len(ids))
        summed = _summed(_pairings(f"series.id IN ({marks})"))
        table = PairRecord._meta.db_table
        columns = ", ".join(COUNTS)
        added = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in COUNTS)
        with connection.cursor() as cursor:
            # WHERE true: SQLite needs it to tell an upsert's ON CONFLICT from a join's ON.
            cursor.execute(
                f"INSERT INTO {table} (season_id, bot_id, opponent_id, {columns}) "
                f"SELECT season_id, bot, opponent, {columns} FROM ({summed}) summed WHERE true "
                f"ON CONFLICT (bot_id, season_id, opponent_id) DO UPDATE SET {added}",
                [SeriesState.DONE, *ids],
            )
        Series.objects.filter(pk__in=ids).update(folded=True)
    return len(ids)


def fold_all(limit: int = FOLD_BATCH) -> int:
    """Fold until no done series is left unfolded; return how many were folded."""
    total = 0
    while True:
        folded = fold(limit)
        total += folded
        if folded < limit:
            return total
