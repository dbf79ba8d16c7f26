"""API: players across events and the MRP leaderboards.

- ``GET /players/<id>/``: a player's events (finish, game points, spread, MRPs), ``mrp_total``
  and ``mrp_by_year`` (year -> points). Published events only, unless you are that player or
  an administrator. A merged record answers with the record it joined.
- ``PATCH /players/<id>/`` ``{"name", "acc_number"}`` (either or both): a change to the
  player's record. Applied at once (200, the player) for an administrator, the player
  themselves, or the director of every event the record was entered in; otherwise proposed
  (202, the changes waiting) for the player or an administrator to approve
  (``api.record_changes``).
- ``GET /leaderboards/mrp/``: players by MRPs; ``year``, ``club`` (a club id) and ``region``
  narrow it.
- ``POST /players/merges/`` ``{"keep", "merge"}`` and ``POST /players/merges/<id>/undo/``:
  administrators merge two records of one person, and undo it.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.record_changes import RecordChangeSerializer
from tournaments.api.serializers import StrictInput, no_input
from tournaments.errors import ServiceError
from tournaments.models import MrpAward, Player, PlayerMerge, RecordChange
from tournaments.selectors.access import player_get_for_editing
from tournaments.selectors.players import (
    LeaderboardFilters,
    mrp_leaderboard,
    player_get,
    player_page,
)
from tournaments.services.players import player_merge, player_merge_undo
from tournaments.services.record_changes import player_record_change

BIG = 2**63 - 1


class PlayedEventSerializer(serializers.Serializer):
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    kind = serializers.CharField()
    status = serializers.CharField()
    finish = serializers.CharField()
    game_points = serializers.IntegerField()
    net_spread = serializers.IntegerField()
    mrp = serializers.IntegerField(allow_null=True)
    member = serializers.BooleanField(allow_null=True)
    team = serializers.CharField(help_text="the team and both partners (doubles events), or ''")


class PlayerPageSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    acc_number = serializers.CharField(source="player.acc_number")
    club = serializers.CharField(source="player.home_club.name", allow_null=True, default=None)
    region = serializers.CharField(source="player.home_club.region", allow_null=True, default=None)
    mrp_total = serializers.IntegerField()
    mrp_by_year = serializers.DictField(child=serializers.IntegerField())
    events = PlayedEventSerializer(many=True)


class RecordPatchSerializer(StrictInput):
    name = serializers.CharField(max_length=200, required=False)
    acc_number = serializers.CharField(max_length=20, required=False)


class RecordChangesSerializer(serializers.Serializer):
    changes = RecordChangeSerializer(many=True)


class PlayerDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=PlayerPageSerializer)
    def get(self, request, player_id: int):
        page = player_page(player=player_get(player_id=player_id), viewer=request.user)
        data = PlayerPageSerializer(page).data
        data["mrp_by_year"] = {str(year): points for year, points in page.mrp_by_year.items()}
        return Response(data)

    @extend_schema(
        request=RecordPatchSerializer,
        responses={200: PlayerPageSerializer, 202: RecordChangesSerializer},
        description="200: changed at once. 202: proposed; the changes wait for the player or "
        "an administrator (see /players/changes/).",
    )
    def patch(self, request, player_id: int):
        player = player_get_for_editing(player_id=player_id, user=request.user)
        body = RecordPatchSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        changes = player_record_change(player=player, user=request.user, **body.validated_data)
        if any(change.status == RecordChange.Status.PENDING for change in changes):
            data = RecordChangesSerializer({"changes": changes}).data
            return Response(data, status=status.HTTP_202_ACCEPTED)
        return self.get(request, player.pk)


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_null=True)
    region = serializers.CharField(allow_null=True)
    points = serializers.IntegerField()
    events = serializers.IntegerField()


class LeaderboardQuerySerializer(serializers.Serializer):
    year = serializers.IntegerField(required=False, min_value=1900, max_value=9999)
    club = serializers.IntegerField(required=False, min_value=1, max_value=BIG)
    region = serializers.CharField(required=False, max_length=100)


class MrpLeaderboardView(GenericAPIView):
    """Players by Master Rating Points (current ledger awards); ties share a rank."""

    permission_classes = [permissions.AllowAny]
    serializer_class = LeaderboardRowSerializer
    queryset = MrpAward.objects.none()  # names the model for the schema

    @extend_schema(
        parameters=[
            OpenApiParameter("year", int, description="only this year's events"),
            OpenApiParameter("club", int, description="only players of this home club"),
            OpenApiParameter("region", str, description="only players of clubs of this region"),
        ],
        responses=LeaderboardRowSerializer(many=True),
    )
    def get(self, request):
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        filters = LeaderboardFilters(data.get("year"), data.get("club"), data.get("region"))
        page = self.paginate_queryset(mrp_leaderboard(filters=filters))
        return self.get_paginated_response(LeaderboardRowSerializer(page, many=True).data)


class MergeSerializer(StrictInput, serializers.ModelSerializer):
    keep = serializers.IntegerField(source="kept_id", min_value=1, max_value=BIG)
    merge = serializers.IntegerField(source="merged_id", min_value=1, max_value=BIG)

    class Meta:
        model = PlayerMerge
        fields = ["id", "keep", "merge", "moved", "created_at", "undone_at"]
        read_only_fields = ["id", "moved", "created_at", "undone_at"]


class MergeListView(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=MergeSerializer, responses={201: MergeSerializer})
    def post(self, request):
        body = MergeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        keep = Player.objects.filter(pk=body.validated_data["kept_id"]).first()
        gone = Player.objects.filter(pk=body.validated_data["merged_id"]).first()
        if keep is None or gone is None:
            raise ServiceError("No player has that number.", field="merge", code="no_player")
        merge = player_merge(keep=keep, merge=gone, user=request.user)
        return Response(MergeSerializer(merge).data, status=status.HTTP_201_CREATED)


class MergeUndoView(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=None, responses=MergeSerializer)
    def post(self, request, merge_id: int):
        merge = get_object_or_404(PlayerMerge, pk=merge_id)
        no_input(request)
        return Response(MergeSerializer(player_merge_undo(merge=merge, user=request.user)).data)
