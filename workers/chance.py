"""Where a series' chance comes from: a secret no bot and no visitor can derive.

The referee draws every chance outcome (a deal, a hidden timer, the next
market card) from a generator seeded by the series' *chance secret*, 32 bytes
that the platform derives from a server key of its own (an HMAC of the
series' id and nonce, or a solo season's stored deal secret) and hands to the
match worker in the series spec. The secret never goes into a bot's messages,
a result document, a page, the API or a download: the replay records the
chance outcomes themselves, so nothing needs the secret to replay a game.

From the secret, each use gets its own HMAC-SHA256 stream, so knowing one
says nothing of another:

* game *i*'s chance generator: ``HMAC(secret, "chance game i")``;
* player *p*'s seed for its own randomness (the ``seed`` of its ``start``
  message): ``HMAC(secret, "bot seed p")``. A bot learns nothing of the deck
  from it, and a series replays exactly for the bot as for the referee.

A bot author's local ``arena play --seed N`` has no server key: its secret is
a hash of ``N``, so the same seed replays the same series. That is public by
design (the author holds both sides); the platform never takes this path.
"""

from __future__ import annotations

import hashlib
import hmac
import random

#: Bytes of a chance secret; the platform sends it as 64 hexadecimal digits.
SECRET_BYTES = 32


class SecretError(ValueError):
    """A chance secret that is not 32 bytes, or not 64 hexadecimal digits."""


def from_hex(text: object) -> bytes:
    """Return the secret written as 64 hexadecimal digits; raise :class:`SecretError` otherwise."""
    if not isinstance(text, str) or len(text) != 2 * SECRET_BYTES:
        raise SecretError(f"a chance secret is {2 * SECRET_BYTES} hexadecimal digits")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise SecretError(f"a chance secret is {2 * SECRET_BYTES} hexadecimal digits") from None


def local_secret(seed: int) -> bytes:
    """Return the secret of a local series played with ``--seed seed`` (public: only for local play)."""
    return hashlib.sha256(f"watch-arena local series {int(seed)}".encode()).digest()


def derive(key: bytes, label: str) -> bytes:
    """Return the 32-byte HMAC-SHA256 of ``label`` under ``key``: one independent stream per label."""
    return hmac.new(key, label.encode(), hashlib.sha256).digest()


def game_rng(secret: bytes, game_index: int) -> random.Random:
    """Return the generator of game ``game_index``'s chance outcomes."""
    return random.Random(int.from_bytes(derive(secret, f"chance game {game_index}"), "big"))


def bot_seed(secret: bytes, player: int) -> int:
    """Return player ``player``'s seed for its own randomness: 63 bits that say nothing of the chance."""
    return int.from_bytes(derive(secret, f"bot seed {player}")[:8], "big") >> 1
