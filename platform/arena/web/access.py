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
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser

from arena.bots.models import Bot
from arena.web import replays

#: Keys of a result document that no download or API answer carries: the bots' stderr (its owner
#: reads it on its own page), and the ``seed`` that documents stored before protocol 2 kept, from
#: which their chance could be recomputed (docs/protocol.md, "What a bot can know").
PRIVATE_KEYS = ("stderr", "seed")
#: What a redacted result document says at its top (its ``"redacted"`` key).
REDACTED = "hidden moves are shown in words; staff download the full record"
#: The words of every move of a game of secrets that does not replay (a corrupt document): none is shown.
UNREPLAYABLE = "a move (hidden: the game does not replay)"
#: How the engines end an illegal move's message with the moves that were legal (engines/base.py).
LEGAL_NOW = "; legal now: "

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


def public_forfeit(game_name: str, forfeit: dict[str, Any] | None, full: bool) -> dict[str, Any] | None:
    """Return a forfeit as shown to someone; without the list of legal moves in a game of secrets unless ``full``.

    In a game with hidden information the legal moves name what only the forfeiting seat held
    ("keep doc 3, keep doc 7"); ``full`` is for its bot's owner and staff.
    """
    if forfeit is None or full or not replays.has_secret_moves(game_name):
        return forfeit
    detail = forfeit.get("detail")
    if isinstance(detail, str) and LEGAL_NOW in detail:
        return {**forfeit, "detail": detail.partition(LEGAL_NOW)[0] + LEGAL_NOW + "(hidden)"}
    return forfeit


def public_document(document: dict[str, Any], user: User = None) -> dict[str, Any]:
    """Return the result document as ``user`` may download it (None: anyone), always without the bots' stderr.

    In a game with hidden information, everyone but staff gets each hidden move's notation in public
    words and its action id null, a forfeit without its legal moves, and a top-level ``"redacted"``.
    """
    public = {key: value for key, value in document.items() if key not in PRIVATE_KEYS}
    game_name = str(document.get("game", ""))
    if is_staff(user) or not replays.has_secret_moves(game_name):
        return public
    public["games"] = [_redacted_game(document, game) for game in document.get("games", [])]
    return {"redacted": REDACTED, **public}


def _redacted_game(document: dict[str, Any], game: dict[str, Any]) -> dict[str, Any]:
    game_name = str(document.get("game", ""))
    actions = game.get("actions", [])
    try:
        words = replays.public_moves_for(
            game_name,
            document.get("config") or {},
            len(game["seats"]),
            [action["action"] for action in actions],
        )
    except (replays.ReplayError, KeyError, TypeError, ValueError):
        words = None
    if words is None or len(words) != len(actions):
        words = [UNREPLAYABLE] * len(actions)
    return {
        **game,
        "actions": [
            action if said is None else {**action, "notation": said, "action": None}
            for action, said in zip(actions, words, strict=True)
        ],
        "forfeit": public_forfeit(game_name, game.get("forfeit"), full=False),
    }
