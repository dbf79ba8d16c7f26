"""API: changes to players' records that wait for approval (``services.record_changes``).

- ``GET /players/changes/`` (``?status=pending``): administrators see every change; others the
  ones they proposed and those about their own record.
- ``POST /players/changes/<id>/approve/``: the player (their confirmed account) or an
  administrator applies it; ``decline/`` ``{"note"}`` turns it down with a reason;
  ``withdraw/``: the director who proposed it takes it back.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import NoteSerializer, StrictInput, no_input
from tournaments.models import RecordChange
from tournaments.selectors.access import record_change_get_for_user
from tournaments.selectors.record_changes import record_changes_for_user
from tournaments.services.record_changes import (
    record_change_approve,
    record_change_decline,
    record_change_withdraw,
)


class RecordChangeSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    proposed_by = serializers.CharField(
        source="proposed_by.username", default=None, allow_null=True
    )
    decided_by = serializers.CharField(source="decided_by.username", default=None, allow_null=True)

    class Meta:
        model = RecordChange
        fields = [
            "id", "player", "player_name", "field", "old_value", "new_value", "status",
            "proposed_by", "event", "created_at", "decided_by", "decided_at", "note",
        ]  # fmt: skip
        read_only_fields = fields


class StatusQuerySerializer(StrictInput):
    status = serializers.ChoiceField(choices=RecordChange.Status.choices, required=False)
    limit = serializers.IntegerField(required=False)
    offset = serializers.IntegerField(required=False)


class RecordChangeListView(GenericAPIView):
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = RecordChangeSerializer
    queryset = RecordChange.objects.none()  # names the model for the schema

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=RecordChange.Status.values)],
        responses=RecordChangeSerializer(many=True),
    )
    def get(self, request):
        query = StatusQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        changes = record_changes_for_user(
            user=request.user, status=query.validated_data.get("status")
        )
        page = self.paginate_queryset(changes)
        return self.get_paginated_response(RecordChangeSerializer(page, many=True).data)


class _DecisionView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    def _answer(self, change) -> Response:
        return Response(RecordChangeSerializer(change).data)


class RecordChangeApproveView(_DecisionView):
    @extend_schema(request=None, responses=RecordChangeSerializer)
    def post(self, request, change_id: int):
        change = record_change_get_for_user(change_id=change_id, user=request.user)
        no_input(request)
        return self._answer(record_change_approve(change=change, user=request.user))


class RecordChangeDeclineView(_DecisionView):
    @extend_schema(request=NoteSerializer, responses=RecordChangeSerializer)
    def post(self, request, change_id: int):
        change = record_change_get_for_user(change_id=change_id, user=request.user)
        body = NoteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        note = body.validated_data["note"]
        return self._answer(record_change_decline(change=change, user=request.user, note=note))


class RecordChangeWithdrawView(_DecisionView):
    @extend_schema(request=None, responses=RecordChangeSerializer)
    def post(self, request, change_id: int):
        change = record_change_get_for_user(change_id=change_id, user=request.user)
        no_input(request)
        return self._answer(record_change_withdraw(change=change, user=request.user))
