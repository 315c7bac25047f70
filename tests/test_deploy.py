"""Production settings: `manage.py check --deploy` stays clean, and DEBUG off demands a SECRET_KEY."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Variables the test decides; DJANGO_ALLOW_ASYNC_UNSAFE is set for browser tests and never in production,
# and DJANGO_SETTINGS_MODULE (pytest's tests.settings) is left out so manage.py loads the real settings.
PRODUCTION_CONTROLLED = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE",
    "REDIS_URL",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run manage.py in a fresh interpreter with exactly the given production-like environment."""
    full_env = {k: v for k, v in os.environ.items() if k not in PRODUCTION_CONTROLLED}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_it_passes_the_deploy_check_under_production_settings() -> None:
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "golf.example.com"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off() -> None:
    result = run_manage("check", env={"DEBUG": "false", "ALLOWED_HOSTS": "golf.example.com"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


SHOW_SETTINGS = (
    "from django.conf import settings; "
    "print(settings.DEBUG, settings.CACHES['default']['BACKEND'], settings.SECURE_SSL_REDIRECT)"
)


def test_it_is_production_when_debug_is_unset() -> None:
    result = run_manage("shell", "-c", SHOW_SETTINGS, env={"SECRET_KEY": secrets.token_urlsafe(50)})
    assert result.returncode == 0, result.stderr
    debug, backend, redirect = result.stdout.strip().splitlines()[-1].split()
    assert (debug, redirect) == ("False", "True")
    # The rate-limit counters must be shared by every process: never a per-process memory cache.
    assert backend == "golfclub.cache.DatabaseCache"


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_unset() -> None:
    result = run_manage("check", env={"ALLOWED_HOSTS": "golf.example.com"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_it_uses_redis_for_the_shared_cache_when_given() -> None:
    result = run_manage(
        "shell",
        "-c",
        SHOW_SETTINGS,
        env={"SECRET_KEY": secrets.token_urlsafe(50), "REDIS_URL": "redis://127.0.0.1:6379/0"},
    )
    assert result.returncode == 0, result.stderr
    assert "golfclub.cache.ResilientRedisCache" in result.stdout  # Redis, the database cache standing in


def test_it_refuses_to_load_the_demo_in_production() -> None:
    result = run_manage("load_demo", env={"SECRET_KEY": secrets.token_urlsafe(50)})
    assert result.returncode != 0
    assert "only runs with DEBUG=true" in result.stderr


def _redis_reachable() -> bool:
    import socket

    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _redis_reachable(), reason="no Redis on 127.0.0.1:6379 to count against")
def test_it_counts_in_redis_when_redis_url_is_given() -> None:
    # The Redis client library must be installed with the app: REDIS_URL alone once gave 500s.
    script = (
        "from django.core.cache import cache; cache.delete('golf-probe'); cache.add('golf-probe', 0, 60); "
        "print(cache.incr('golf-probe'), cache.incr('golf-probe'))"
    )
    env = {"SECRET_KEY": secrets.token_urlsafe(50), "REDIS_URL": "redis://127.0.0.1:6379/5"}
    result = run_manage("shell", "-c", script, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-2:] == ["1", "2"]
