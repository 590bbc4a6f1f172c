"""Your API tokens through the API (session or token auth), and who you are logged in as."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, OpenApiTypes, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.api.models import ApiToken
from arena.api.schema import ArenaAutoSchema
from arena.api.serializers import MeSerializer, NewTokenSerializer, TokenCreateSerializer, TokenSerializer
from arena.api.tokens import TokenNameError, issue_token, revoke_token
from arena.api.viewsets import ArenaViews

TOKEN_ID = OpenApiParameter("id", OpenApiTypes.INT64, "path", description="the token's id")


@extend_schema_view(
    list=extend_schema(summary="Your API tokens, newest first (never their keys)"),
    create=extend_schema(
        summary="Create an API token; the response holds its key, shown this once",
        request=TokenCreateSerializer,
        responses={201: NewTokenSerializer, 400: OpenApiResponse(description="the name is missing or too long")},
    ),
    revoke=extend_schema(
        summary="Revoke one of your tokens",
        parameters=[TOKEN_ID],
        request=None,
        responses={200: TokenSerializer, 404: OpenApiResponse(description="no token of yours with that id")},
    ),
)
class TokenViewSet(ArenaViews, mixins.ListModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet):
    """The logged-in user's API tokens: list, create (the key shown once), revoke."""

    serializer_class = TokenSerializer
    permission_classes = (IsAuthenticated,)
    parser_classes = (JSONParser, FormParser, MultiPartParser)

    def get_queryset(self) -> QuerySet[ApiToken]:
        return ApiToken.objects.filter(user=self.request.user).order_by("-created", "-id")

    def create(self, request: Request) -> Response:
        form = TokenCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            token, key = issue_token(request.user, form.validated_data["name"])
        except TokenNameError as exc:
            raise ValidationError({"name": [str(exc)]}) from None
        token.key = key  # type: ignore[attr-defined]  # only on this response
        return Response(NewTokenSerializer(token).data, status=status.HTTP_201_CREATED)

    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, pk: str) -> Response:
        return Response(TokenSerializer(revoke_token(self.get_object())).data)


class MeView(APIView):
    """The user the request is authenticated as: what a client checks its token with."""

    schema = ArenaAutoSchema()

    permission_classes = (IsAuthenticated,)

    @extend_schema(
        summary="Who you are logged in as",
        responses={200: MeSerializer, 401: OpenApiResponse(description="no credentials, or a refused token")},
    )
    def get(self, request: Request) -> Response:
        user = request.user
        return Response(MeSerializer({"id": user.pk, "username": user.get_username(), "is_staff": user.is_staff}).data)
