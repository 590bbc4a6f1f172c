"""The ``<id:...>`` path converter: a database id, at most 18 digits.

Django's ``<id:...>`` takes any number of digits; an id past 2^63 then
reaches the database, where SQLite raises OverflowError and PostgreSQL a
range error: a 500 for a mistyped address. 18 digits always fit a 64-bit id,
and a longer number is simply no page (404).
"""

from __future__ import annotations

from django.urls import register_converter

#: The digits of an id in a URL: the API's routers use the same pattern (lookup_value_regex).
ID_PATTERN = "[0-9]{1,18}"


class IdConverter:
    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
