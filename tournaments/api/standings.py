"""API: standings and tie playoffs.

The standings are the latest snapshot the standings job stored (``standings_table``: player
names joined in one query, whatever the field size). Anyone may read them once the event is
published; before that, only people with a role in the event (``event_get_for_viewer``). A tie
that straddles the cut is broken by a one-game playoff whose result a director enters here.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers_results import StandingsSerializer, TiePlayoffSerializer
from tournaments.selectors.access import event_get_for_director, event_get_for_viewer
from tournaments.selectors.results import standings_table
from tournaments.services.corrections import tie_playoff_record


class StandingsView(APIView):
    """The latest standings: rank, player, game points, games won and played, spread; who is
    tied, whose tie needs a playoff, who qualifies; the cut and the high non-qualifier."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=StandingsSerializer)
    def get(self, request, event_id: int):
        event = event_get_for_viewer(event_id=event_id, user=request.user)
        table = standings_table(event=event)
        return Response(StandingsSerializer({"snapshot": table.snapshot, "rows": table.rows}).data)


class TiePlayoffView(APIView):
    """Record a one-game playoff between two tied players; the standings are recomputed."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TiePlayoffSerializer, responses={201: TiePlayoffSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        form = TiePlayoffSerializer(data=request.data, event=event)
        form.is_valid(raise_exception=True)
        playoff = tie_playoff_record(event=event, user=request.user, **form.validated_data)
        return Response(TiePlayoffSerializer(playoff).data, status=status.HTTP_201_CREATED)
