"""API: final results and the Consolation.

The results (``event_final_results``) are readable by anyone once the event is published, and
before that by people with a role in it. A Main's director makes the Consolation; a second
request returns the Consolation already made (200 instead of 201).

- band: the places a finished qualifier shares, "1", "2", "3-4"... cut at the qualifiers (with 6
  qualifiers the losers of round 1 share "5-6"); empty for a qualifier still playing and for a
  non-qualifier. place: the band, or a non-qualifier's qualifying rank.
- mrp: Master Rating Points (qualifiers of sanctioned events only; null otherwise).
- payout_cents: the prize money owed, once the places paid are decided.
- doubles: a row is a team (``team_id``, ``name`` the team's): ``payout_cents`` is the team's,
  and ``partners`` gives each partner's ``payout_cents``, equal halves with an odd cent to the
  first partner; the shares always sum to the team's. ``team_id`` is null and ``partners``
  empty in a singles event.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import JobSerializer, no_input
from tournaments.selectors.acc_package import acc_package
from tournaments.selectors.access import event_get_for_director, event_get_for_viewer
from tournaments.selectors.final import event_final_results
from tournaments.services.consolation import consolation_create, consolation_of
from tournaments.services.ledger import event_finalise_request


class PartnerShareSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    acc_number = serializers.CharField()
    payout_cents = serializers.IntegerField()


class ResultRowSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    acc_number = serializers.CharField()
    qualifying_rank = serializers.IntegerField(allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    band = serializers.CharField(source="finish")
    place = serializers.CharField()
    mrp = serializers.IntegerField(allow_null=True)
    mrp_qualifying = serializers.IntegerField(allow_null=True)
    mrp_playoff = serializers.IntegerField(allow_null=True)
    game_points = serializers.IntegerField()
    net_spread = serializers.IntegerField()
    payout_cents = serializers.IntegerField()
    team_id = serializers.IntegerField(allow_null=True)
    partners = PartnerShareSerializer(many=True)


class BandSerializer(serializers.Serializer):
    band = serializers.CharField()
    players = serializers.IntegerField()


class FinalResultsSerializer(serializers.Serializer):
    event_id = serializers.IntegerField(source="event.pk")
    cut_made = serializers.SerializerMethodField()
    complete = serializers.BooleanField()
    entrants = serializers.IntegerField(source="playoff.entrants", allow_null=True, default=None)
    qualifiers = serializers.IntegerField(
        source="playoff.qualifiers", allow_null=True, default=None
    )
    bands = serializers.SerializerMethodField()
    winner = ResultRowSerializer(allow_null=True)
    runner_up = ResultRowSerializer(allow_null=True)
    high_non_qualifier = ResultRowSerializer(allow_null=True)
    mrp_schedule = serializers.CharField(allow_null=True)
    mrp_note = serializers.CharField()
    finalised = serializers.BooleanField()
    rows = ResultRowSerializer(many=True)

    def get_cut_made(self, results) -> bool:
        return results.playoff is not None

    @extend_schema(responses=BandSerializer(many=True))
    def get_bands(self, results) -> list[dict]:
        return [{"band": band, "players": n} for band, n in results.bands]


class ConsolationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    parent_id = serializers.IntegerField()
    preset = serializers.CharField()
    entries = serializers.IntegerField(source="entries.count")


class FinalResultsView(APIView):
    """Finish bands, winner, runner-up, high non-qualifier, every player's place, MRP and prize."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=FinalResultsSerializer)
    def get(self, request, event_id: int):
        event = event_get_for_viewer(event_id=event_id, user=request.user)
        return Response(FinalResultsSerializer(event_final_results(event=event)).data)


class ConsolationView(APIView):
    """Make the Consolation of a Main whose cut is made, with its non-qualifiers checked in."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: ConsolationSerializer, 201: ConsolationSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        existed = consolation_of(main_event=event) is not None
        consolation = consolation_create(main_event=event, user=request.user)
        code = status.HTTP_200_OK if existed else status.HTTP_201_CREATED
        return Response(ConsolationSerializer(consolation).data, status=code)


class FinaliseView(APIView):
    """Finalise an event after its final (202 with the job; running it again changes nothing).
    A sanctioned event's MRP awards go to the national ledger; an event the ACC office has not
    sanctioned is finalised with none (its results stay on Pegboard; ``in_ledger`` false).
    Refused (400, ``cannot_finalise``) before the final, or for a sanctioned event whose
    qualifying length has no published MRP table."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        job = event_finalise_request(event=event, user=request.user)
        job.refresh_from_db()  # without a broker the job has already run
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class AccRowSerializer(ResultRowSerializer):
    member = serializers.BooleanField()


class AccPackageSerializer(serializers.Serializer):
    event_id = serializers.IntegerField()
    event = serializers.CharField()
    style = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    region = serializers.CharField()
    directors = serializers.ListField(child=serializers.CharField())
    entrants = serializers.IntegerField()
    games = serializers.IntegerField()
    qualifiers = serializers.IntegerField()
    qualifier_pool = serializers.CharField()
    entry_fee_cents = serializers.IntegerField()
    sanctioning_fee_cents = serializers.IntegerField()
    sanctioning_fees_total_cents = serializers.IntegerField()
    mrp_schedule = serializers.CharField(allow_null=True)
    mrp_note = serializers.CharField(help_text="why there are no MRPs (by hand), or empty")
    finalisation = serializers.IntegerField()
    finalised_at = serializers.DateTimeField()
    without_acc_number = serializers.SerializerMethodField()
    rows = AccRowSerializer(many=True)

    def get_without_acc_number(self, package) -> list[str]:
        return [row.name for row in package.without_acc_number]


class AccResultsView(APIView):
    """The ACC results package of a finalised sanctioned event (directors): the event's figures
    and every entrant's line; 409 before the event is finalised."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: AccPackageSerializer})
    def get(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        package = acc_package(event=event)
        if package is None:
            error = {
                "field": None,
                "code": "not_finalised",
                "message": "Finalise this sanctioned event's results first.",
            }
            return Response({"errors": [error]}, status=status.HTTP_409_CONFLICT)
        return Response(AccPackageSerializer(package).data)
