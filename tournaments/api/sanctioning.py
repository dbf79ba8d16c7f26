"""API: ACC sanctioning (``services.sanctioning``).

- ``GET /events/<id>/sanctioning/``: the state (directors and the ACC office): ``state`` is
  ``sanctioned``, ``requested``, ``declined``, ``withdrawn``, ``not_asked`` or
  ``not_sanctionable``, with ``words`` and the office's ``note``.
- ``POST /events/<id>/sanctioning/request/`` and ``.../cancel/``: a director asks the ACC office,
  or takes a waiting request back.
- ``POST /events/<id>/sanctioning/grant/`` (``{"note"}`` optional), ``decline/`` and
  ``revoke/`` (``{"note"}`` required): the ACC office (administrators and people given the
  ``sanction_event`` permission).
- ``GET /sanctioning/requests/``: the requests waiting for the ACC office.

Sanctioning is never an event setting: ``sanctioned`` in a create or settings request is a 400.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import NoteSerializer, no_input
from tournaments.models import Event
from tournaments.selectors.access import (
    event_get_for_director,
    event_get_for_sanction_status,
    event_get_for_sanctioning,
    may_sanction,
)
from tournaments.selectors.sanctioning import event_sanction_status, sanction_requests
from tournaments.services.sanctioning import (
    event_sanction_decline,
    event_sanction_grant,
    event_sanction_request,
    event_sanction_request_withdraw,
    event_sanction_revoke,
)


class SanctionStatusSerializer(serializers.Serializer):
    event_id = serializers.IntegerField(source="event.pk")
    sanctioned = serializers.BooleanField(source="event.sanctioned")
    state = serializers.CharField(source="status.state")
    words = serializers.CharField(source="status.words")
    note = serializers.CharField(source="status.note")
    mrp_note = serializers.CharField(
        source="status.mrp_note",
        help_text="when no published MRP table covers the qualifying length: change it, or "
        "report the MRPs by hand (the ACC package without MRPs); else empty",
    )
    requested_at = serializers.DateTimeField(source="event.sanction_requested_at", allow_null=True)
    decided_at = serializers.DateTimeField(source="event.sanction_decided_at", allow_null=True)


def _status(event: Event) -> dict:
    return {"event": event, "status": event_sanction_status(event=event)}


class SanctionStatusView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=SanctionStatusSerializer)
    def get(self, request, event_id: int):
        event = event_get_for_sanction_status(event_id=event_id, user=request.user)
        return Response(SanctionStatusSerializer(_status(event)).data)


def _view(name: str, doc: str, service, *, office: bool):
    body = NoteSerializer if office else None

    @extend_schema(request=body, responses=SanctionStatusSerializer)
    def post(self, request, event_id: int):
        if office:
            event = event_get_for_sanctioning(event_id=event_id, user=request.user)
            form = NoteSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            event = service(event=event, user=request.user, note=form.validated_data["note"])
        else:
            event = event_get_for_director(event_id=event_id, user=request.user)
            no_input(request)
            event = service(event=event, user=request.user)
        return Response(SanctionStatusSerializer(_status(event)).data)

    attrs = {"__doc__": doc, "permission_classes": [permissions.IsAuthenticated], "post": post}
    return type(name, (APIView,), attrs)


SanctionRequestView = _view(
    "SanctionRequestView", "A director asks the ACC office to sanction the event.",
    event_sanction_request, office=False,
)  # fmt: skip
SanctionCancelView = _view(
    "SanctionCancelView", "A director takes back a request the office has not answered.",
    event_sanction_request_withdraw, office=False,
)  # fmt: skip
SanctionGrantView = _view(
    "SanctionGrantView", "The ACC office sanctions the event.", event_sanction_grant, office=True
)
SanctionDeclineView = _view(
    "SanctionDeclineView", "The ACC office declines a request; ``note`` says why.",
    event_sanction_decline, office=True,
)  # fmt: skip
SanctionRevokeView = _view(
    "SanctionRevokeView", "The ACC office withdraws a sanction; ``note`` says why.",
    event_sanction_revoke, office=True,
)  # fmt: skip


class SanctionRequestListView(GenericAPIView):
    """The requests waiting for the ACC office, oldest first."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = SanctionStatusSerializer
    queryset = Event.objects.none()  # names the model for the schema

    @extend_schema(responses=SanctionStatusSerializer(many=True))
    def get(self, request):
        if not may_sanction(user=request.user):
            raise PermissionDenied("Only the ACC office or an administrator decides sanctioning.")
        page = self.paginate_queryset(sanction_requests())
        return self.get_paginated_response(
            SanctionStatusSerializer([_status(event) for event in page], many=True).data
        )
