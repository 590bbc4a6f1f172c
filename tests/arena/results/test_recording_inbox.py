"""The recorder's inbox: deliveries queue, batches apply in order, any number of seats, nothing twice or lost.

Documents here are hand-made in the referee's shape (workers/referee.py, completed
by tests/results.py), so the tests need no sandbox; tests/arena/results/test_recording.py
records real sandboxed series.
"""

from __future__ import annotations

import threading
from decimal import Decimal
from typing import Any

import pytest
import trueskill
from django.db import connection, transaction
from django.utils import timezone

from arena.bots.models import BotVersion
from arena.ops.status import failed_since
from arena.ratings.models import Rating, RatingHistory
from arena.ratings.ranking import ranks_from_points, rate_ranking
from arena.results import recording
from arena.results.recording import apply_pending, recompute_season, record_series_result, season_parameters
from arena.seasons.models import Season
from arena.series.models import GameRecord, PendingResult, Series, SeriesResultLog, SeriesState
from tests.results import result_document

pytestmark = pytest.mark.django_db


def document(versions: list[BotVersion], points: list[float], forfeit_by: int | None = None) -> dict[str, Any]:
    """A result document for ``versions`` in seat order, scored ``points`` (one game per seat, rotating seats)."""
    players = len(versions)
    games = []
    for index in range(players):
        seats = [(s + index) % players for s in range(players)]
        forfeit = None
        if forfeit_by is not None and index == 0:
            forfeit = {"player": forfeit_by, "seat": seats.index(forfeit_by), "reason": "illegal_action", "detail": "x"}
        games.append(
            {
                "index": index,
                "seats": seats,
                "winners": [seats[0]],
                "reason": forfeit["reason"] if forfeit else "timer",
                "forfeit": forfeit,
                "stats": {str(p): {"moves": 3 + p} for p in range(players)},
            }
        )
    return result_document(
        players=[{"name": v.bot.name, "sha256": v.archive_sha256} for v in versions],
        games=games,
        score={"points": points, "game_wins": [int(p) for p in points], "winner": None},
    )


def new_series(season: Season, versions: list[BotVersion], seed: int = 1) -> Series:
    series = Series.objects.create(season=season, seed=seed)
    for seat, version in enumerate(versions):
        series.seats.create(seat=seat, version=version)
    return series


def ratings_of(season: Season) -> dict[int, tuple[float, float]]:
    return {r.version_id: (r.mu, r.sigma) for r in Rating.objects.filter(season=season)}


def test_a_delivery_fills_in_the_seats_points_game_wins_and_ranks(running: Season, field: list[BotVersion]) -> None:
    series = new_series(running, field[:2])
    assert record_series_result(series.pk, document(field[:2], [1.5, 0.5]))
    seats = list(series.seats.order_by("seat").values_list("points", "game_wins", "rank"))
    assert seats == [(Decimal("1.5"), 1, 0), (Decimal("0.5"), 0, 1)]
    series.refresh_from_db()
    assert series.state == SeriesState.DONE
    assert series.result["score"]["points"] == [1.5, 0.5]  # stored once, in the log
    assert not PendingResult.objects.exists()


def test_pending_results_apply_in_one_batch_in_delivery_order(
    running: Season, field: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    pairs = [(0, 1, [2.0, 0.0]), (2, 3, [1.0, 1.0]), (0, 2, [0.5, 1.5]), (1, 3, [0.0, 2.0]), (0, 3, [1.0, 1.0])]
    delivered = []
    for a, b, points in pairs:  # deliveries whose own apply found the lock taken: only the inbox has them
        series = new_series(running, [field[a], field[b]])
        PendingResult.objects.create(series=series, season=running, result=document([field[a], field[b]], points))
        delivered.append(series.pk)
    monkeypatch.setattr(recording, "BATCH_SIZE", 2)  # three transactions: 2 + 2 + 1
    assert apply_pending(running.pk) == 5
    assert list(SeriesResultLog.objects.order_by("id").values_list("series_id", flat=True)) == delivered
    # The same numbers as one series at a time, in delivery order:
    params = season_parameters(running)
    expected: dict[int, tuple[float, float]] = {}
    for a, b, points in pairs:
        ids = [field[a].pk, field[b].pk]
        before = [expected.get(i, (params.mu, params.sigma)) for i in ids]
        for i, rating in zip(ids, rate_ranking(before, ranks_from_points(points), params), strict=True):
            expected[i] = rating
    assert ratings_of(running) == expected == recompute_season(running)
    ann = Rating.objects.get(season=running, version=field[0])
    assert (ann.series_played, ann.won, ann.drawn, ann.lost, ann.series_points) == (3, 1, 1, 1, Decimal("3.5"))
    assert not PendingResult.objects.exists()


def test_a_second_delivery_of_a_waiting_result_is_refused(running: Season, field: list[BotVersion]) -> None:
    series = new_series(running, field[:2])
    PendingResult.objects.create(series=series, season=running, result=document(field[:2], [2.0, 0.0]))
    with transaction.atomic():
        Season.objects.select_for_update(no_key=True).get(pk=running.pk)
        assert record_series_result(series.pk, document(field[:2], [2.0, 0.0])) is False
    assert PendingResult.objects.count() == 1
    assert apply_pending(running.pk) == 1
    assert record_series_result(series.pk, document(field[:2], [2.0, 0.0])) is False  # and once done
    assert SeriesResultLog.objects.filter(series=series).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_delivery_while_another_worker_applies_is_left_to_that_worker(
    running: Season, field: list[BotVersion]
) -> None:
    series = new_series(running, field[:2])
    locked, release = threading.Event(), threading.Event()

    def other_worker() -> None:
        try:
            with transaction.atomic():
                Season.objects.select_for_update(no_key=True).get(pk=running.pk)  # as apply_pending takes it
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=other_worker)
    thread.start()
    assert locked.wait(10)
    try:
        assert record_series_result(series.pk, document(field[:2], [0.0, 2.0]))  # accepted ...
        series.refresh_from_db()
        assert series.state == SeriesState.QUEUED  # ... but not applied: the lock is taken, and it did not wait
        assert PendingResult.objects.filter(series=series).exists()
    finally:
        release.set()
        thread.join()
    assert apply_pending(running.pk) == 1  # what the holder does after its commit
    series.refresh_from_db()
    assert series.state == SeriesState.DONE


