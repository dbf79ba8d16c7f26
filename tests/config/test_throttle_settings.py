"""The limits' settings (README "Limits" and the Production table): where they count, the rates
and the trusted proxies, read from the environment; a bad value stops the start, naming it."""

import json
import secrets
import subprocess
import sys

import pytest

from tests.conftest import REPO, subprocess_env

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "pegboard.example.org",
    "DATABASE_URL": "postgres://pegboard@db.example.org:5432/pegboard",
    "CELERY_BROKER_URL": "redis://redis.example.org:6379/0",
}

SHOW = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "c = s.CACHES['throttle']; r = s.REST_FRAMEWORK; "
    "print(json.dumps([c['BACKEND'].rsplit('.', 1)[1], c.get('LOCATION'), "
    "r['DEFAULT_THROTTLE_RATES'], r['NUM_PROXIES']]))"
)


def _settings(**env):
    environment = subprocess_env(DJANGO_SETTINGS_MODULE="config.settings", **PRODUCTION)
    for name, value in env.items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("env", "backend", "location"),
    [
        ({}, "RedisCache", "redis://redis.example.org:6379/1"),
        ({"CELERY_BROKER_URL": "redis://:pw@r:6379/1"}, "RedisCache", "redis://:pw@r:6379/2"),
        ({"THROTTLE_CACHE_URL": "redis://limits:6379/3"}, "RedisCache", "redis://limits:6379/3"),
        ({"THROTTLE_CACHE_URL": "locmem://"}, "LocMemCache", "throttle"),
        ({"CELERY_BROKER_URL": None}, "LocMemCache", "throttle"),
    ],
)
def test_where_the_limits_count(env, backend, location):
    result = _settings(**env)
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown[:2] == [backend, location]


def test_the_rates_and_proxies_by_default_and_as_set():
    default = json.loads(_settings().stdout)
    rates = {
        "anon_read": "120/min",
        "user_read": "600/min",
        "staff_read": "1200/min",
        "link_misses": "30/min",
        "anon_write": "20/hour",
    }
    assert default[2:] == [rates, 0]
    result = _settings(
        THROTTLE_ANON_RATE="600/hour",
        THROTTLE_USER_READ_RATE="50/s",
        THROTTLE_STAFF_READ_RATE="100/s",
        THROTTLE_LINK_MISSES_RATE="10/min",
        THROTTLE_ANON_WRITE_RATE="5/min",
        NUM_PROXIES="1",
    )
    rates = {
        "anon_read": "600/hour",
        "user_read": "50/s",
        "staff_read": "100/s",
        "link_misses": "10/min",
        "anon_write": "5/min",
    }
    assert json.loads(result.stdout)[2:] == [rates, 1]


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("THROTTLE_ANON_RATE", "lots", "THROTTLE_ANON_RATE='lots' is not a rate"),
        ("THROTTLE_LINK_MISSES_RATE", "0/min", "THROTTLE_LINK_MISSES_RATE='0/min' is not a rate"),
        ("THROTTLE_USER_READ_RATE", "600", "THROTTLE_USER_READ_RATE='600' is not a rate"),
        ("THROTTLE_STAFF_READ_RATE", "1/week", "THROTTLE_STAFF_READ_RATE='1/week' is not a rate"),
        ("THROTTLE_CACHE_URL", "memcached://m:11211", "THROTTLE_CACHE_URL='memcached://m:11211'"),
        ("NUM_PROXIES", "one", "NUM_PROXIES='one' is not a whole number"),
    ],
)
def test_bad_values_stop_the_start_naming_the_variable(name, value, message):
    result = _settings(**{name: value})
    assert result.returncode != 0
    assert message in result.stderr
