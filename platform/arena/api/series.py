"""Series, their games and replays for everyone; a bot's stderr log for its owner and staff only.

The result document's ``stderr`` entries are private: the replay endpoint
returns the document without them, and the log endpoint returns one player's
entry after checking who asks. In a game with hidden information the replay
gives everyone but staff each hidden move in public words with a null action
id, as the site's download does: arena.web.access decides, for both.
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, viewsets
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.filters import choice_filter, choice_param, id_filter, id_param
from arena.api.schema import ArenaAutoSchema
from arena.api.serializers import (
    GameRecordSerializer,
    LogSerializer,
    SeriesDetailSerializer,
    SeriesSerializer,
    can_see_private,
)
from arena.api.viewsets import ArenaViews
from arena.series.models import GameRecord, Series, SeriesSeat, SeriesState
from arena.web.access import public_document
from engines.result import SeriesResult

SERIES_ID = OpenApiParameter("id", OpenApiTypes.INT64, "path", description="the series' id")


def series_with_seats() -> QuerySet[Series]:
    """Return series with their season and seats (versions, bots, owners) loaded: two queries per page."""
    seats = SeriesSeat.objects.select_related("version__bot__owner").order_by("seat")
    return Series.objects.select_related("season").prefetch_related(Prefetch("seats", queryset=seats))


def recorded_series(series_id: int) -> Series:
    """Return the series with a recorded result; 404 saying what it is waiting for otherwise."""
    series = get_object_or_404(Series.objects.select_related("result_log"), pk=series_id)
    if series.result is None:
        raise NotFound(f"series {series.pk} is {series.state} and has no recorded result yet")
    return series


@extend_schema_view(
    list=extend_schema(
        summary="Series, newest first",
        parameters=[
            id_filter("season", "only this season's series"),
            id_filter("version", "only series this bot version played"),
            id_filter("bot", "only series a version of this bot played"),
            choice_filter("state", SeriesState.values, "only series in this state"),
        ],
    ),
    retrieve=extend_schema(summary="One series with its seats, games and score"),
)
class SeriesViewSet(ArenaViews, viewsets.ReadOnlyModelViewSet):
    """Series: a match of several games between the versions in its seats."""

    def get_serializer_class(self) -> type[SeriesSerializer]:
        return SeriesDetailSerializer if self.action == "retrieve" else SeriesSerializer

    def get_queryset(self) -> QuerySet[Series]:
        series = series_with_seats().order_by("-created", "-id")
        if self.action == "retrieve":
            games = GameRecord.objects.order_by("index")
            return series.select_related("result_log").prefetch_related(Prefetch("games", queryset=games))
        return self._filtered(series)

    def _filtered(self, series: QuerySet[Series]) -> QuerySet[Series]:
        season = id_param(self.request, "season")
        if season is not None:
            series = series.filter(season_id=season)
        version = id_param(self.request, "version")
        if version is not None:
            series = series.filter(pk__in=SeriesSeat.objects.filter(version_id=version).values("series_id"))
        bot = id_param(self.request, "bot")
        if bot is not None:
            series = series.filter(pk__in=SeriesSeat.objects.filter(version__bot_id=bot).values("series_id"))
        state = choice_param(self.request, "state", SeriesState.values)
        if state:
            series = series.filter(state=state)
        return series


@extend_schema(summary="The games of a series, in order", parameters=[SERIES_ID])
class SeriesGamesView(generics.ListAPIView):
    """The recorded games of one series (empty until it is recorded)."""

    schema = ArenaAutoSchema()

    serializer_class = GameRecordSerializer
    pagination_class = None  # a series has a handful of games

    def get_queryset(self) -> QuerySet[GameRecord]:
        if not Series.objects.filter(pk=self.kwargs["id"]).exists():
            raise NotFound(f"no series {self.kwargs['id']}")
        return GameRecord.objects.filter(series_id=self.kwargs["id"]).select_related("series__season").order_by("index")


class ReplayView(APIView):
    """A series' replay: its result document, every action of every game, without the bots' stderr."""

    schema = ArenaAutoSchema()

    @extend_schema(
        summary="A series' replay (the result document, stderr removed; hidden moves in words but for staff)",
        parameters=[SERIES_ID],
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="game, rules_version, config, games_planned, time_control, players, "
                "games (seats, actions with notation and ms, forfeit, winners, reason, stats), score, wall_seconds; "
                "in a game with hidden information, for everyone but staff: 'redacted' (why), and each hidden "
                "move's notation in public words with its action null",
            ),
            404: OpenApiResponse(description="no such series, or not recorded yet"),
        },
    )
    def get(self, request: Request, id: int) -> Response:
        return Response(public_document(recorded_series(id).result or {}, request.user))


class LogView(APIView):
    """One player's stderr from a series: for the owner of that seat's bot and staff only."""

    schema = ArenaAutoSchema()

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="A player's stderr in a series (that bot's owner and staff only)",
        parameters=[
            SERIES_ID,
            OpenApiParameter("player", OpenApiTypes.INT, "path", description="the seat (series player index)"),
        ],
        responses={
            200: LogSerializer,
            401: OpenApiResponse(description="not logged in"),
            403: OpenApiResponse(description="not your bot"),
            404: OpenApiResponse(description="no such series or seat, or not recorded yet"),
        },
    )
    def get(self, request: Request, id: int, player: int) -> Response:
        seat = SeriesSeat.objects.select_related("version__bot").filter(series_id=id, seat=player).first()
        if seat is None:
            get_object_or_404(Series, pk=id)
            raise NotFound(f"series {id} has no player {player}")
        if not can_see_private(request, seat.version.bot.owner_id):
            raise PermissionDenied(f"only the owner of {seat.version.bot} and staff may read its log")
        document = recorded_series(id).result
        entry = None if document is None else SeriesResult.from_json(document).stderr_of(player)
        if entry is None:
            raise NotFound(f"series {id} recorded no log for player {player}")
        body = {
            "series": id,
            "player": player,
            "version": seat.version_id,
            "text": entry.text,
            "truncated_bytes": entry.truncated_bytes,
        }
        return Response(LogSerializer(body).data)