def test_a_cancelled_series_takes_no_result(running: Season, field: list[BotVersion]) -> None:
    cancelled = new_series(running, field[:2])
    Series.objects.filter(pk=cancelled.pk).update(state=SeriesState.CANCELLED, failure_reason="operator")
    assert record_series_result(cancelled.pk, document(field[:2], [2.0, 0.0])) is False
    waiting = new_series(running, field[:2], seed=2)
    PendingResult.objects.create(series=waiting, season=running, result=document(field[:2], [2.0, 0.0]))
    Series.objects.filter(pk=waiting.pk).update(state=SeriesState.CANCELLED)  # cancelled while in the inbox
    assert apply_pending(running.pk) == 0
    assert not SeriesResultLog.objects.exists()
    assert not Rating.objects.exists()
    assert not PendingResult.objects.exists()


@pytest.mark.parametrize(
    ("spoil", "named"),
    [
        (lambda d: d["games"][0].pop("reason"), "result.games[0].reason is missing"),
        (lambda d: d["score"].update(points="2-0"), "result.score.points must be a list, not '2-0'"),
        (lambda d: d.pop("protocol"), "result.protocol is missing"),
        (lambda d: d["games"][1]["forfeit"].update(player="ann"), "result.games[1].forfeit.player must be an integer"),
    ],
)
def test_a_result_the_type_cannot_read_is_refused_by_field_and_nothing_of_it_is_stored(
    running: Season, field: list[BotVersion], spoil: Any, named: str
) -> None:
    started = timezone.now()
    bad, good = new_series(running, field[:2]), new_series(running, field[2:])
    spoilt = document(field[:2], [2.0, 0.0], forfeit_by=1)
    spoilt["games"][1]["forfeit"] = dict(spoilt["games"][0]["forfeit"])
    spoil(spoilt)
    PendingResult.objects.create(series=bad, season=running, result=spoilt)
    PendingResult.objects.create(series=good, season=running, result=document(field[2:], [2.0, 0.0]))

    assert apply_pending(running.pk) == 1  # the good one; the spoilt one is settled as failed

    bad.refresh_from_db()
    assert bad.state == SeriesState.FAILED
    assert bad.failure_reason.startswith(f"result rejected: series {bad.pk}: the result is malformed: {named}")
    assert bad.result is None
    assert not GameRecord.objects.filter(series=bad).exists()
    assert not Rating.objects.filter(season=running, version__in=field[:2]).exists()
    assert Series.objects.get(pk=good.pk).state == SeriesState.DONE
    failed = failed_since(started)
    assert failed["count"] == 1
    assert failed["latest"][0]["reason"] == bad.failure_reason
    assert not PendingResult.objects.exists()


def test_a_result_for_a_finished_season_leaves_the_standings_alone(running: Season, field: list[BotVersion]) -> None:
    played = new_series(running, field[:2])
    record_series_result(played.pk, document(field[:2], [2.0, 0.0]))
    late = new_series(running, field[:2], seed=2)
    running.transition(Season.Status.FINISHED)
    before = ratings_of(running)
    assert record_series_result(late.pk, document(field[:2], [0.0, 2.0]))
    late.refresh_from_db()
    assert late.state == SeriesState.CANCELLED
    assert late.failure_reason == f"{running.name} finished before the result arrived; its standings are final"
    assert ratings_of(running) == before


