"""Schemathesis fuzzes every operation of the live API from its own schema: no 5xx, every answer as documented.

The app runs on pytest-django's live server against the PostgreSQL test
database, holding real data (users, bots, versions, a running season with a
recorded series played in the sandbox). Requests carry a real token, so the
write operations (uploads, tokens) are fuzzed past authentication. Each
operation gets valid requests (positive) and requests that break its schema
(negative). The seed and the number of examples are fixed, so a run is
repeatable. Bugs it found and that are fixed: paths that match no route (an
id that is not a number) answered with the site's HTML 404 page, and a POST
to one with Django's HTML CSRF page; both are now JSON 404s.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from arena.api.models import ApiToken
from arena.api.tokens import issue_token, key_digest

#: Long: run first, so the suite's workers overlap it with the rest (tests/conftest.py).
pytestmark = pytest.mark.slow

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
EXAMPLES_PER_OPERATION = 20
SEED = 20260101


@pytest.fixture
def fuzz_target(live_server: Any, recorded_season: Any, owner: Any, staff: Any) -> dict[str, Any]:
    """The live server's URL and a holder of owner's current key (the fuzzer may revoke it)."""
    return {"url": live_server.url, "user": owner, "key": issue_token(owner, "fuzzing")[1]}


def working_key(target: dict[str, Any]) -> str:
    """Return the fuzzing key, issuing a new one if a fuzzed revoke call revoked it."""
    if not ApiToken.objects.filter(key_sha256=key_digest(target["key"]), revoked_at__isnull=True).exists():
        target["key"] = issue_token(target["user"], "fuzzing")[1]
    return target["key"]


def fuzz_operation(operation: Any, mode: GenerationMode, target: dict[str, Any]) -> None:
    """Send ``EXAMPLES_PER_OPERATION`` generated requests to one operation; raise at the first failed check."""

    @given(case=operation.as_strategy(generation_mode=mode))
    @seed(SEED)
    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure is reported as found
        suppress_health_check=list(HealthCheck),
    )
    def run(case: schemathesis.Case) -> None:
        headers = {"Authorization": f"Bearer {working_key(target)}"}
        case.call_and_validate(base_url=target["url"], headers=headers, checks=CHECKS, timeout=30)

    run()


# The schemathesis pytest plugin's lazy schema (schemathesis.pytest.from_fixture) needs a pytest
# older than ours (it sets Function._nodeid), so the operations are walked here, one hypothesis run each.
@pytest.mark.django_db(transaction=True)
def test_every_operation_answers_as_documented(fuzz_target: dict[str, Any]) -> None:
    schema = schemathesis.openapi.from_url(f"{fuzz_target['url']}/api/schema/?format=json")
    failures = []
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                fuzz_operation(operation, mode, fuzz_target)
            except Unsatisfiable:
                pass  # no parameter whose value can be made invalid (GET /api/games/): nothing to negate
            except Exception as exc:  # every operation is fuzzed; all failures are reported together
                failures.append(f"{operation.label} ({mode.value}): {exc}")
    assert operations >= 20
    assert not failures, "\n\n".join(failures)
