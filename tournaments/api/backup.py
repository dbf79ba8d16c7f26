"""API: an event's backup, for its directors (see ``tournaments.services.backup``), and the
event a venue laptop sends back (``manage.py push_event``: the backup, imported here)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers_events import EventDirectorSerializer
from tournaments.selectors.access import event_get_for_director, event_import_check
from tournaments.services.backup_export import event_backup_download
from tournaments.services.backup_import import event_import


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


class EventImportView(APIView):
    """Restore an event here from its backup (the document ``GET /events/<id>/backup/`` gives,
    sent as the body): how an event run on a venue laptop reaches the main site
    (``manage.py push_event``). Site administrators only (``event_import_check``): a backup's
    players join the records of the players known here. The sender directs it here, beside the
    roles the file names.
    Nothing is saved when it is refused; an event of the same name and date already here is a
    409 ``duplicate`` saying how to go on."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=OpenApiTypes.OBJECT, responses={201: EventDirectorSerializer})
    def post(self, request):
        event_import_check(user=request.user)
        event = event_import(data=request.data, user=request.user, sender_directs=True)
        return Response(EventDirectorSerializer(event).data, status=status.HTTP_201_CREATED)
