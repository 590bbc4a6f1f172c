"""docker-compose.yml: the production stack is complete, and match workers hold no secrets.

These machines have no Docker engine, so the file is checked as data.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_it_has_every_service_of_the_stack() -> None:
    assert set(COMPOSE["services"]) == {"postgres", "redis", "web", "platform-worker", "beat", "worker"}


def test_it_gives_match_workers_the_broker_and_nothing_secret() -> None:
    worker = COMPOSE["services"]["worker"]
    assert worker["environment"] == {"ARENA_BROKER_URL": "redis://redis:6379/0"}
    assert "matches" in worker["command"]
    assert "artifacts:/artifacts:ro" in worker["volumes"]


def test_it_points_platform_services_at_postgres_redis_and_the_artifact_store() -> None:
    for name in ("web", "platform-worker", "beat"):
        environment = COMPOSE["services"][name]["environment"]
        assert environment["ARENA_DATABASE_URL"].startswith("postgres://")
        assert environment["ARENA_BROKER_URL"] == "redis://redis:6379/0"
        assert environment["ARENA_SECRET_KEY"].startswith("${ARENA_SECRET_KEY:?")  # refuses to start without one


def test_it_builds_every_service_from_the_projects_dockerfile() -> None:
    for name in ("web", "platform-worker", "beat", "worker"):
        build = COMPOSE["services"][name]["build"]
        assert (ROOT / build["context"] / build["dockerfile"]).exists()
