"""``manage.py serve``: the living site on an existing database, without replaying the demo.

Migrates the database, then serves the site at http://127.0.0.1:8000/ with
the ladder running in this process on the embedded default (arena.embedded:
the matchmaker's ticks, sandboxed series, recording, validations, the sweeper
and the inbox's safety net) until Ctrl-C or SIGTERM (a container's or a
service manager's stop), which let the series being played finish and be
recorded. Series and validations a previous stop left queued are played first.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.embedded import serve, sigterm_as_ctrl_c
from arena.ops.management.commands.demo import check_port


class Command(BaseCommand):
    help = "Serve the site with the ladder running (the embedded default), without replaying the demo seasons."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--port", type=int, default=8000, help="port to serve the site on (default 8000)")
        parser.add_argument("--workers", type=int, default=None, help="series played at a time (default: one per core)")

    def handle(self, *args: Any, **options: Any) -> None:
        with sigterm_as_ctrl_c():
            self.serve(options)

    def serve(self, options: dict[str, Any]) -> None:
        check_port(options["port"])
        if options["workers"] is not None and options["workers"] <= 0:
            raise CommandError("--workers must be positive")
        call_command("migrate", verbosity=0, interactive=False)
        self.stdout.write(f"The site: http://127.0.0.1:{options['port']}/")
        serve(self.stdout.write, options["port"], options["workers"])
