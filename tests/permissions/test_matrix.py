"""The permission matrix: every route of the URL conf, each method it answers, each of eight
roles (``world.ROLES``), with A's objects (``own``) and with B's objects (``mixed``: under A's
event in the path or in the body, or alone where the path names no event), one test each:
``test_permission[<route>-<method>-<variant>-<role>]``.

Every route found in the URL conf must have a stated expectation (``expect_pages.PAGES`` or
``expect_api.API``; a route without a name is stated by its path, "/favicon.ico"), and every
expectation must name a route that exists. Left out, on
purpose: ``/admin/`` (Django's admin), ``/static/``, ``/api/schema/`` and ``/api/docs/`` (the
OpenAPI schema and its viewer) and ``/accounts/`` (Django's own sign-in views).

A refused write must change nothing (``snapshot.state``; when the database says no row was
written, the tables are not read again); an allowed write about A must not touch B's rows; an
allowed request about table 1 must be about A's table 1 (``checks``), since every event has one.
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib import messages
from django.shortcuts import resolve_url
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from tests.permissions.expect_api import API
from tests.permissions.expect_pages import PAGES
from tests.permissions.known_bugs import KNOWN_BUGS
from tests.permissions.snapshot import differences, rows_written, side_b, state
from tests.permissions.spec import OK, Outcome
from tests.permissions.world import ROLES

SKIPPED = ("admin/", "static/", "api/schema/", "api/docs/", "accounts/")
ROUTES = {**PAGES, **API}
METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
HERE = "tests/permissions/expect_pages.py (pages) or tests/permissions/expect_api.py (API)"


class WrongStatus(AssertionError):
    """The answer is not the expected outcome (the only failure a known bug may excuse)."""


def _walk(resolver: URLResolver, prefix: str = ""):
    for pattern in resolver.url_patterns:
        path = prefix + str(pattern.pattern)
        if path.startswith(SKIPPED):
            continue
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern, path)
        elif isinstance(pattern, URLPattern):
            yield path, pattern


def url_conf() -> dict[str, URLPattern]:
    """Every route by name; a route without a name by its path ("/favicon.ico")."""
    return {pattern.name or f"/{path}": pattern for path, pattern in _walk(get_resolver())}


def test_every_route_has_a_stated_expectation():
    missing = sorted(set(url_conf()) - set(ROUTES))
    assert not missing, "\n".join(
        f"route {name} has no stated expectation: add it to {HERE}" for name in missing
    )


def test_every_expectation_names_a_route_that_exists():
    stale = sorted(set(ROUTES) - set(url_conf()))
    assert not stale, "\n".join(
        f"the expectation for {name} names no route of the URL conf: remove it" for name in stale
    )
    assert not set(PAGES) & set(API), "a route is stated twice"


def test_every_api_method_has_a_stated_expectation():
    """An API view's handlers (get, post, patch...) are exactly the methods stated for it."""
    wrong = []
    for name, pattern in url_conf().items():
        view = getattr(pattern.callback, "cls", None)
        if view is None or name not in ROUTES:
            continue
        answers = {m for m in METHODS if hasattr(view, m.lower())}
        if answers != set(ROUTES[name]):
            stated = sorted(ROUTES[name])
            wrong.append(f"{name}: the view answers {sorted(answers)}, stated {stated}")
    assert not wrong, "\n".join(wrong)


def test_every_variant_names_every_role_once():
    for name, methods in ROUTES.items():
        for method, spec in methods.items():
            for variant, v in spec.variants.items():
                assert list(v.expect) == list(ROLES), (name, method, variant)
    for key in KNOWN_BUGS:
        route, method, variant, role = key
        assert variant in ROUTES[route][method].variants and role in ROLES, key


