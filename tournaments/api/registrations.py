"""API: registration requests for a weekend, the same rules as the pages.

- anyone: ``POST /api/v1/weekends/<id>/registrations/`` asks to enter (201 with the request's
  private ``status_url``); ``GET /api/v1/registrations/private/<link>/`` is where it stands;
  ``POST .../take/<choice>/``, ``.../give-up/<choice>/``, ``.../withdraw/`` are the player's
  steps.
- the weekend's directors: ``GET /api/v1/weekends/<id>/registrations/`` lists the requests;
  ``POST /api/v1/registrations/<id>/approve/`` (``player_id`` or ``new_player`` when the name
  may be someone known: the 400 lists the ``candidates``), ``.../decline/`` (``reason``),
  ``.../change/`` (``note``); ``POST /api/v1/weekends/<id>/events/<event>/capacity/``.

A request may ask to keep the player apart from someone (``keep_apart_name``, and
``keep_apart_acc`` if known); each choice says whether the pair is made in its event
(``keep_apart``). An open wish is listed, with the entrants it may mean, by
``GET /api/v1/events/<id>/keep-apart/`` (``api.keep_apart``).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import StrictInput, no_input
from tournaments.models import Event, RegistrationChoice, RegistrationRequest
from tournaments.selectors.access import registration_get_for_director, weekend_get_for_director
from tournaments.selectors.registrations import (
    request_by_token,
    request_status,
    requests_of_weekend,
)
from tournaments.selectors.weekends import weekend_get
from tournaments.services.registration_choices import (
    registration_choice_withdraw,
    waitlist_offer_take,
)
from tournaments.services.registrations import (
    registration_approve,
    registration_change_ask,
    registration_decline,
    registration_request_create,
    registration_request_withdraw,
)
from tournaments.services.waitlist import event_capacity_set, waitlist_advance
from tournaments.throttles import (
    AccountReadThrottle,
    AnonymousReadThrottle,
    AnonymousWriteThrottle,
)


class ChoiceSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="choice.pk")
    event = serializers.IntegerField(source="choice.event_id")
    event_name = serializers.CharField(source="choice.event.name")
    status = serializers.ChoiceField(
        source="choice.status", choices=RegistrationChoice.Status.choices
    )
    waitlist_position = serializers.IntegerField(source="position", allow_null=True)
    offer_expires_at = serializers.DateTimeField(source="choice.offer_expires_at", allow_null=True)
    keep_apart = serializers.IntegerField(
        source="choice.keep_apart_id",
        allow_null=True,
        help_text="the keep-apart pair made in this event from the request's wish",
    )
    keep_apart_made_at = serializers.DateTimeField(
        source="choice.keep_apart_made_at", allow_null=True
    )


class RequestSerializer(serializers.ModelSerializer):
    class Meta:
        model = RegistrationRequest
        fields = [
            "id", "weekend", "name", "acc_number", "email", "phone", "partner_name",
            "keep_apart_name", "keep_apart_acc", "status", "director_note", "player",
            "created_at", "decided_at",
        ]  # fmt: skip
        read_only_fields = fields


class RequestInput(StrictInput):
    name = serializers.CharField(max_length=200)
    acc_number = serializers.CharField(max_length=20, required=False, allow_blank=True)
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True)
    partner_name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    keep_apart_name = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="someone the player asks not to meet in qualifying (who they came with)",
    )
    keep_apart_acc = serializers.CharField(
        max_length=20, required=False, allow_blank=True, help_text="that person's ACC number"
    )  # fmt: skip
    events = serializers.ListField(child=serializers.IntegerField(), help_text="event ids")


class ApproveInput(StrictInput):
    player_id = serializers.IntegerField(required=False, help_text="the known player it is")
    new_player = serializers.BooleanField(required=False, help_text="someone new")


class ReasonInput(StrictInput):
    reason = serializers.CharField(max_length=500, allow_blank=True)


class NoteInput(StrictInput):
    note = serializers.CharField(max_length=500, allow_blank=True)


class CapacityInput(StrictInput):
    capacity = serializers.IntegerField(min_value=0, allow_null=True)


def _private(found: RegistrationRequest, code=status.HTTP_200_OK) -> Response:
    rows = request_status(request=found)
    body = {
        **RequestSerializer(found).data,
        "choices": ChoiceSerializer(rows, many=True).data,
        "status_url": f"/registration/{found.token}/",
    }
    return Response(body, status=code)


def _director_view(found: RegistrationRequest) -> Response:
    body = RequestSerializer(found).data
    body["choices"] = ChoiceSerializer(request_status(request=found), many=True).data
    return Response(body)


class WeekendRegistrationsView(APIView):
    """POST (anyone) asks to enter; GET (the weekend's directors) lists the requests. The
    POST is an anonymous write, limited per client address like the page's; the GET is an API
    read like any other."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [AnonymousReadThrottle, AccountReadThrottle, AnonymousWriteThrottle]

    @extend_schema(responses=RequestSerializer(many=True))
    def get(self, request, weekend_id: int):
        weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
        rows = []
        for row in requests_of_weekend(weekend=weekend):
            body = RequestSerializer(row.request).data
            body["choices"] = ChoiceSerializer(row.choices, many=True).data
            rows.append(body)
        return Response(rows)

    @extend_schema(request=RequestInput, responses={201: RequestSerializer})
    def post(self, request, weekend_id: int):
        weekend = weekend_get(weekend_id=weekend_id)
        if weekend is None:
            raise Http404("No such weekend.")
        body = RequestInput(data=request.data)
        body.is_valid(raise_exception=True)
        data = dict(body.validated_data)
        made = registration_request_create(weekend=weekend, event_ids=data.pop("events"), **data)
        AnonymousWriteThrottle().count(request)  # only a request taken counts, as on the page
        return _private(made, status.HTTP_201_CREATED)


class RegistrationDecisionView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    step = ""

    @extend_schema(request=ApproveInput, responses=RequestSerializer)
    def post(self, request, request_id: int):
        found = registration_get_for_director(request_id=request_id, user=request.user)
        if self.step == "approve":
            body = ApproveInput(data=request.data)
            body.is_valid(raise_exception=True)
            registration_approve(request=found, user=request.user, **body.validated_data)
        elif self.step == "decline":
            body = ReasonInput(data=request.data)
            body.is_valid(raise_exception=True)
            registration_decline(request=found, user=request.user, **body.validated_data)
        else:
            body = NoteInput(data=request.data)
            body.is_valid(raise_exception=True)
            registration_change_ask(request=found, user=request.user, **body.validated_data)
        found.refresh_from_db()
        return _director_view(found)


class PrivateRequestView(APIView):
    """The player's request by its private link; offers overdue lapse first."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=RequestSerializer)
    def get(self, request, token: str):
        found = request_by_token(token=token)
        if found is None:
            raise Http404("No such request.")
        for choice in found.choices.all():
            waitlist_advance(event=choice.event)
        return _private(request_by_token(token=token))


class PrivateStepView(APIView):
    permission_classes = [permissions.AllowAny]
    step = ""

    @extend_schema(request=None, responses=RequestSerializer)
    def post(self, request, token: str, choice_id: int = 0):
        no_input(request)
        found = request_by_token(token=token)
        if found is None:
            raise Http404("No such request.")
        if self.step == "withdraw":
            registration_request_withdraw(request=found)
        else:
            choice = get_object_or_404(RegistrationChoice, pk=choice_id, request=found)
            if self.step == "take":
                waitlist_offer_take(choice=choice)
            else:
                registration_choice_withdraw(choice=choice)
        return _private(request_by_token(token=token))


class CapacityView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CapacityInput, responses={200: None})
    def post(self, request, weekend_id: int, event_id: int):
        weekend = weekend_get_for_director(weekend_id=weekend_id, user=request.user)
        event = get_object_or_404(Event, pk=event_id, weekend=weekend)
        body = CapacityInput(data=request.data)
        body.is_valid(raise_exception=True)
        event = event_capacity_set(event=event, user=request.user, **body.validated_data)
        return Response({"event": event.pk, "capacity": event.capacity})
