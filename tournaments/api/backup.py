"""API: an event's backup, for its directors (see ``tournaments.services.backup``)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.selectors.access import event_get_for_director
from tournaments.services.backup_export import event_backup_download


class BackupQuerySerializer(serializers.Serializer):
    tokens = serializers.BooleanField(required=False, default=False)


class EventBackupView(APIView):
    """The whole event as one JSON document (format ``pegboard-event``): settings, entries,
    pairings, every card line with its history, rulings, playoffs, money, the history and the
    MRP ledger. Users are named by user name; no passwords. ``?tokens=true`` adds the players'
    private links (keep such a file as safe as the links). Restore it with
    ``manage.py import_event``. Each download is recorded in the event's history."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("tokens", bool, description="Include the private links.")],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        query = BackupQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        document = event_backup_download(
            event=event, user=request.user, include_tokens=query.validated_data["tokens"]
        )
        response = Response(document)
        response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-backup.json"'
        response["Cache-Control"] = "no-store"
        return response
