"""The endpoints: a report, a phone's poll and a spectator's page, each at its least (see the
package's docstring)."""

import os

from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseNotFound, HttpResponseNotModified
from django.urls import path
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from bench.limit_app import LINES, TOKENS


class LineInput(serializers.Serializer):
    result = serializers.ChoiceField(choices=["won", "lost"])
    margin = serializers.IntegerField(min_value=1, max_value=121)


class Report(APIView):
    authentication_classes: list = []  # the token in the path is the only credential
    permission_classes: list = []

    def post(self, request, token: str):
        given = LineInput(data=request.data)
        given.is_valid(raise_exception=True)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SELECT id FROM {TOKENS} WHERE token = %s FOR UPDATE", [token])
            row = cursor.fetchone()
            if row is None:
                return Response({"detail": "No such link."}, status=status.HTTP_404_NOT_FOUND)
            cursor.execute(
                f"INSERT INTO {LINES} (token_id, result, margin) VALUES (%s, %s, %s)"
                " RETURNING id, created_at",
                [row[0], given.validated_data["result"], given.validated_data["margin"]],
            )
            line_id, created_at = cursor.fetchone()
        body = {"line": line_id, **given.validated_data, "at": created_at.isoformat()}
        return Response(body, status=status.HTTP_201_CREATED)


# What the bench's product run answers, so that the same generator's phones and spectators
# do the same here: the phones' pace (X-Poll-Seconds) for the field, and the sizes of a live
# part and of the standings page (bytes).
POLL_SECONDS = os.environ.get("LIMIT_POLL_SECONDS", "3.5")
LIVE = b"<p>" + b"x" * int(os.environ.get("LIMIT_LIVE_BYTES", 3000)) + b"</p>"
OPEN_BYTES = int(os.environ.get("LIMIT_OPEN_BYTES", 12_000))
PAGE = b"<p>" + b"x" * int(os.environ.get("LIMIT_PAGE_BYTES", 300_000)) + b"</p>"


def _version(token: str) -> str | None:
    """The token looked up with its version (its lines counted): one statement."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.id, (SELECT count(*) FROM {LINES} l WHERE l.token_id = t.id)"
            f" FROM {TOKENS} t WHERE t.token = %s",
            [token],
        )
        row = cursor.fetchone()
    return None if row is None else f"{row[0]}-{row[1]}"


def open_page(request, token: str):
    """A phone opening its page: the same statement, and a page of the product's page's size
    saying which version it holds and the pace (as the product's page does)."""
    version = _version(token)
    if version is None:
        return HttpResponseNotFound("No such link.")
    said = f'<div data-live-version="{version}" data-live-seconds="{POLL_SECONDS}"></div>'
    body = said.encode() + b"<p>" + b"x" * max(0, OPEN_BYTES - len(said)) + b"</p>"
    return HttpResponse(body, content_type="text/html; charset=utf-8")


def poll(request, token: str):
    """A phone's poll: the token's version in one statement; 304 while the ETag it sent is
    current, else a small part. Paced as the product paces."""
    version = _version(token)
    if version is None:
        return HttpResponseNotFound("No such link.")
    etag = f'"{version}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(LIVE, content_type="text/html; charset=utf-8")
    response["ETag"], response["X-Poll-Seconds"] = etag, POLL_SECONDS
    return response


def standings(request):
    """A spectator's page: bytes kept in memory (the product renders once per change)."""
    return HttpResponse(PAGE, content_type="text/html; charset=utf-8")


urlpatterns = [
    path("limit/open/<str:token>/", open_page),
    path("limit/poll/<str:token>/", poll),
    path("limit/standings/", standings),
    path("limit/<str:token>/", Report.as_view()),
]
