"""API: teams of two in a doubles event. The director lists the event's teams and enters one
(two players, each entered as a player is, with their own private link and check-in). For the
event's directors only."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers_teams import TeamRegisterSerializer, TeamSerializer
from tournaments.selectors.access import event_get_for_director
from tournaments.selectors.entrants import teams_of_event, teams_of_event_qs
from tournaments.services.entries import Registration
from tournaments.services.teams import team_register


class TeamListView(APIView):
    """The event's teams by name, with their partners; POST enters a team."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=TeamSerializer(many=True))
    def get(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        return Response(TeamSerializer(teams_of_event(event=event), many=True).data)

    @extend_schema(request=TeamRegisterSerializer, responses={201: TeamSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        form = TeamRegisterSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        team = team_register(
            event=event,
            players=[Registration(**player) for player in data["players"]],
            name=data["name"],
            check_in=data["check_in"],
            user=request.user,
        )
        team = teams_of_event_qs().get(pk=team.pk)
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)
