"""Games, seasons and season leaderboards: the public catalogue, read-only for everyone."""

from __future__ import annotations

from typing import Any

from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema, extend_schema_view
from rest_framework import generics, viewsets
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

import engines
from arena.api.filters import ArenaPagination, choice_filter, choice_param
from arena.api.schema import ArenaAutoSchema
from arena.api.serializers import (
    GameSerializer,
    LeaderboardRowSerializer,
    ScoreLadderRowSerializer,
    SeasonSerializer,
    TeamRowSerializer,
)
from arena.api.viewsets import ArenaViews
from arena.ratings.models import Rating
from arena.ratings.team_boards import ROLE_BOARDS, team_board
from arena.seasons.models import RECORD_FIELDS, Season, SeasonStatus
from arena.series.score_ladder import ladder_rows
from engines import kinds
from workers.bot_text import quote

#: The leaderboard's sort keys (``?ordering=key`` or ``-key``) and the columns they sort by.
LEADERBOARD_ORDERINGS: dict[str, tuple[str, ...]] = {
    "rank": ("rank",),
    "conservative": ("conservative", "rank"),
    "mu": ("mu", "rank"),
    "sigma": ("sigma", "rank"),
    "series_played": ("series_played", "rank"),
    "won": ("won", "rank"),
    "drawn": ("drawn", "rank"),
    "lost": ("lost", "rank"),
    "series_points": ("series_points", "rank"),
    "game_wins": ("game_wins", "rank"),
    "bot": ("version__bot__name", "version__number"),
    "owner": ("version__bot__owner__username", "version__bot__name", "version__number"),
}
ORDERING_CHOICES = [choice for key in LEADERBOARD_ORDERINGS for choice in (key, f"-{key}")]


@extend_schema_view(
    list=extend_schema(summary="The games this arena runs"),
    retrieve=extend_schema(summary="One game", parameters=[OpenApiParameter("name", OpenApiTypes.STR, "path")]),
)
class GameViewSet(viewsets.ViewSet):
    """The registered games (engines.names()) with what each engine declares about itself."""

    schema = ArenaAutoSchema()

    lookup_field = "name"
    lookup_value_regex = r"[A-Za-z0-9_-]+"
    serializer_class = GameSerializer

    def list(self, request: Request) -> Response:
        infos = [engines.get(name).info for name in engines.names()]
        return Response(GameSerializer(infos, many=True).data)

    def retrieve(self, request: Request, name: str) -> Response:
        if name not in engines.names():
            raise NotFound(f"no game {quote(name)}; this arena runs {', '.join(engines.names())}")
        return Response(GameSerializer(engines.get(name).info).data)


@extend_schema_view(
    list=extend_schema(
        summary="Seasons, newest first",
        parameters=[
            OpenApiParameter("game", OpenApiTypes.STR, description="only this game's seasons (see /api/games/)"),
            choice_filter("status", SeasonStatus.values, "only seasons in this status"),
        ],
    ),
    retrieve=extend_schema(summary="One season"),
)
class SeasonViewSet(ArenaViews, viewsets.ReadOnlyModelViewSet):
    """Ladder seasons: a game under fixed rules, time control and series format."""

    serializer_class = SeasonSerializer

    def get_queryset(self) -> QuerySet[Season]:
        seasons = Season.objects.order_by("-created", "-id")
        if self.action != "list":
            return seasons
        game = choice_param(self.request, "game", engines.names())
        if game:
            seasons = seasons.filter(game=game)
        status = choice_param(self.request, "status", SeasonStatus.values)
        if status:
            seasons = seasons.filter(status=status)
        return seasons