def cases():
    for route, methods in sorted(ROUTES.items()):
        for method, spec in methods.items():
            for variant in spec.variants:
                for role in ROLES:
                    bug = KNOWN_BUGS.get((route, method, variant, role))
                    marks = [pytest.mark.xfail(strict=True, raises=WrongStatus, reason=bug)]
                    yield pytest.param(
                        route, method, variant, role,
                        id=f"{route}-{method}-{variant}-{role}", marks=marks if bug else [],
                    )  # fmt: skip


def _send(client, method, url, body, spec):
    if spec.api:
        kwargs = {"format": "json"} if method != "GET" else {}
        return getattr(client, method.lower())(url, body, **kwargs)
    return getattr(client, method.lower())(url, body)


def _errors(response) -> list[str]:
    storage = getattr(response.wsgi_request, "_messages", None)
    return [str(m) for m in storage or [] if m.level >= messages.ERROR]


def _is_login(location: str) -> bool:
    return location.startswith((resolve_url(settings.LOGIN_URL), reverse("admin:login")))


def check_outcome(response, expected: Outcome, ok: int) -> None:
    status, location = response.status_code, response.get("Location", "")
    errors = _errors(response) if status == 302 else []
    redirect = status == 302 and not _is_login(location)
    good = {
        Outcome.OK: status == ok and (status != 302 or (redirect and not errors)),
        Outcome.LOGIN: status == 302 and location.startswith(resolve_url(settings.LOGIN_URL)),
        Outcome.ADMIN_LOGIN: status == 302 and location.startswith(reverse("admin:login")),
        Outcome.DENIED: status == 403,
        Outcome.HIDDEN: status == 404,
        Outcome.ANON_API: status in (401, 403),
        Outcome.INVALID: status == 400,
        Outcome.FLASH_ERROR: redirect and bool(errors),
        Outcome.PROPOSED: status == 202,
    }[expected]
    if not good:
        shown = f"{status}" + (f" to {location}" if location else "")
        shown += f" {errors}" if errors else ""
        if expected is OK and status != ok:
            shown += f" (allowed is {ok})"
        raise WrongStatus(f"expected {expected.value}, got {shown}: {response.content[:300]!r}")


def _before(world, name: str, read, fresh: bool):
    """``read()`` now; the world as built is read once (a test starts from it, unless its
    route's ``prepare`` changed something first)."""
    if fresh:
        return read()
    if name not in world.baseline:
        world.baseline[name] = read()
    return world.baseline[name]


def _request(world, route, method, spec, v, role):
    client = APIClient()
    if world.users[role] is not None:
        client.force_login(world.users[role])
    kwargs = dict(v.url(world))
    params = kwargs.pop("?", None)
    url = route if route.startswith("/") else reverse(route, kwargs=kwargs)
    url += f"?{urlencode(params)}" if params else ""
    body = v.body(world) if callable(v.body) else v.body
    return lambda: _send(client, method, url, body or {}, spec)


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "method", "variant", "role"), list(cases()))
def test_permission(world, route, method, variant, role):
    spec = ROUTES[route][method]
    v = spec.variants[variant]
    expected = v.expect[role]
    if spec.prepare:
        spec.prepare(world)
    send = _request(world, route, method, spec, v, role)
    fresh = spec.prepare is not None
    if method == "GET":
        response = send()
    elif expected not in (OK, Outcome.PROPOSED):  # refused: nothing at all changes
        before = _before(world, "all", state, fresh)
        written = rows_written()
        response = send()
        if written is None or rows_written() != written:
            changed = differences(before, state())
            assert not changed, f"refused ({expected.value}) for {role}, yet it changed {changed}"
    else:  # allowed: about A's objects, B's rows stay as they were
        before = _before(world, "B", lambda: side_b(world), fresh or variant != "own")
        response = send()
        if variant == "own":
            changed = differences(before, side_b(world))
            assert not changed, f"a request about A's objects changed B's: {changed}"
    check_outcome(response, expected, spec.ok)
    if expected is OK and variant == "own" and spec.check:
        spec.check(world, response)
