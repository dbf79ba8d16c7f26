"""JSON bodies nested past ``MAX_DEPTH`` are a 400 in the API's error shape, never a
RecursionError: on the endpoints the attacker's probe named, and on every operation of the
schema that takes JSON."""

from __future__ import annotations

import io
import re

import pytest
from rest_framework.exceptions import ParseError
from rest_framework.test import APIClient

from tournaments.api.parsers import MAX_DEPTH, JSONParser, json_depth

DEEP = 50_000
DEEP_ARRAY = "[" * DEEP + "]" * DEEP
DEEP_OBJECT = '{"a":' * DEEP + "1" + "}" * DEEP


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ('"[[[{{{"', 0),
        ("[]", 1),
        ('{"a": [1, {"b": []}]}', 4),
        (r'["a \"[[[ quoted", ["b"]]', 2),
        (r'["a backslash \\", [["c"]]]', 3),
        ('["never closed', 1),
        ('"\\', 0),
        ("[[]][[[]]]", 3),
        (DEEP_ARRAY, DEEP),
        (DEEP_OBJECT, DEEP),
    ],
)
def test_depth_counts_brackets_outside_strings(text, depth):
    assert json_depth(text) == depth


def _parse(text: str):
    return JSONParser().parse(io.BytesIO(text.encode()), "application/json", {})


def test_the_limit_itself_is_accepted_and_one_more_is_refused():
    assert _parse("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(ParseError) as refused:
        _parse("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert refused.value.get_codes() == "too_deep"


def test_what_drf_refused_is_still_refused_the_same_way():
    with pytest.raises(ParseError, match="JSON parse error"):
        _parse("{not json")
    with pytest.raises(ParseError, match="JSON parse error"):
        _parse("[NaN]")  # STRICT_JSON, as DRF's own parser


def too_deep(response) -> None:
    assert response.status_code == 400, response.content[:300]
    (error,) = response.json()["errors"]
    assert error["field"] is None and error["code"] == "too_deep"
    assert f"nested {DEEP} levels deep; at most {MAX_DEPTH}" in error["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
@pytest.mark.parametrize("path", ["/api/v1/count/hand/", "/api/v1/count/play/"])
def test_the_count_checkers_refuse_a_deep_body(path, body):
    too_deep(APIClient().post(path, body, content_type="application/json"))


@pytest.mark.django_db
@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_the_token_endpoint_refuses_a_deep_body(body):
    too_deep(APIClient().post("/api/v1/auth/token/", body, content_type="application/json"))


@pytest.mark.django_db
@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT], ids=["array", "object"])
def test_a_players_report_refuses_a_deep_body(event_in_play, body):
    """(The playoff match's report: ``test_private_answers.py``, which has a match.)"""
    token = event_in_play(10).entries.first().report_token
    too_deep(APIClient().post(f"/api/v1/report/{token}/", body, content_type="application/json"))


def _schema() -> dict:
    return APIClient().get("/api/schema/", {"format": "json"}).json()


def _depth_of(schema: dict, components: dict, seen: frozenset = frozenset()) -> int:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        assert name not in seen, f"{name} refers to itself: no depth limit can hold it"
        return _depth_of(components[name], components, seen | {name})
    for key in ("allOf", "oneOf", "anyOf"):
        if key in schema:
            return max(_depth_of(s, components, seen) for s in schema[key])
    if schema.get("type") == "array":
        return 1 + _depth_of(schema.get("items", {}), components, seen)
    if schema.get("type") == "object":
        inner = list(schema.get("properties", {}).values())
        if isinstance(schema.get("additionalProperties"), dict):
            inner.append(schema["additionalProperties"])
        return 1 + max((_depth_of(s, components, seen) for s in inner), default=0)
    return 0


def _json_operations(schema: dict):
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                yield path, method, content["application/json"]["schema"]


@pytest.mark.django_db
def test_the_limit_leaves_room_over_the_deepest_documented_body():
    """parsers.py says why 32: the deepest body the API documents is 3 levels."""
    schema = _schema()
    components = schema["components"]["schemas"]
    depths = [_depth_of(body, components) for _, _, body in _json_operations(schema)]
    assert max(depths) == 3
    assert 10 * max(depths) <= MAX_DEPTH


@pytest.mark.django_db
def test_every_operation_that_takes_json_refuses_a_deep_body(event_in_play):
    """As the event's director (who may use every operation on it), with its real ids: each
    operation parses the body and answers 400 too_deep; none is a server error."""
    event = event_in_play(10)
    table = event.games.get(number=1).tables.order_by("number").first()
    entry = table.seats.first().entry
    known = {
        "event_id": event.pk,
        "number": 1,
        "table_number": table.number,
        "token": entry.report_token,
        "entry_id": entry.pk,
        "player_id": entry.player_id,
    }
    api = APIClient()
    api.force_authenticate(event.director)
    answers = {}
    for path, method, _ in _json_operations(_schema()):
        url = re.sub(r"\{(\w+)\}", lambda m: str(known.get(m.group(1), 1)), path)
        response = getattr(api, method)(url, DEEP_ARRAY, content_type="application/json")
        assert response.status_code in (400, 403, 404), f"{method} {path}"
        if response.status_code == 400:
            too_deep(response)
        answers[f"{method} {path}"] = response.status_code
    refused = {op for op, status in answers.items() if status == 400}
    # Operations on objects this event does not have (a club, a playoff match, the
    # administrators' merges) are refused before their body is read; the rest refuse the body.
    assert len(refused) >= 16, answers
    assert {"post /api/v1/count/hand/", "post /api/v1/auth/token/"} <= refused
