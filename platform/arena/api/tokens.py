"""Issuing, revoking and checking API tokens (arena.api.models.ApiToken).

A key is ``wa_`` followed by 32 random bytes in URL-safe base64: 256 bits, so
the sha256 of the key, unsalted, is as good as a password hash here and lets
a request's key be found by an index lookup. Looking it up by its hash also
keeps the comparison constant-time: the database compares digests, which an
attacker cannot steer byte by byte.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone

from arena.api.models import ApiToken

KEY_PREFIX = "wa_"
#: Bytes of randomness in a key (token_urlsafe makes 43 characters of them).
KEY_BYTES = 32
#: Longest key accepted for a lookup; anything longer is refused without hashing.
MAX_KEY_LENGTH = 100
SHOWN_PREFIX_LENGTH = 8
#: ``last_used`` is written at most this often, so every request does not write a row.
LAST_USED_RESOLUTION = timedelta(minutes=1)
MAX_NAME_LENGTH = 100
#: Tokens a user may have working at once: enough for each machine and CI job, not a key farm.
MAX_LIVE_TOKENS = 10


class TokenNameError(ValueError):
    """A token that cannot be created (its name, or too many tokens); the message says what to change."""


def key_digest(raw_key: str) -> str:
    """Return the hex sha256 of a key, as stored in ApiToken.key_sha256."""
    return hashlib.sha256(raw_key.encode("utf-8")).hexdigest()


def issue_token(user: AbstractBaseUser, name: str) -> tuple[ApiToken, str]:
    """Create a token for ``user`` and return it with its key; the key is not kept anywhere, show it once."""
    name = name.strip()
    if not name:
        raise TokenNameError("give the token a name, such as 'laptop' or 'CI', to tell it apart later")
    if len(name) > MAX_NAME_LENGTH:
        raise TokenNameError(f"a token name is at most {MAX_NAME_LENGTH} characters, not {len(name)}")
    live = ApiToken.objects.filter(user=user, revoked_at__isnull=True).count()
    if live >= MAX_LIVE_TOKENS:
        raise TokenNameError(
            f"you have {live} working tokens, the most one account may have; revoke one you no longer use first"
        )
    raw_key = KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=raw_key[:SHOWN_PREFIX_LENGTH], key_sha256=key_digest(raw_key)
    )
    return token, raw_key


def revoke_token(token: ApiToken) -> ApiToken:
    """Revoke ``token`` now (a revoked token stays revoked: the first time is kept) and return it."""
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    token.refresh_from_db(fields=["revoked_at"])
    return token


def token_for_key(raw_key: str) -> ApiToken | None:
    """Return the working token whose key is ``raw_key`` (its user loaded), or None for anything else."""
    if not isinstance(raw_key, str) or not raw_key.startswith(KEY_PREFIX) or len(raw_key) > MAX_KEY_LENGTH:
        return None
    digest = key_digest(raw_key)
    token = ApiToken.objects.select_related("user").filter(key_sha256=digest).first()
    if token is None or not hmac.compare_digest(token.key_sha256, digest):
        return None
    if token.revoked_at is not None or not token.user.is_active:
        return None
    _note_use(token)
    return token


def authenticate_key(raw_key: str) -> AbstractBaseUser | None:
    """Return the user whose working token has the key ``raw_key``, or None (unknown, revoked, inactive user)."""
    token = token_for_key(raw_key)
    return token.user if token is not None else None


def _note_use(token: ApiToken) -> None:
    """Stamp ``last_used`` when it is older than a minute; one conditional UPDATE, safe under concurrency."""
    now = timezone.now()
    if token.last_used is not None and now - token.last_used < LAST_USED_RESOLUTION:
        return
    stale = Q(last_used__isnull=True) | Q(last_used__lt=now - LAST_USED_RESOLUTION)
    if ApiToken.objects.filter(stale, pk=token.pk).update(last_used=now):
        token.last_used = now
