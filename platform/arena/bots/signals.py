"""Hooks for the work that follows a submission, sent once the database change is committed.

Receivers connect in their app's ``ready()``.

``version_submitted(version)``: a new version waits, in status ``validating``,
for its validation series; ``arena.bots.apps`` connects the receiver that sends
it to the match workers (arena/bots/validation.py), and the result comes back
through :func:`arena.bots.submissions.mark_validation_result`.

``version_activated(version, retired)``: a version passed validation and is
its bot's active version; ``retired`` lists the versions it replaced (its
predecessor among them when that was active). ``arena.ops`` connects the one
receiver (arena/ops/receivers.py) that enters it into seasons with a seeded
rating, then queues its series in the solo seasons it entered.
"""

from __future__ import annotations

from django.dispatch import Signal

version_submitted = Signal()
version_activated = Signal()
