"""Administrators tidy the list of clubs (``services.clubs_admin``).

- ``GET /clubs/admin/``: every club with its nights, members and awards.
- ``POST /clubs/<id>/merge/`` ``{"into": <club id>}``: the club is the same as ``into``:
  everything of it moves there and it is removed.
- ``POST /clubs/<id>/remove/``: remove a club nothing names; refused naming what does.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import StrictInput, no_input
from tournaments.errors import ServiceError
from tournaments.models import Club
from tournaments.selectors.clubs import clubs_for_admin
from tournaments.services.clubs_admin import club_merge, club_remove


class ClubAdminSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    city = serializers.CharField()
    nights = serializers.IntegerField()
    members = serializers.IntegerField()
    awards = serializers.IntegerField(source="award_count")


class ClubMergeInput(StrictInput):
    into = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class ClubMergeAnswer(serializers.Serializer):
    kept = ClubAdminSerializer()
    moved = serializers.DictField(child=serializers.IntegerField())


class ClubAdminListView(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(responses=ClubAdminSerializer(many=True))
    def get(self, request):
        return Response(ClubAdminSerializer(clubs_for_admin(), many=True).data)


class ClubMergeView(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=ClubMergeInput, responses=ClubMergeAnswer)
    def post(self, request, club_id: int):
        club = get_object_or_404(Club, pk=club_id)
        body = ClubMergeInput(data=request.data)
        body.is_valid(raise_exception=True)
        keep = Club.objects.filter(pk=body.validated_data["into"]).first()
        if keep is None:
            raise ServiceError("No club has that number.", field="into", code="no_club")
        moved = club_merge(keep=keep, merge=club, user=request.user)
        kept = clubs_for_admin().get(pk=keep.pk)
        return Response(ClubMergeAnswer({"kept": kept, "moved": moved}).data)


class ClubRemoveView(APIView):
    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=None, responses={204: None})
    def post(self, request, club_id: int):
        club = get_object_or_404(Club, pk=club_id)
        no_input(request)
        club_remove(club=club, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
