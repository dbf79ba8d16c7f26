"""API: events. Create one from a preset, read it, change its settings, close registration,
read or replace its check-in code (``check-in-code/``: GET the current one, POST a new one).

Who may do what is decided by the selectors: ``event_get_for_director`` for managing an event
(another user gets 403), ``event_get_for_viewer`` for reading one (unpublished events are 404 to
everyone without a role in them).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import no_input
from tournaments.api.serializers_events import (
    EventCreateSerializer,
    EventDirectorSerializer,
    EventSerializer,
    EventSettingsSerializer,
)
from tournaments.models import Event, EventRole
from tournaments.selectors.access import event_get_for_director, event_get_for_viewer, event_roles
from tournaments.selectors.check_in import check_in_code_current
from tournaments.selectors.events import events_directed_by, events_published
from tournaments.services.check_in import check_in_code_rotate
from tournaments.services.events import (
    event_close_registration,
    event_create,
    event_update_settings,
)

TRUE = {"1", "true", "yes", "on"}


class EventListView(GenericAPIView):
    """The events you direct; with ``?published=1``, every published event (anyone may ask).

    Rows of your own events carry the director's fields too (see ``EventDirector``); published
    events show the public fields, which every row has.
    """

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = EventDirectorSerializer
    queryset = Event.objects.none()  # names the model for the schema; rows come from selectors

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "published",
                bool,
                description="List published events (no sign-in needed) instead of yours.",
            )
        ],
        responses=EventSerializer(many=True),
    )
    def get(self, request):
        if request.query_params.get("published", "").lower() in TRUE:
            events, serializer_class = events_published(), EventSerializer
        else:
            if not request.user.is_authenticated:
                self.permission_denied(request)
            events = events_directed_by(user=request.user)
            serializer_class = EventDirectorSerializer
        page = self.paginate_queryset(events)
        return self.get_paginated_response(serializer_class(page, many=True).data)

    @extend_schema(request=EventCreateSerializer, responses={201: EventDirectorSerializer})
    def post(self, request):
        form = EventCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        event = event_create(user=request.user, **form.validated_data)
        return Response(EventDirectorSerializer(event).data, status=status.HTTP_201_CREATED)


class EventDetailView(APIView):
    """An event: its directors see everything, visitors a published event's public fields."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=EventSerializer)
    def get(self, request, event_id: int):
        event = event_get_for_viewer(event_id=event_id, user=request.user)
        directs = EventRole.Role.DIRECTOR in event_roles(event=event, user=request.user)
        serializer_class = EventDirectorSerializer if directs else EventSerializer
        return Response(serializer_class(event).data)

    @extend_schema(request=EventSettingsSerializer, responses=EventDirectorSerializer)
    def patch(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        form = EventSettingsSerializer(data=request.data, partial=True)
        form.is_valid(raise_exception=True)
        event = event_update_settings(event=event, user=request.user, **form.validated_data)
        return Response(EventDirectorSerializer(event).data)


class EventCloseRegistrationView(APIView):
    """Start the qualifying round with the checked-in players, if the schedule is possible."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=EventDirectorSerializer)
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        event = event_close_registration(event=event, user=request.user)
        return Response(EventDirectorSerializer(event).data)


class CheckInCodeSerializer(serializers.Serializer):
    code = serializers.CharField()
    url = serializers.SerializerMethodField(help_text="the page a player's phone opens")
    version = serializers.IntegerField(help_text="raised each time a new code is made")
    active = serializers.BooleanField(
        help_text="false once registration has closed: the code then checks nobody in"
    )

    def get_url(self, code) -> str:
        return self.context["request"].build_absolute_uri(code.path)


class EventCheckInCodeView(APIView):
    """The event's check-in code (directors): GET the current one; POST makes a new one, and
    the older codes stop working at once (a player who scans one is told to scan the desk's)."""

    permission_classes = [permissions.IsAuthenticated]

    def _answer(self, request, event, status_code=status.HTTP_200_OK):
        code = check_in_code_current(event=event)
        context = {"request": request}
        return Response(CheckInCodeSerializer(code, context=context).data, status=status_code)

    @extend_schema(responses=CheckInCodeSerializer)
    def get(self, request, event_id: int):
        return self._answer(request, event_get_for_director(event_id=event_id, user=request.user))

    @extend_schema(request=None, responses={201: CheckInCodeSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        event = check_in_code_rotate(event=event, user=request.user)
        return self._answer(request, event, status.HTTP_201_CREATED)
