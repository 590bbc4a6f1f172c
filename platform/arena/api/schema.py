"""The API's OpenAPI schema class: drf-spectacular's, plus the error responses every client can meet.

drf-spectacular documents only the success response unless told more; a
client (and the schema fuzzer, tests/arena/api/test_api_fuzz.py) also needs
to know that any operation can answer 401 (a refused token is refused
everywhere), that one with query parameters or a body can answer 400, one
with a path id 404, and so on. Every view of arena.api sets
``schema = ArenaAutoSchema()`` (a viewset by mixing in arena.api.viewsets.ArenaViews);
responses a view declares itself win.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

#: The body of every error: {"detail": "..."} or {"<field>": ["...", ...]}.
ERROR_BODY = {
    "application/json": {
        "schema": {
            "type": "object",
            "additionalProperties": {},
            "description": "'detail' with a message, or each field's list of messages",
        }
    }
}


class ArenaAutoSchema(AutoSchema):
    """AutoSchema that adds the error responses an operation can give."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        for code, description in self._error_responses(operation):
            responses.setdefault(code, {"description": description})
            responses[code].setdefault("content", ERROR_BODY)
        return operation

    def _error_responses(self, operation: dict[str, Any]) -> list[tuple[str, str]]:
        parameters = operation.get("parameters", [])
        errors = [("401", "the credentials are missing, malformed or refused; the message says how to fix them")]
        if "requestBody" in operation or any(p["in"] == "query" for p in parameters):
            errors.append(("400", "a parameter or a field is unusable; the message says which and why"))
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            errors.append(("403", "not allowed (a session without its CSRF token, or not your object)"))
        if "requestBody" in operation:
            errors.append(("415", "the body is not in one of the accepted media types"))
        if any(p["in"] == "path" for p in parameters):
            errors.append(("404", "no such object"))
        return errors
