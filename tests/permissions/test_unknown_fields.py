"""Every write operation of the OpenAPI schema (POST, PUT, PATCH) refuses a field it does not
take: a 400 naming the field, nothing written (issue 22, item 14: ``PATCH /events/<id>/
{"entry_fee_cents": 5000}`` answered 200 and stored nothing).

The operations are read from the schema itself, one test each; each is sent as someone who
may use it, with the permission matrix's valid body (``expect_api.API``) and its ``prepare``,
plus one unknown field, so the only thing wrong with the request is that field. An operation
of the schema without a recipe in the matrix fails ``test_every_write_operation_is_reached``:
nothing is skipped without a reason listed here (``NOT_REACHED``, empty).
"""

from __future__ import annotations

import re

import pytest
from django.urls import get_resolver, reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.permissions.expect_api import API
from tests.permissions.snapshot import differences, rows_written, state
from tests.permissions.spec import OK, Outcome
from tests.permissions.test_matrix import _walk, url_conf

UNKNOWN = "surprise_field"
WRITES = ("post", "put", "patch")
# Who sends the request: the first of these the matrix allows (or, for an operation nobody
# may complete with the matrix's body, the first it lets past the permission check).
SENDERS = ("admin", "director", "player", "judge", "cross_checker", "anonymous")
NOT_REACHED: dict[str, str] = {}  # "post /api/v1/...": why it is not sent


def _schema_path(pattern: str) -> str:
    """A URL conf pattern as the schema writes it: ``api/v1/x/<int:id>/`` -> ``/api/v1/x/{id}/``."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", pattern)


def _routes_by_schema_path() -> dict[str, str]:
    return {_schema_path(path): p.name or f"/{path}" for path, p in _walk(get_resolver())}


def write_operations() -> list[str]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        f"{method} {path}"
        for path, operations in schema["paths"].items()
        for method in operations
        if method in WRITES
    ]


OPERATIONS = write_operations()


def _recipe(operation: str):
    method, path = operation.split(" ", 1)
    route = _routes_by_schema_path().get(path)
    assert route is not None, f"{operation}: no route of the URL conf has this path"
    spec = API.get(route, {}).get(method.upper())
    assert spec is not None, f"{operation}: no recipe in tests/permissions/expect_api.py"
    return route, spec


def test_every_write_operation_is_reached():
    """Every write operation of the schema has a recipe (so it is sent below), and the schema
    still has as many as when this test was written (a schema that lost its operations would
    otherwise make the walk pass by sending nothing)."""
    assert len(OPERATIONS) >= 56, OPERATIONS
    assert set(NOT_REACHED) <= set(OPERATIONS)
    for operation in OPERATIONS:
        if operation not in NOT_REACHED:
            _recipe(operation)
    assert set(url_conf()) >= {route for route, _ in map(_recipe, OPERATIONS)}


def _sender(spec) -> str:
    expect = spec.variants["own"].expect
    for wanted in (OK, Outcome.PROPOSED, Outcome.INVALID):
        for role in SENDERS:
            if expect[role] is wanted:
                return role
    raise AssertionError(f"nobody gets past the permission check: {expect}")


@pytest.mark.django_db
@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op not in NOT_REACHED])
def test_an_unknown_field_is_refused_naming_it(world, operation):
    route, spec = _recipe(operation)
    method = operation.split(" ", 1)[0]
    variant = spec.variants["own"]
    if spec.prepare:
        spec.prepare(world)
    client = APIClient()
    user = world.users[_sender(spec)]
    if user is not None:
        client.force_login(user)
    kwargs = dict(variant.url(world))
    kwargs.pop("?", None)
    body = variant.body(world) if callable(variant.body) else variant.body
    body = {**(body or {}), UNKNOWN: "x"}
    before, written = state(), rows_written()
    response = getattr(client, method)(reverse(route, kwargs=kwargs), body, format="json")
    assert response.status_code == 400, f"{operation}: {response.status_code} {response.content!r}"
    fields = [error["field"] for error in response.json()["errors"]]
    assert fields == [UNKNOWN], f"{operation}: {response.json()}"
    if written is None or rows_written() != written:
        assert not differences(before, state()), f"{operation} wrote though it refused"
