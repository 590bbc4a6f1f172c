"""Forms of the site: sign-up and the bot upload."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.validators import RegexValidator
from django.db.models.functions import Length

from arena.bots.models import BOT_NAME_REGEX
from arena.web.usernames import problem
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


class SignupForm(UserCreationForm):
    """Django's sign-up form (its password validators included) that refuses look-alike user names."""

    def clean_username(self) -> str:
        name = super().clean_username()
        if not name:
            return name  # Django refused it already (empty, or the same name in another case)
        # Skeletons of names of about this length: NFKC and invisible characters change lengths a little.
        near = get_user_model().objects.annotate(size=Length("username"))
        near = near.filter(size__range=(max(1, len(name) - 3), len(name) + 3))
        reason = problem(name, list(near.values_list("username", flat=True)))
        if reason:
            raise forms.ValidationError(reason, code="lookalike")
        return name
