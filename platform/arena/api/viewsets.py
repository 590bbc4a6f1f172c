"""What every id-addressed viewset of arena.api shares: the schema's error responses, pages and the id lookup."""

from __future__ import annotations

from arena.api.filters import ArenaPagination
from arena.api.schema import ArenaAutoSchema
from arena.converters import ID_PATTERN


class ArenaViews:
    """Mixed in before a DRF viewset: ArenaAutoSchema, ``?limit=&offset=`` pages and ids of at most 18 digits."""

    schema = ArenaAutoSchema()
    pagination_class = ArenaPagination
    lookup_value_regex = ID_PATTERN  # arena/converters.py
