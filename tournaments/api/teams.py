"""API: teams of two in a doubles event. The director lists the event's teams, enters one (two
players, each entered as a player is, with their own private link and check-in) and draws
partners at random among the checked-in players (the blind draw). For the event's directors
only."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers_teams import (
    PartnersDrawResultSerializer,
    PartnersDrawSerializer,
    TeamRegisterSerializer,
    TeamSerializer,
)
from tournaments.selectors.access import event_get_for_director
from tournaments.selectors.entrants import teams_of_event, teams_of_event_qs
from tournaments.services.entries import Registration
from tournaments.services.teams import DrawResult, partners_draw, team_register


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


class PartnersDrawView(APIView):
    """The blind draw: the checked-in players without a partner are paired at random; the odd
    one waits for a late partner. 201 with the seed (kept on the event), the teams made and
    the waiting player."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PartnersDrawSerializer, responses={201: PartnersDrawResultSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        form = PartnersDrawSerializer(data=request.data or {})
        form.is_valid(raise_exception=True)
        result = partners_draw(event=event, user=request.user, seed=form.validated_data.get("seed"))
        teams = list(teams_of_event_qs().filter(pk__in=[t.pk for t in result.teams]))
        shown = DrawResult(seed=result.seed, teams=teams, waiting=result.waiting)
        body = {**vars(shown), "message": result.message}
        return Response(PartnersDrawResultSerializer(body).data, status=status.HTTP_201_CREATED)
