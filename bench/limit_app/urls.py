"""The one endpoint: a report at its least (see the package's docstring)."""

from django.db import connection, transaction
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


urlpatterns = [path("limit/<str:token>/", Report.as_view())]
