"""API: weekends (tournaments). Anyone lists them and reads one (events, schedule, fees,
registration); a signed-in user makes one; the directors of its events change it, add or take
out an event (``{"event": id}``), and open or close registration (``{"open": true}``).
An event also joins a weekend when made: ``POST /api/v1/events/`` with ``weekend`` or
``parent``."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import StrictInput, no_input
from tournaments.models import Club, Event, Weekend
from tournaments.selectors.access import weekend_get_for_director
from tournaments.selectors.weekends import weekend_get, weekend_page, weekends_listed
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_event_remove,
    weekend_registration_set,
    weekend_update,
)


class WeekendEventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Event.Kind.choices)
    starts_on = serializers.DateField(allow_null=True)
    entry_fee_cents = serializers.IntegerField()
    capacity = serializers.IntegerField(allow_null=True)
    entered = serializers.IntegerField()
    places_left = serializers.IntegerField(allow_null=True)


class WeekendSerializer(serializers.ModelSerializer):
    class Meta:
        model = Weekend
        fields = [
            "id", "name", "club", "starts_on", "ends_on", "venue", "schedule",
            "registration_open",
        ]  # fmt: skip
        read_only_fields = fields


class WeekendPageSerializer(serializers.Serializer):
    weekend = WeekendSerializer()
    events = WeekendEventSerializer(many=True)
    registration_url = serializers.SerializerMethodField()

    def get_registration_url(self, page) -> str:
        request = self.context["request"]
        return request.build_absolute_uri(f"/weekends/{page.weekend.pk}/register/")


class WeekendInputSerializer(StrictInput, serializers.ModelSerializer):
    club = serializers.PrimaryKeyRelatedField(
        queryset=Club.objects.all(), required=False, allow_null=True
    )

    class Meta:
        model = Weekend
        fields = ["name", "starts_on", "ends_on", "venue", "schedule", "club"]


class WeekendEventInput(StrictInput):
    event = serializers.IntegerField(help_text="the id of an event you direct")


class RegistrationSwitchInput(StrictInput):
    open = serializers.BooleanField(help_text="true opens the public registration page")


def _page(request, weekend, code=status.HTTP_200_OK) -> Response:
    data = WeekendPageSerializer(weekend_page(weekend=weekend), context={"request": request}).data
    return Response(data, status=code)


class WeekendListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=WeekendSerializer(many=True))
    def get(self, request):
        return Response(WeekendSerializer(weekends_listed()[:200], many=True).data)

    @extend_schema(request=WeekendInputSerializer, responses={201: WeekendPageSerializer})
    def post(self, request):
        body = WeekendInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        weekend = weekend_create(user=request.user, **body.validated_data)
        return _page(request, weekend, status.HTTP_201_CREATED)


class WeekendDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=WeekendPageSerializer)
    def get(self, request, weekend_id: int):
        weekend = weekend_get(weekend_id=weekend_id)
        if weekend is None:
            raise Http404("No such weekend.")
        return _page(request, weekend)

    @extend_schema(request=WeekendInputSerializer, responses=WeekendPageSerializer)
    def patch(self, request, weekend_id: int):
        weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
        body = WeekendInputSerializer(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        weekend = weekend_update(weekend=weekend, user=request.user, **body.validated_data)
        return _page(request, weekend)


class WeekendEventsView(APIView):
    """POST ``{"event": id}`` lists an event you direct in the weekend."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=WeekendEventInput, responses=WeekendPageSerializer)
    def post(self, request, weekend_id: int):
        weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
        body = WeekendEventInput(data=request.data)
        body.is_valid(raise_exception=True)
        event = get_object_or_404(Event, pk=body.validated_data["event"])
        weekend_event_add(weekend=weekend, event=event, user=request.user)
        return _page(request, weekend)


class WeekendEventDetailView(APIView):
    """DELETE takes the event out of the weekend (its entries stay)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=WeekendPageSerializer)
    def delete(self, request, weekend_id: int, event_id: int):
        no_input(request)
        weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
        event = get_object_or_404(Event, pk=event_id, weekend=weekend)
        weekend_event_remove(weekend=weekend, event=event, user=request.user)
        return _page(request, weekend)


class WeekendRegistrationView(APIView):
    """POST ``{"open": true|false}`` opens or closes the public registration page."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RegistrationSwitchInput, responses=WeekendPageSerializer)
    def post(self, request, weekend_id: int):
        weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
        body = RegistrationSwitchInput(data=request.data)
        body.is_valid(raise_exception=True)
        weekend = weekend_registration_set(
            weekend=weekend, user=request.user, open=body.validated_data["open"]
        )
        return _page(request, weekend)
