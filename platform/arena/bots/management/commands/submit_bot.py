"""``manage.py submit_bot``: submit a bot directory or archive as the next version of a user's bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.bots.submissions import SubmissionError, submit_version


class Command(BaseCommand):
    help = (
        "Validate a bot package (a directory, .zip or .tar.gz with bot.toml at its top, see docs/bot-package.md) "
        "and store it as the next version of the owner's bot, waiting for its validation series."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--owner", required=True, metavar="USER", help="username of the bot's owner")
        parser.add_argument("--bot", required=True, metavar="NAME", help="the bot's name (created on first upload)")
        parser.add_argument("--create-owner", action="store_true", help="create the user USER if there is none")
        parser.add_argument("path", type=Path, metavar="PATH", help="bot directory, .zip or .tar.gz")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = self.owner(options["owner"], create=options["create_owner"])
        try:
            version = submit_version(owner, options["bot"], options["path"])
        except SubmissionError as exc:
            raise CommandError(f"{options['path']} was not submitted: {exc}") from None
        replaces = f"; replaces version {version.predecessor.number}" if version.predecessor else ""
        self.stdout.write(
            f"{version.bot} version {version.number}: {version.get_status_display()} "
            f"(sha256 {version.archive_sha256}, {version.archive_size} bytes, entry {version.entry}{replaces})"
        )

    def owner(self, username: str, create: bool) -> Any:
        users = get_user_model()
        try:
            return users.objects.get_by_natural_key(username)
        except users.DoesNotExist:
            if not create:
                raise CommandError(f"no user {username!r}; pass --create-owner to create it") from None
        try:
            users._meta.get_field(users.USERNAME_FIELD).run_validators(username)
        except ValidationError as exc:
            raise CommandError(f"cannot create user {username!r}: {' '.join(exc.messages)}") from None
        user = users(**{users.USERNAME_FIELD: username})
        user.set_unusable_password()  # an operator sets one (changepassword) if the owner is to log in
        user.save()
        self.stdout.write(f"Created user {username!r}")
        return user
