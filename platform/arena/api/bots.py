"""Bots and their versions: browsing for everyone, uploads and archive downloads for the owner.

There is no update or delete: a version is immutable (arena.bots.models), and
a new upload is a new version of *your* bot of that name, so nobody can change
another user's bot through the API.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.http import FileResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ParseError, PermissionDenied, ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

import engines
from arena.api.filters import ArenaPagination, choice_filter, choice_param, id_filter, id_param, username_param
from arena.api.schema import ArenaAutoSchema
from arena.api.serializers import BotSerializer, UploadSerializer, VersionSerializer, can_see_private
from arena.api.viewsets import ArenaViews
from arena.bots.artifacts import archive_path
from arena.bots.models import Bot, BotVersion, VersionStatus
from arena.bots.submissions import SubmissionError, submit_version
from arena.ratings.models import Rating
from arena.web.ratelimits import upload_usage
from workers.botpkg import MAX_ARCHIVE_BYTES

#: Room for the multipart framing and the bot name around an archive of the largest size.
MULTIPART_OVERHEAD_BYTES = 64 * 1024
ERROR_RESPONSES = {
    400: OpenApiResponse(description="the request is unusable; the body says why"),
}


def versions_with_ratings() -> QuerySet[BotVersion]:
    """Return versions with what VersionSerializer reads, in three queries for any number of them."""
    return BotVersion.objects.select_related("bot__owner").prefetch_related(
        Prefetch("ratings", queryset=Rating.objects.select_related("season").order_by("season_id"))
    )


@extend_schema_view(
    list=extend_schema(
        summary="Bots, by owner and name",
        parameters=[
            OpenApiParameter("owner", OpenApiTypes.STR, description="only this user's bots (a username)"),
            OpenApiParameter(
                "game",
                OpenApiTypes.STR,
                description="only bots with a version for this game (its bot.toml lists it, or lists no games)",
            ),
        ],
    ),
    retrieve=extend_schema(summary="One bot"),
)
class BotViewSet(ArenaViews, viewsets.ReadOnlyModelViewSet):
    """Bots: a name of one owner, and its versions."""

    serializer_class = BotSerializer

    def get_queryset(self) -> QuerySet[Bot]:
        bots = Bot.objects.select_related("owner").prefetch_related(
            Prefetch("versions", queryset=BotVersion.objects.order_by("number"))
        )
        if self.action != "list":
            return bots
        owner = username_param(self.request, "owner")
        if owner:
            bots = bots.filter(owner__username=owner)
        game = choice_param(self.request, "game", engines.names())
        if game:
            plays = BotVersion.objects.filter(Q(games__icontains=f'"{game}"') | Q(games=[]))
            bots = bots.filter(pk__in=plays.values("bot_id"))
        return bots.order_by("owner__username", "name")


@extend_schema(
    summary="A bot's versions, oldest first",
    parameters=[OpenApiParameter("id", OpenApiTypes.INT64, "path", description="the bot's id")],
)
class BotVersionsView(generics.ListAPIView):
    """The versions of one bot, with their ratings."""

    schema = ArenaAutoSchema()

    serializer_class = VersionSerializer
    pagination_class = ArenaPagination

    def get_queryset(self) -> QuerySet[BotVersion]:
        if not Bot.objects.filter(pk=self.kwargs["id"]).exists():
            raise NotFound(f"no bot {self.kwargs['id']}")
        return versions_with_ratings().filter(bot_id=self.kwargs["id"]).order_by("number")


class UploadQuota(BaseThrottle):
    """The user's upload quota (ARENA_UPLOAD_RATE), one counter with the site's upload form."""

    def __init__(self) -> None:
        self.time_left: int | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        usage = upload_usage(request, increment=True)
        if usage is not None and usage["should_limit"]:
            self.time_left = int(usage["time_left"])
            return False
        return True

    def wait(self) -> float | None:
        return self.time_left


@extend_schema_view(
    list=extend_schema(
        summary="Bot versions, newest first",
        parameters=[
            id_filter("bot", "only this bot's versions"),
            choice_filter("status", VersionStatus.values, "only versions in this status"),
        ],
    ),
    retrieve=extend_schema(summary="One version"),
)
class VersionViewSet(ArenaViews, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Bot versions: list, detail, upload (POST, multipart) and archive download (owner and staff)."""

    serializer_class = VersionSerializer
    parser_classes = (MultiPartParser, FormParser)  # only the upload has a body

    def get_queryset(self) -> QuerySet[BotVersion]:
        versions = versions_with_ratings().order_by("-uploaded_at", "-id")
        if self.action != "list":
            return versions
        bot = id_param(self.request, "bot")
        if bot is not None:
            versions = versions.filter(bot_id=bot)
        state = choice_param(self.request, "status", VersionStatus.values)
        if state:
            versions = versions.filter(status=state)
        return versions

    def get_throttles(self) -> list[BaseThrottle]:
        """Throttle uploads only, with the user's one upload quota: browsing uses up no upload allowance."""
        return [UploadQuota()] if self.action == "create" else []

    @extend_schema(
        summary="Upload a new version of your bot",
        description="Multipart form with `bot` (the name; the bot is created with its first version) and "
        "`archive` (.zip or .tar.gz, at most 20 MB). The package is checked before anything is stored; "
        "a refused one gives 400 with the reason. The new version is `validating` until its validation "
        "series has run. Limited per user (scope `uploads`).",
        request={"multipart/form-data": UploadSerializer},
        responses={
            201: VersionSerializer,
            400: ERROR_RESPONSES[400],
            429: OpenApiResponse(description="too many uploads; retry after the Retry-After header's seconds"),
        },
    )
    def create(self, request: Request) -> Response:
        self._refuse_oversized(request)
        upload = UploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        archive = upload.validated_data["archive"]
        with tempfile.TemporaryDirectory(prefix="arena-api-upload-") as scratch:
            path = Path(scratch) / safe_upload_name(archive.name)
            with path.open("wb") as out:
                for chunk in archive.chunks():
                    out.write(chunk)
            try:
                version = submit_version(request.user, upload.validated_data["bot"], path)
            except SubmissionError as exc:
                raise ValidationError({"archive": [str(exc)]}) from None
        stored = versions_with_ratings().get(pk=version.pk)
        body = VersionSerializer(stored, context=self.get_serializer_context()).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": f"/api/versions/{version.pk}/"})

    @staticmethod
    def _refuse_oversized(request: Request) -> None:
        """Refuse a body too big to hold an acceptable archive before it is read or written anywhere."""
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            raise ParseError("the Content-Length header is not a number") from None
        if length > MAX_ARCHIVE_BYTES + MULTIPART_OVERHEAD_BYTES:
            raise ValidationError(
                {
                    "archive": [
                        f"the upload is {length / 2**20:.1f} MB; a bot archive may be at most "
                        f"{MAX_ARCHIVE_BYTES // 2**20} MB: leave out data files and build output"
                    ]
                }
            )

    @extend_schema(
        summary="Download a version's archive (its owner and staff only)",
        responses={
            (200, "application/octet-stream"): OpenApiResponse(OpenApiTypes.BINARY, description="the archive"),
            401: OpenApiResponse(description="not logged in"),
            403: OpenApiResponse(description="not your bot"),
            404: OpenApiResponse(description="no such version, or its file is gone"),
        },
    )
    @action(detail=True, methods=["get"], permission_classes=[IsAuthenticated])
    def archive(self, request: Request, pk: str) -> FileResponse:
        version = self.get_object()
        if not can_see_private(request, version.bot.owner_id):
            raise PermissionDenied("only the bot's owner and staff may download its archive")
        path = archive_path(version.archive_sha256, version.archive_format)
        if not path.is_file():
            raise NotFound(f"the archive of {version} is missing from the artifact store; tell an operator")
        name = f"{version.bot.name}-v{version.number}.{version.archive_format}"
        return FileResponse(path.open("rb"), as_attachment=True, filename=name, content_type="application/octet-stream")


def safe_upload_name(name: str | None) -> str:
    """Return a file name for an upload that cannot leave its folder: the client's name is only a hint."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", Path(name or "").name).lstrip(".")
    return base[:100] or "upload"