def test_a_late_result_of_a_failed_series_still_counts(running: Season, field: list[BotVersion]) -> None:
    series = new_series(running, field[:2])
    Series.objects.filter(pk=series.pk).update(state=SeriesState.FAILED, failure_reason="swept 3 times")
    assert record_series_result(series.pk, document(field[:2], [2.0, 0.0]))
    series.refresh_from_db()
    assert (series.state, series.failure_reason) == (SeriesState.DONE, "")


def test_four_seats_are_rated_from_their_ranking_with_ties(running: Season, field: list[BotVersion]) -> None:
    series = new_series(running, field)
    assert record_series_result(series.pk, document(field, [2.0, 1.0, 1.0, 0.0]))
    params = season_parameters(running)
    env = trueskill.TrueSkill(
        mu=params.mu, sigma=params.sigma, beta=params.beta, tau=params.tau, draw_probability=params.draw_probability
    )
    expected = env.rate([(env.create_rating(),)] * 4, ranks=[0, 1, 1, 2])  # the package itself
    stored = ratings_of(running)
    for version, (rating,) in zip(field, expected, strict=True):
        assert stored[version.pk] == pytest.approx((rating.mu, rating.sigma), abs=1e-12)
    rows = {r.version_id: r for r in Rating.objects.filter(season=running)}
    records = [(rows[v.pk].won, rows[v.pk].drawn, rows[v.pk].lost) for v in field]
    assert records == [(1, 0, 0), (0, 0, 1), (0, 0, 1), (0, 0, 1)]  # only a shared top is a draw
    assert list(series.seats.order_by("seat").values_list("rank", flat=True)) == [0, 1, 1, 3]  # 1224 ranking
    assert GameRecord.objects.filter(series=series).count() == 4
    assert RatingHistory.objects.filter(series=series).count() == 4
    shared = new_series(running, field[:3], seed=2)
    record_series_result(shared.pk, document(field[:3], [1.0, 1.0, 1.0]))  # everyone level: a draw for all
    assert [Rating.objects.get(season=running, version=v).drawn for v in field[:3]] == [1, 1, 1]
    assert recompute_season(running) == ratings_of(running)


def test_a_free_for_all_the_package_cannot_rate_falls_back_to_neighbour_pairs() -> None:
    params = season_parameters(Season(game="watch_race"))
    before = [(500.0, 1.0), (0.0, 1.0), (0.0, 1.0), (-500.0, 1.0)]
    ranks = [3, 2, 1, 0]  # the huge favourite last: the package raises FloatingPointError here
    with pytest.raises(FloatingPointError):
        params.to_env().rate([(trueskill.Rating(mu, sigma),) for mu, sigma in before], ranks=ranks)
    after = rate_ranking(before, ranks, params)
    chain = list(before)
    for upper, lower in ((3, 2), (2, 1), (1, 0)):  # first against second, second against third ...
        try:
            chain[upper], chain[lower] = rate_ranking([chain[upper], chain[lower]], [0, 1], params)
        except FloatingPointError:
            continue
    assert after == chain
    assert after != before  # the series still moved the ratings it could


def test_forfeits_are_counted_on_the_rating_row(running: Season, field: list[BotVersion]) -> None:
    for seed in range(3):
        series = new_series(running, field[:2], seed=seed)
        record_series_result(series.pk, document(field[:2], [0.0, 2.0], forfeit_by=0 if seed < 2 else None))
    rows = {r.version_id: r for r in Rating.objects.filter(season=running)}
    assert (rows[field[0].pk].forfeits, rows[field[0].pk].series_played) == (2, 3)
    assert rows[field[1].pk].forfeits == 0


def test_the_beat_applies_results_a_dead_delivery_left_in_the_inbox(running: Season, field: list[BotVersion]) -> None:
    from arena.results.tasks import apply_pending_results_task

    series = new_series(running, field[:2])
    PendingResult.objects.create(series=series, season=running, result=document(field[:2], [2.0, 0.0]))
    assert apply_pending_results_task() == 1
    series.refresh_from_db()
    assert series.state == SeriesState.DONE
    assert apply_pending_results_task() == 0


def test_with_a_broker_the_task_records_a_result_as_it_does_in_process(
    running: Season, field: list[BotVersion], monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.results.tasks import record_series_result_task

    monkeypatch.setitem(record_series_result_task.app.conf, "task_always_eager", False)
    series = new_series(running, field[:2])
    outcome = {"series_id": series.pk, "result": document(field[:2], [2.0, 0.0])}

    assert record_series_result_task(outcome) is True
    series.refresh_from_db()
    assert series.state == SeriesState.DONE  # applied on arrival: no apply task queued for later
    assert not PendingResult.objects.exists()
    assert record_series_result_task(outcome) is False
    with pytest.raises(Series.DoesNotExist):
        record_series_result_task({"series_id": 999_999, "result": outcome["result"]})
