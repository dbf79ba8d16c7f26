"""API: the games of a qualifying round. Pair one (a background job), publish it, re-pair it,
and read its pairings.

Pairing and re-pairing answer 202 with the job; its state is on the game in the games list and
at ``/api/v1/jobs/<id>/``. A game's pairings are for its event's directors until the game is
published; then anyone who may see the event may see them.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import JobSerializer, no_input
from tournaments.api.serializers_events import GameSerializer, PairingsSerializer
from tournaments.models import Game, Job
from tournaments.selectors.access import (
    event_get_for_director,
    game_get_for_director,
    game_get_for_viewer,
)
from tournaments.selectors.games import game_pairings, games_of_event
from tournaments.services.pairings import game_pairings_request, game_publish, game_repair


def _accepted(job: Job) -> Response:
    job.refresh_from_db()  # without a broker the job has already run
    return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class GameListView(GenericAPIView):
    """The event's games so far, each with the state of its pairing job."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = GameSerializer
    queryset = Game.objects.none()  # names the model for the schema; rows come from selectors

    @extend_schema(responses=GameSerializer(many=True))
    def get(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        page = self.paginate_queryset(games_of_event(event=event))
        return self.get_paginated_response(GameSerializer(page, many=True).data)


class GamePairView(APIView):
    """Start pairing game ``number``: 202 with the job that does it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request, event_id: int, number: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        return _accepted(game_pairings_request(event=event, number=number, user=request.user))


class GameDetailView(APIView):
    """A game's pairings: tables in number order, the sit-out, and everyone by name."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PairingsSerializer)
    def get(self, request, event_id: int, number: int):
        game, _ = game_get_for_viewer(event_id=event_id, number=number, user=request.user)
        return Response(PairingsSerializer(game_pairings(game=game)).data)


class GamePublishView(APIView):
    """Show a paired game's tables to the players."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=GameSerializer)
    def post(self, request, event_id: int, number: int):
        game = game_get_for_director(event_id=event_id, number=number, user=request.user)
        no_input(request)
        return Response(GameSerializer(game_publish(game=game, user=request.user)).data)


class GameRepairView(APIView):
    """Throw a game's tables away and pair it again: the latest game, before any result is
    reported, a judge called or a ruling made there (refused with ``game_started`` after)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request, event_id: int, number: int):
        game = game_get_for_director(event_id=event_id, number=number, user=request.user)
        no_input(request)
        return _accepted(game_repair(game=game, user=request.user))
