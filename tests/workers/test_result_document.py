"""A series the referee plays reads back through the result type (engines/result.py) byte for byte."""

from __future__ import annotations

import json

from engines.result import SeriesResult


def test_a_played_series_document_reads_back_as_the_type_byte_for_byte(arena) -> None:
    clean = arena.play("polite").document
    forfeited = arena.play("illegal_once").document
    assert any(game["forfeit"] is not None for game in forfeited["games"])
    for document in (clean, forfeited):
        assert json.dumps(SeriesResult.from_json(document).to_json()) == json.dumps(document)
        assert "seed" not in document
