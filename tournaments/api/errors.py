"""JSON errors that name the field and the rule.

Every API error has the shape ``{"errors": [{"field": ..., "code": ..., "message": ...}]}``:
``field`` is the input field (``null`` when the error is about the request as a whole),
``code`` the rule that was broken (DRF's error code, e.g. ``required``, ``max_value``, or ours).

A service's ``ServiceError`` is a 400 with its field and code (a ``Conflict``, a 409).
When a name may be a player already known, the error carries ``candidates`` (player_id,
name, acc_number, club, events): send the request again with ``player_id`` (or
``new_player``; for an import, ``matches``).
A step refused for several reasons (``Blocked``: the bracket, finalising) lists every one in
``blockers``, each ``{"text", "url"}`` with the page that settles it.
A CSV import's ``RowErrors`` gives one error per bad row: ``field`` is
``rows[<row>].<column>`` and ``row`` the line of the file (the header is line 1), so a
director can find the line in a spreadsheet.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from tournaments.errors import Blocked, Conflict, RowErrors, ServiceError
from tournaments.services.entries import PlayerChoiceNeeded
from tournaments.services.entries_import import ImportChoicesNeeded


def _flatten(detail: Any, codes: Any, field: str | None) -> list[dict[str, Any]]:
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            name = None if key == "non_field_errors" else key
            child = f"{field}.{name}" if field and name else (name or field)
            out.extend(_flatten(value, codes.get(key) if isinstance(codes, dict) else codes, child))
        return out
    if isinstance(detail, list):
        out = []
        for index, item in enumerate(detail):
            code = codes[index] if isinstance(codes, list) and index < len(codes) else codes
            sub = field if not isinstance(item, dict) else f"{field}[{index}]" if field else None
            out.extend(_flatten(item, code, sub))
        return out
    return [{"field": field, "code": str(codes or "invalid"), "message": str(detail)}]


def _candidates(candidates) -> list[dict[str, Any]]:
    return [
        {
            "player_id": c.player.pk,
            "name": c.player.name,
            "acc_number": c.player.acc_number,
            "club": c.player.home_club.name if c.player.home_club else None,
            "events": c.events,
        }
        for c in candidates
    ]


def _service_errors(exc: ServiceError) -> list[dict[str, Any]]:
    if isinstance(exc, ImportChoicesNeeded):
        return [
            {
                "field": f"matches.{row}",
                "row": row,
                "code": exc.code,
                "message": f"Row {row}: {name} may be a player already known; give the "
                'player_id, or "new".',
                "candidates": _candidates(candidates),
            }
            for row, name, candidates in exc.rows
        ] + [
            {
                "field": f"clubs.{name}",
                "rows": rows,
                "code": "confirm_clubs",
                "message": f"No club is called {name!r} (rows {', '.join(map(str, rows))}); "
                'give a club id, "new" to make this club, or "none" to leave it empty.',
            }
            for name, rows in exc.clubs
        ]
    if isinstance(exc, PlayerChoiceNeeded):
        error = {"field": exc.field, "code": exc.code, "message": exc.message}
        return [{**error, "candidates": _candidates(exc.candidates)}]
    if isinstance(exc, RowErrors):
        return [
            {"field": f"rows[{row}].{field}", "row": row, "code": "invalid", "message": message}
            for row, field, message in exc.errors
        ]
    if isinstance(exc, Blocked):
        blockers = [{"text": b.text, "url": b.url} for b in exc.blockers]
        return [{"field": None, "code": exc.code, "message": exc.message, "blockers": blockers}]
    return [{"field": exc.field, "code": exc.code, "message": exc.message}]


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        set_rollback()
        answer = (
            status.HTTP_409_CONFLICT if isinstance(exc, Conflict) else status.HTTP_400_BAD_REQUEST
        )
        return Response({"errors": _service_errors(exc)}, status=answer)
    # DRF turns Django's own exceptions into its own; do it first so the codes are known.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or None)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    detail = getattr(exc, "detail", response.data)
    codes = exc.get_codes() if hasattr(exc, "get_codes") else None
    response.data = {"errors": _flatten(detail, codes, None)}
    return response
