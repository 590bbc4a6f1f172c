"""API tokens: what a script or the ``arena`` client sends as ``Authorization: Bearer <key>``.

The key itself is never stored: only its sha256, which is what a request's
key is looked up by, and its first characters, so the owner can tell tokens
apart on the token page. A token is revoked, never deleted, so its page keeps
saying when it was last used.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    """A named API key of one user; the key is shown once, at creation, and stored only as its hash."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text="e.g. laptop or CI")
    prefix = models.CharField(max_length=8, help_text="the key's first 8 characters")
    key_sha256 = models.CharField(max_length=64, unique=True, help_text="sha256 of the key, hex")
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True, help_text="to the minute")
    revoked_at = models.DateTimeField(null=True, blank=True, help_text="empty: the token works")

    class Meta:
        ordering = ("user", "-created", "-id")
        indexes = (models.Index(fields=["user", "created"], name="api_token_user_created"),)

    def __str__(self) -> str:
        return f"{self.user.get_username()}: {self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        """Return whether requests with this token are accepted (it is not revoked)."""
        return self.revoked_at is None
