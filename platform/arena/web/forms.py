"""Forms of the site: the bot upload."""

from __future__ import annotations

from django import forms
from django.core.validators import RegexValidator

from arena.bots.models import BOT_NAME_REGEX
from workers.botpkg import MAX_ARCHIVE_BYTES


class UploadForm(forms.Form):
    """A bot name (new, or one of the user's bots for a new version) and the archive."""

    bot_name = forms.CharField(
        label="Bot name",
        max_length=40,
        validators=[RegexValidator(BOT_NAME_REGEX, "Use 1-40 letters, digits, '-' or '_' (no spaces), like my-bot.")],
        help_text="A new name creates a new bot; the name of one of your bots adds its next version.",
    )
    archive = forms.FileField(
        label="Archive",
        help_text=f".zip or .tar.gz with bot.toml at its top, at most {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB.",
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,.tar.gz,.tgz,application/zip,application/gzip"}),
    )
