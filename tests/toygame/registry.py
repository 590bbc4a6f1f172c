"""Register a toy game for a test: its declaration (engines) and its reference bots (bots/provided.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import engines
from bots import provided
from bots.provided import ReferenceBots
from engines.declaration import GameDeclaration


@contextmanager
def registered(declaration: GameDeclaration, reference_bots: ReferenceBots) -> Iterator[GameDeclaration]:
    """Register the game and its reference bots for the ``with`` block; yield the declaration."""
    engines.register(declaration)
    try:
        provided.register(reference_bots)
        try:
            yield declaration
        finally:
            provided.unregister(reference_bots.game)
    finally:
        engines.unregister(declaration.name)
