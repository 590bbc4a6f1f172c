"""Who may see what: a bot's private parts (archives, stderr, status reasons), a game's secrets, the public record.

The one place that decides it, for the pages, the downloads and the API alike:

- A bot's stderr: its owner and staff (:func:`owns_or_staff`); never in a result document sent out.
- A game with hidden information (its viewer declares ``public_moves``, engines/declaration.py):
  everyone sees the public frames and the moves in public words; the owner of a seat's bot also sees
  that seat's private layer (its hidden cards), staff every seat's (:func:`private_players`). The
  replay download and the API's replay give everyone but staff the record with each hidden move's
  notation in public words and its action id null, and say so (``"redacted"``); staff get it whole
  (:func:`public_document`). A forfeit's list of the legal moves is the forfeiting seat's own
  knowledge: only its bot's owner and staff read it (:func:`public_forfeit`).
- A game without hidden information: the full record for everyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, overload

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from arena.bots.models import Bot
from arena.web import replays
from engines.result import Forfeit, GameRecord, SeriesResult, hide_legal_moves

#: What a redacted result document says at its top (its ``"redacted"`` key).
REDACTED = "hidden moves are shown in words; staff download the full record"
#: The words of every move of a game of secrets that does not replay (a corrupt document): none is shown.
UNREPLAYABLE = "a move (hidden: the game does not replay)"

User = AbstractBaseUser | AnonymousUser | None


def owns_or_staff(user: User, bot: Bot) -> bool:
    """Return whether ``user`` may see ``bot``'s private parts: its owner or a staff member."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff) or bot.owner_id == user.pk


def is_staff(user: User) -> bool:
    """Return whether ``user`` sees every seat's secrets and the full record: staff."""
    return user is not None and user.is_authenticated and bool(user.is_staff)


def private_players(user: User, bots: Sequence[Bot | None]) -> set[int]:
    """Return the series players (indices of ``bots``, None: a bot nobody owns) whose secrets ``user`` may see."""
    if is_staff(user):
        return set(range(len(bots)))
    return {player for player, bot in enumerate(bots) if bot is not None and owns_or_staff(user, bot)}


@overload
def public_forfeit(game_name: str, forfeit: Forfeit, full: bool) -> Forfeit: ...
@overload
def public_forfeit(game_name: str, forfeit: dict[str, Any] | None, full: bool) -> dict[str, Any] | None: ...
def public_forfeit(
    game_name: str, forfeit: Forfeit | dict[str, Any] | None, full: bool
) -> Forfeit | dict[str, Any] | None:
    """Return a forfeit as shown to someone; without the list of legal moves in a game of secrets unless ``full``.

    In a game with hidden information the legal moves name what only the forfeiting seat held
    ("keep doc 3, keep doc 7"); ``full`` is for its bot's owner and staff. A typed forfeit
    (engines/result.py) gives a typed one; the stored rows of the forfeits table give their dict.
    """
    if forfeit is None or full or not replays.has_secret_moves(game_name):
        return forfeit
    if isinstance(forfeit, Forfeit):
        return forfeit.without_legal_moves()
    detail = forfeit.get("detail")
    if isinstance(detail, str):
        return {**forfeit, "detail": hide_legal_moves(detail)}
    return forfeit


def public_document(document: dict[str, Any], user: User = None) -> dict[str, Any]:
    """Return the result document as ``user`` may download it (None: anyone), always without the bots' stderr.

    In a game with hidden information, everyone but staff gets each hidden move's notation in public
    words and its action id null, a forfeit without its legal moves, and a top-level ``"redacted"``
    (:meth:`engines.result.SeriesResult.redacted`). No ``seed`` of an early document comes out.
    """
    if not document:  # nothing recorded
        return {}
    result = SeriesResult.from_json(document)
    if is_staff(user) or not replays.has_secret_moves(result.game):
        return result.to_json(with_stderr=False)
    return result.redacted(partial(_public_moves, result), REDACTED, UNREPLAYABLE).to_json(with_stderr=False)


def _public_moves(result: SeriesResult, game: GameRecord) -> list[str | None] | None:
    """Return per action None (public) or its public words; None when the game does not replay."""
    try:
        return replays.public_moves_for(
            result.game, dict(result.config), len(game.seats), [action.action for action in game.actions]
        )
    except (replays.ReplayError, KeyError, TypeError, ValueError):
        return None
