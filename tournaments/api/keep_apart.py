"""API: an event's keep-apart pairs, for its directors, by the same service as the page
(``services.keep_apart``).

- ``GET /api/v1/events/<id>/keep-apart/``: the pairs, and the players' registration wishes
  still open, each with the entrants it may mean (``candidates``).
- ``POST`` the same address: ``entry_a``, ``entry_b`` (entry ids), ``note`` (optional),
  ``wish`` (optional: the open wish this pair settles). 201 with the pair; 200 with it when
  the two were kept apart already.
- ``DELETE /api/v1/events/<id>/keep-apart/<pair_id>/``: the two may meet again (204).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import StrictInput
from tournaments.models import KeepApart
from tournaments.selectors.access import event_get_for_director
from tournaments.selectors.keep_apart import keep_apart_of_event
from tournaments.services.keep_apart import keep_apart_add, keep_apart_remove


class PairSerializer(serializers.ModelSerializer):
    entry_a_name = serializers.CharField(source="entry_a.name")
    entry_b_name = serializers.CharField(source="entry_b.name")

    class Meta:
        model = KeepApart
        fields = ["id", "entry_a", "entry_a_name", "entry_b", "entry_b_name", "note", "created_at"]
        read_only_fields = fields


class CandidateSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="pk")
    name = serializers.CharField()
    acc_number = serializers.CharField(source="player.acc_number")


class WishSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="choice.pk", help_text="send it as `wish` to settle it")
    request = serializers.IntegerField(source="choice.request_id")
    entry = serializers.IntegerField(source="entry.pk", help_text="the player who asked")
    entry_name = serializers.CharField(source="entry.name")
    name = serializers.CharField(help_text="who they asked to be kept apart from")
    acc_number = serializers.CharField()
    candidates = CandidateSerializer(many=True, help_text="the entrants it may mean")


class KeepApartScreenSerializer(serializers.Serializer):
    pairs = PairSerializer(many=True)
    wishes = WishSerializer(many=True)


class PairInput(StrictInput):
    entry_a = serializers.IntegerField()
    entry_b = serializers.IntegerField()
    note = serializers.CharField(max_length=200, required=False, allow_blank=True)
    wish = serializers.IntegerField(
        required=False, help_text="the id of an open registration wish this pair settles"
    )


class KeepApartListView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=KeepApartScreenSerializer)
    def get(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        return Response(KeepApartScreenSerializer(keep_apart_of_event(event=event)).data)

    @extend_schema(request=PairInput, responses={201: PairSerializer, 200: PairSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        body = PairInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        pair = keep_apart_add(
            event=event,
            user=request.user,
            entry_ids=(data["entry_a"], data["entry_b"]),
            note=data.get("note", ""),
            wish=data.get("wish"),
        )
        code = status.HTTP_201_CREATED if pair.created else status.HTTP_200_OK
        return Response(PairSerializer(pair).data, status=code)


class KeepApartDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, event_id: int, pair_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        get_object_or_404(KeepApart, pk=pair_id, event=event)  # another event's pair: 404
        keep_apart_remove(event=event, user=request.user, pair_id=pair_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
