"""The ``Idempotency-Key`` header of the player's report endpoints (``services.idempotency``):
how a view reads it, runs its write once per (link, key), and says so in the OpenAPI schema."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from tournaments.services.conflicts import read_again_on_drop
from tournaments.services.idempotency import (
    HEADER,
    idempotency_key_clean,
    keyed_write,
)

KEY_PARAMETER = OpenApiParameter(
    HEADER,
    str,
    location=OpenApiParameter.HEADER,
    required=False,
    description=(
        "A random value (a UUID; 8 to 100 of A-Z a-z 0-9 . _ : -) the phone makes once per "
        "report and sends with every try of it. The first answer that saved the report is kept "
        "for IDEMPOTENCY_KEY_HOURS (48): the same key with the same body gets that answer again "
        "(same status and body, header `Idempotent-Replayed: true`) and writes nothing, even "
        "after the table was verified or corrected; the same key with another body is a 409 "
        "`idempotency_conflict`. A refused report (400) is not kept: fix it and send it again. "
        "Without the header a report is saved each time it is sent. Ignored with `preview`."
    ),
)

CONFLICT = OpenApiResponse(
    inline_serializer(
        "IdempotencyConflict",
        {
            "errors": inline_serializer(
                "IdempotencyConflictError",
                {
                    "field": serializers.CharField(),
                    "code": serializers.CharField(),
                    "message": serializers.CharField(),
                },
                many=True,
            )
        },
    ),
    description="`idempotency_conflict`: this Idempotency-Key was already used for another "
    "body from this link; the first report was kept. Send other figures with a new key.",
)


def keyed_answer(
    request, *, entry, print_: str, status: int, write: Callable, answer: Callable
) -> Response | None:
    """The answer of a keyed report (written once, or replayed), or None when the request has
    no key: the view then writes as it always did. A key first sent from the page's form kept
    no body: its replay is answered with the state as it is now."""
    key = idempotency_key_clean(request.headers.get(HEADER))
    if key is None:
        return None
    done = keyed_write(
        entry=entry,
        key=key,
        print_=print_,
        status=status,
        write=write,
        answer=lambda: read_again_on_drop(answer),
    )
    body = done.body if done.body is not None else read_again_on_drop(answer)
    response: Any = Response(body, status=status if done.body is None else done.status)
    if done.replayed:
        response["Idempotent-Replayed"] = "true"
    return response
