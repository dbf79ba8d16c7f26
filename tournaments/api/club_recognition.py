"""API: ACC club recognition (``services.club_recognition``) and a club's history.

- ``GET /clubs/<id>/recognition/``: the state (the club's directors and the ACC office):
  ``state`` is ``recognised``, ``requested``, ``declined``, ``withdrawn`` or ``not_asked``,
  with ``words`` and the office's ``note``.
- ``POST /clubs/<id>/recognition/request/`` and ``.../cancel/``: a club director asks the ACC
  office, or takes a waiting request back.
- ``POST /clubs/<id>/recognition/grant/`` (``{"note"}`` optional), ``decline/`` and
  ``revoke/`` (``{"note"}`` required): the ACC office (administrators and people given the
  ``sanction_event`` permission).
- ``GET /clubs/recognition/requests/``: the requests waiting for the ACC office.
- ``GET /clubs/<id>/history/`` (``kind``: settings, roles, recognition): the club's history,
  newest first (the club's directors and the ACC office).

Recognition is never a club setting: ``recognised`` in a create or settings request is a 400.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import NoteSerializer, no_input
from tournaments.models import Club, ClubAuditEntry
from tournaments.selectors.access import club_get_for_director, club_get_for_office, may_sanction
from tournaments.selectors.club_history import club_audit_entries
from tournaments.selectors.club_recognition import club_recognition_status, recognition_requests
from tournaments.services.club_recognition import (
    club_recognition_decline,
    club_recognition_grant,
    club_recognition_request,
    club_recognition_request_withdraw,
    club_recognition_revoke,
)


class RecognitionStatusSerializer(serializers.Serializer):
    club_id = serializers.IntegerField(source="club.pk")
    name = serializers.CharField(source="club.name")
    recognised = serializers.BooleanField(source="club.recognised")
    state = serializers.CharField(source="status.state")
    words = serializers.CharField(source="status.words")
    note = serializers.CharField(source="status.note")
    requested_at = serializers.DateTimeField(
        source="club.recognition_requested_at", allow_null=True
    )
    recognised_at = serializers.DateTimeField(source="club.recognised_at", allow_null=True)
    decided_at = serializers.DateTimeField(source="club.recognition_decided_at", allow_null=True)


def _status(club: Club) -> dict:
    return {"club": club, "status": club_recognition_status(club=club)}


class RecognitionStatusView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=RecognitionStatusSerializer)
    def get(self, request, club_id: int):
        club = club_get_for_office(club_id=club_id, user=request.user, directors_too=True)
        return Response(RecognitionStatusSerializer(_status(club)).data)


def _view(name: str, doc: str, service, *, office: bool):
    body = NoteSerializer if office else None

    @extend_schema(request=body, responses=RecognitionStatusSerializer)
    def post(self, request, club_id: int):
        if office:
            club = club_get_for_office(club_id=club_id, user=request.user)
            form = NoteSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            club = service(club=club, user=request.user, note=form.validated_data["note"])
        else:
            club = club_get_for_director(club_id=club_id, user=request.user)
            no_input(request)
            club = service(club=club, user=request.user)
        return Response(RecognitionStatusSerializer(_status(club)).data)

    attrs = {"__doc__": doc, "permission_classes": [permissions.IsAuthenticated], "post": post}
    return type(name, (APIView,), attrs)


RecognitionRequestView = _view(
    "RecognitionRequestView", "A club director asks the ACC office to recognise the club.",
    club_recognition_request, office=False,
)  # fmt: skip
RecognitionCancelView = _view(
    "RecognitionCancelView", "A club director takes back a request the office has not answered.",
    club_recognition_request_withdraw, office=False,
)  # fmt: skip
RecognitionGrantView = _view(
    "RecognitionGrantView", "The ACC office recognises the club.", club_recognition_grant,
    office=True,
)  # fmt: skip
RecognitionDeclineView = _view(
    "RecognitionDeclineView", "The ACC office declines a request; ``note`` says why.",
    club_recognition_decline, office=True,
)  # fmt: skip
RecognitionRevokeView = _view(
    "RecognitionRevokeView", "The ACC office withdraws a recognition; ``note`` says why.",
    club_recognition_revoke, office=True,
)  # fmt: skip


class RecognitionRequestListView(GenericAPIView):
    """The clubs waiting for the ACC office's answer, oldest request first."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = RecognitionStatusSerializer
    queryset = Club.objects.none()  # names the model for the schema

    @extend_schema(responses=RecognitionStatusSerializer(many=True))
    def get(self, request):
        if not may_sanction(user=request.user):
            raise PermissionDenied("Only the ACC office or an administrator decides recognition.")
        page = self.paginate_queryset(recognition_requests())
        return self.get_paginated_response(
            RecognitionStatusSerializer([_status(club) for club in page], many=True).data
        )


class ClubAuditEntrySerializer(serializers.ModelSerializer):
    kind = serializers.ChoiceField(choices=ClubAuditEntry.Kind.choices)
    actor_id = serializers.IntegerField(allow_null=True)
    before = serializers.JSONField()
    after = serializers.JSONField()

    class Meta:
        model = ClubAuditEntry
        fields = ["id", "created_at", "actor_id", "actor_name", "kind", "action", "summary",
                  "before", "after"]  # fmt: skip
        read_only_fields = fields


class ClubHistoryQuerySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ClubAuditEntry.Kind.choices, required=False)


class ClubHistoryView(GenericAPIView):
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = ClubAuditEntrySerializer
    queryset = ClubAuditEntry.objects.none()  # names the model for the schema

    @extend_schema(
        parameters=[OpenApiParameter("kind", str, enum=ClubAuditEntry.Kind.values)],
        responses=ClubAuditEntrySerializer(many=True),
    )
    def get(self, request, club_id: int):
        club = club_get_for_office(club_id=club_id, user=request.user, directors_too=True)
        query = ClubHistoryQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = self.paginate_queryset(
            club_audit_entries(club=club, kind=query.validated_data.get("kind"))
        )
        return self.get_paginated_response(ClubAuditEntrySerializer(page, many=True).data)