@extend_schema(
    summary="A season's leaderboard",
    description="Every rated version of the season, ranked by the conservative rating μ − 3σ (then μ). "
    "`rank` is that ranking whatever `ordering` sorts the page by. A solo season (`players_per_series` 1) "
    "has a score ladder instead: every version with a recorded series, ranked by its mean score over the "
    "season's deals, with the 95 % interval (`low`, `high`), the games and the title; `ordering` is `rank` "
    "or `-rank` there. A team game's season has two leaderboards, `?role=player` (the default) and "
    "`?role=gm`, each ranked on its own; against the built-in GM (a season without GM bots) a player row "
    "also has its win rate with the Wilson 95 % interval and its mean turns to win.",
    responses=PolymorphicProxySerializer(
        component_name="LeaderboardRowOrScore",
        serializers=[LeaderboardRowSerializer, ScoreLadderRowSerializer, TeamRowSerializer],
        resource_type_field_name=None,
        many=True,
    ),
    parameters=[
        OpenApiParameter("id", OpenApiTypes.INT64, "path", description="the season's id"),
        OpenApiParameter(
            "ordering", OpenApiTypes.STR, enum=ORDERING_CHOICES, description="sort key; '-' for descending"
        ),
        OpenApiParameter(
            "role",
            OpenApiTypes.STR,
            enum=[role for role, _ in ROLE_BOARDS],
            description="a team game's season: the player bots' leaderboard (default) or the GM bots'",
        ),
    ],
)
class LeaderboardView(generics.ListAPIView):
    """A season's ratings as leaderboard rows: one query for the page, one to count.

    A board with no rows is looked at once more: a solo season (which rates nobody) answers
    with its score ladder (arena/series/score_ladder.py) instead.
    """

    schema = ArenaAutoSchema()

    serializer_class = LeaderboardRowSerializer
    pagination_class = ArenaPagination

    def get_queryset(self) -> QuerySet[Rating]:
        ordering = self.request.query_params.get("ordering") or "rank"
        descending = ordering.startswith("-")
        columns = LEADERBOARD_ORDERINGS.get(ordering.removeprefix("-"))
        if columns is None:
            choices = ", ".join(ORDERING_CHOICES)
            raise ValidationError({"ordering": [f"must be one of {choices}, not {quote(ordering)}"]})
        rank = Window(RowNumber(), order_by=[F("conservative").desc(), F("mu").desc(), F("version_id").asc()])
        rows = (
            Rating.objects.filter(season_id=self.kwargs["id"])
            .select_related("version__bot__owner")
            .only(*LEADERBOARD_COLUMNS)
            .annotate(rank=rank)
        )
        order = [F(column).desc() if descending else F(column).asc() for column in columns]
        return rows.order_by(*order, "version_id")

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        # A team game's ratings have a role: its season answers with the board of one role instead.
        self.team_rows = bool(page) and any(getattr(row, "role", "") for row in page)
        return page

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        role = request.query_params.get("role")
        if role is not None:
            return self.team_list(request, role)
        response = super().list(request, *args, **kwargs)
        if response.data["count"] and not self.team_rows:
            return response  # a season with ratings exists, and is neither solo nor a team game's
        season = Season.objects.filter(pk=self.kwargs["id"]).first()
        if season is None:
            raise Http404
        boards = {
            kinds.RATED: lambda: response,
            kinds.RATED_PER_ROLE: lambda: self.team_list(request, ROLE_BOARDS[0][0]),
            kinds.SCORE_LADDER: lambda: self.score_ladder_list(request, season),
        }
        return boards[season.kind.ranking]()

    def score_ladder_list(self, request: Request, season: Season) -> Response:
        """Answer with a solo season's score ladder (arena/series/score_ladder.py), sorted by rank."""
        ordering = request.query_params.get("ordering") or "rank"
        if ordering not in ("rank", "-rank"):
            raise ValidationError({"ordering": [f"a score ladder sorts by rank or -rank, not {quote(ordering)}"]})
        rows = ladder_rows(season)  # a solo season rates nobody: its board is its score ladder
        if ordering == "-rank":
            rows.reverse()
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(ScoreLadderRowSerializer(page, many=True).data)

    def team_list(self, request: Request, role: str) -> Response:
        """Answer with one role's leaderboard of a team game's season (arena/ratings/team_boards.py)."""
        season = Season.objects.filter(pk=self.kwargs["id"]).first()
        if season is None:
            raise Http404
        roles = [name for name, _ in ROLE_BOARDS]
        if not season.kind.roles:
            raise ValidationError({"role": [f"{season.game} is not a team game: its leaderboard has no roles"]})
        if role not in roles:
            raise ValidationError({"role": [f"must be one of {', '.join(roles)}, not {quote(role)}"]})
        ordering = request.query_params.get("ordering") or "rank"
        if ordering not in ("rank", "-rank"):
            raise ValidationError(
                {"ordering": [f"a team game's leaderboard sorts by rank or -rank, not {quote(ordering)}"]}
            )
        rows = team_board(season, role)
        if ordering == "-rank":
            rows.reverse()
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(TeamRowSerializer(page, many=True).data)


#: The columns a leaderboard row reads; nothing else is fetched.
LEADERBOARD_COLUMNS = (
    "version_id",
    "role",
    "mu",
    "sigma",
    "conservative",
    "provisional",
    *RECORD_FIELDS,
    "version__number",
    "version__bot__name",
    "version__bot__owner__username",
)
