"""docker-compose.yml: the production stack is complete, and match workers hold no secrets.

These machines have no Docker engine, so the file is checked as data.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from workers.slots import DEFAULT_SLOT_DIR, SLOT_DIR_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_it_has_every_service_of_the_stack() -> None:
    assert set(COMPOSE["services"]) == {"postgres", "redis", "proxy", "web", "platform-worker", "beat", "worker"}


def test_it_gives_match_workers_the_broker_and_nothing_secret() -> None:
    worker = COMPOSE["services"]["worker"]
    assert worker["environment"] == {"ARENA_BROKER_URL": "redis://redis:6379/0"}
    assert "matches" in worker["command"]
    # No shared files with the platform: archives come by signed URL from web (tests/arena/test_multi_host.py).
    assert worker["volumes"] == ["/sys/fs/cgroup:/sys/fs/cgroup:rw", f"{DEFAULT_SLOT_DIR}:{DEFAULT_SLOT_DIR}:rw"]


def test_every_match_worker_container_leases_bot_uids_in_the_hosts_one_slot_directory() -> None:
    # Containers number their processes from 1 each: only a lock in one directory of the host keeps
    # two of them from running bots as one host uid (workers/slots.py). The host path is fixed, so
    # every container of a scaled-out worker mounts the same one, where the allocator looks by default.
    worker = COMPOSE["services"]["worker"]
    mounts = [volume.split(":") for volume in worker["volumes"]]
    assert [mount for mount in mounts if mount[1] == DEFAULT_SLOT_DIR] == [[DEFAULT_SLOT_DIR, DEFAULT_SLOT_DIR, "rw"]]
    assert SLOT_DIR_VARIABLE not in worker["environment"]
    others = [name for name, service in COMPOSE["services"].items() if name != "worker" and "volumes" in service]
    assert not [name for name in others if any(DEFAULT_SLOT_DIR in v for v in COMPOSE["services"][name]["volumes"])]


def test_it_points_platform_services_at_postgres_redis_and_the_artifact_store() -> None:
    for name in ("web", "platform-worker", "beat"):
        environment = COMPOSE["services"][name]["environment"]
        assert environment["ARENA_DATABASE_URL"].startswith("postgres://")
        assert environment["ARENA_BROKER_URL"] == "redis://redis:6379/0"
        assert environment["ARENA_SECRET_KEY"].startswith("${ARENA_SECRET_KEY:?")  # refuses to start without one
        assert environment["ARENA_ARTIFACT_BASE_URL"] == "${ARENA_ARTIFACT_BASE_URL:-http://web:8000}"


def test_it_builds_every_service_from_the_projects_dockerfile() -> None:
    for name in ("web", "platform-worker", "beat", "worker"):
        build = COMPOSE["services"][name]["build"]
        assert (ROOT / build["context"] / build["dockerfile"]).exists()


def test_web_runs_migrations_collects_static_files_and_then_gunicorn() -> None:
    web = COMPOSE["services"]["web"]
    script = web["command"][-1]
    steps = [step.strip() for step in script.split("&&")]
    assert steps[0] == "python manage.py migrate --noinput"
    assert steps[1] == "python manage.py collectstatic --noinput"
    assert steps[2].startswith("exec gunicorn arena.wsgi:application --bind 0.0.0.0:8000 --workers 3")
    assert "runserver" not in script
    # gunicorn's requests get the web's database timeouts, inside its own (arena/settings.py); migrate does not.
    assert "--timeout 30 --env ARENA_PROCESS_ROLE=web" in steps[2]
    assert "ARENA_PROCESS_ROLE" not in steps[0]
    assert "static:/app/var/static" in web["volumes"]  # STATIC_ROOT: var/static under the image's /app
    assert "ports" not in web  # reached through the proxy only


def test_the_proxy_serves_static_files_and_passes_the_rest_to_gunicorn() -> None:
    proxy = COMPOSE["services"]["proxy"]
    assert proxy["ports"] == ["8000:8000"]
    assert "static:/srv/static:ro" in proxy["volumes"]
    (config,) = proxy["configs"]
    site = COMPOSE["configs"][config["source"]]["content"]
    assert config["target"] == "/etc/nginx/conf.d/default.conf"
    assert "location /static/ {\n    alias /srv/static/;" in site
    assert "proxy_pass http://web:8000;" in site
    # compose interpolates "$": nginx variables must be written "$$" to reach nginx intact.
    assert "$$remote_addr" in site
    assert "$remote_addr" not in site.replace("$$", "")
    assert "client_max_body_size 21m;" in site  # bot archives go up to 20 MB


def test_every_service_comes_back_by_itself_after_it_dies() -> None:
    # The second line of defence after each process's own reconnection (docs/operations.md).
    for name, service in COMPOSE["services"].items():
        assert service.get("restart") == "unless-stopped", name
