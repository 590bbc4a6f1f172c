"""Query parameters of the list endpoints, checked before they reach the database.

Every value is validated here, so a bad one is a 400 that names the parameter
and says what it takes (quoting at most a short prefix of what was sent,
workers.bot_text.quote), never a database error: ids are bounded whole numbers
(PostgreSQL's bigint), names are limited to the characters they can hold (no
NUL byte, which PostgreSQL refuses in text), choices are whitelisted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

from workers.bot_text import quote

#: Largest id accepted: PostgreSQL's bigint.
MAX_ID = 2**63 - 1
#: Django's username characters (UnicodeUsernameValidator), at its maximum length.
USERNAME_PATTERN = re.compile(r"[\w.@+-]{1,150}")


def id_param(request: Any, name: str) -> int | None:
    """Return the id in query parameter ``name``, None when absent; 400 when it is not an id."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if not value.isascii() or not value.isdigit() or not 1 <= int(value) <= MAX_ID:
        raise ValidationError({name: [f"must be an id (a whole number from 1), not {quote(value)}"]})
    return int(value)


def choice_param(request: Any, name: str, choices: Sequence[str]) -> str | None:
    """Return query parameter ``name`` when it is one of ``choices``, None when absent; 400 otherwise."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if value not in choices:
        raise ValidationError({name: [f"must be one of {', '.join(choices)}, not {quote(value)}"]})
    return value


def username_param(request: Any, name: str) -> str | None:
    """Return the username in query parameter ``name``, None when absent; 400 when no user could have it."""
    value = request.query_params.get(name)
    if value is None or value == "":
        return None
    if not USERNAME_PATTERN.fullmatch(value):
        raise ValidationError({name: [f"must be a username (letters, digits and @.+-_), not {quote(value)}"]})
    return value


def id_filter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, OpenApiTypes.INT64, description=description)


def choice_filter(name: str, choices: Sequence[str], description: str) -> OpenApiParameter:
    return OpenApiParameter(name, OpenApiTypes.STR, enum=list(choices), description=description)


class ArenaPagination(LimitOffsetPagination):
    """``?limit=&offset=`` pages (DRF's LimitOffsetPagination), checked as the schema states them.

    ``limit`` is a whole number from 1 to ``max_limit`` (default 50), ``offset`` one from 0;
    anything else (negative, zero or too big a limit, not a whole number) is a 400 naming the
    parameter, where DRF would quietly use its default or cap it. An offset past any real
    table is answered with an empty page instead of being sent to the database, where an
    offset beyond bigint is an error.
    """

    max_limit = 500
    max_offset = 10**9

    def get_limit(self, request: Any) -> int:
        value = request.query_params.get(self.limit_query_param)
        if value is None or value == "":
            return int(self.default_limit)
        number = _whole_number(value)
        if number is None or not 1 <= number <= self.max_limit:
            raise ValidationError(
                {self.limit_query_param: [f"must be a whole number from 1 to {self.max_limit}, not {quote(value)}"]}
            )
        return number

    def get_offset(self, request: Any) -> int:
        value = request.query_params.get(self.offset_query_param)
        if value is None or value == "":
            return 0
        number = _whole_number(value)
        if number is None:
            raise ValidationError(
                {self.offset_query_param: [f"must be a whole number from 0 (the first result), not {quote(value)}"]}
            )
        return min(number, self.max_offset)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            schema = parameter["schema"]
            schema["minimum"] = 1 if parameter["name"] == self.limit_query_param else 0
            if parameter["name"] == self.limit_query_param:
                schema["maximum"] = self.max_limit
        return parameters


def _whole_number(value: str) -> int | None:
    """Return ``value`` as a whole number when it is one in ASCII digits (no sign, no spaces), else None.

    A number of more than 18 digits is returned as 10**18: bigger than any limit or offset
    means anything, and Python refuses to convert strings of over 4300 digits.
    """
    if not value.isascii() or not value.isdigit():
        return None
    digits = value.lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else 10**18
