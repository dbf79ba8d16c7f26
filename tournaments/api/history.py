"""API: an event's history, every action of its directors, cross-checkers and judges, newest
first. Filters: ``actor`` (a user id), ``kind`` (settings, entries, check_in, roles, pairings,
results, rulings, playoffs, money, links) and ``game`` (a game number)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.generics import GenericAPIView

from tournaments.models import AuditEntry
from tournaments.selectors.access import event_get_for_history
from tournaments.selectors.audit import HistoryFilters, audit_entries


class AuditEntrySerializer(serializers.ModelSerializer):
    kind = serializers.ChoiceField(choices=AuditEntry.Kind.choices)
    actor_id = serializers.IntegerField(allow_null=True)
    before = serializers.JSONField()
    after = serializers.JSONField()

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "created_at",
            "actor_id",
            "actor_name",
            "kind",
            "action",
            "summary",
            "game_number",
            "before",
            "after",
        ]
        read_only_fields = fields


class FiltersSerializer(serializers.Serializer):
    actor = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    kind = serializers.ChoiceField(choices=AuditEntry.Kind.choices, required=False)
    game = serializers.IntegerField(required=False, min_value=1, max_value=32767)


class HistoryView(GenericAPIView):
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = AuditEntrySerializer
    queryset = AuditEntry.objects.none()  # names the model for the schema

    @extend_schema(
        parameters=[
            OpenApiParameter("actor", int, description="only this user's actions"),
            OpenApiParameter("kind", str, enum=AuditEntry.Kind.values),
            OpenApiParameter("game", int, description="only actions about this game"),
        ],
        responses=AuditEntrySerializer(many=True),
    )
    def get(self, request, event_id: int):
        event = event_get_for_history(event_id=event_id, user=request.user)
        query = FiltersSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        filters = HistoryFilters(data.get("actor"), data.get("kind"), data.get("game"))
        page = self.paginate_queryset(audit_entries(event=event, filters=filters))
        return self.get_paginated_response(AuditEntrySerializer(page, many=True).data)
