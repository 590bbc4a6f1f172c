"""``Authorization: Bearer <key>`` for the REST API, and its description in the OpenAPI schema.

A request without an Authorization header, or with another scheme, is left
to the next authentication class (the session); a request that says Bearer
and carries no usable key is refused with 401 and a message saying how to get
a working one, never silently treated as anonymous.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from arena.api.models import ApiToken
from arena.api.tokens import token_for_key

SCHEME = b"bearer"
TOKEN_PAGE = "/account/tokens/"


class ApiTokenAuthentication(BaseAuthentication):
    """Authenticate by an API token sent as ``Authorization: Bearer <key>``."""

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        header = get_authorization_header(request).split()
        if not header or header[0].lower() != SCHEME:
            return None
        if len(header) == 1:
            raise AuthenticationFailed(
                "the Authorization header says Bearer but has no key: send 'Authorization: Bearer <key>'"
            )
        if len(header) > 2:
            raise AuthenticationFailed("an API key has no spaces: send 'Authorization: Bearer <key>' with one key")
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise AuthenticationFailed("an API key is plain ASCII; copy it again from the token page") from None
        token = token_for_key(key)
        if token is None:
            raise AuthenticationFailed(
                "your token was refused (unknown, revoked or mistyped): "
                f"create one at {request.build_absolute_uri(TOKEN_PAGE)}"
            )
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        """Return the WWW-Authenticate value, which also makes DRF answer 401 (not 403) without credentials."""
        return 'Bearer realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Describe ApiTokenAuthentication to drf-spectacular as an HTTP bearer scheme."""

    target_class = "arena.api.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": f"An API token from {TOKEN_PAGE} (or POST /api/tokens/), "
            "sent as 'Authorization: Bearer <key>'.",
        }
