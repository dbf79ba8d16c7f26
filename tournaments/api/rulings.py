"""API: judges' calls, rulings, and the count checker.

- ``events/{id}/rulings/``: the event's rulings (GET) and recording one (POST), for its judges
  and directors. A table is named by its game number and table number, players by entry id and
  judges by user id. A refused ruling is a 400 naming the field and the rule.
- ``events/{id}/judge-calls/``: the open calls (GET, judges and directors); a director may call
  judges to a table (POST). ``judge-calls/{id}/answer/`` takes a call.
- ``count/hand/`` and ``count/play/``: the engine's count, for anyone. Cards are written as on
  the count checker page: ``"5H 5D 5S JC"``. ``count/play/`` takes ``pone`` and ``dealer``
  (answered with ``pone_points`` and ``dealer_points``) or ``hands``, 2 to 4 in the order of
  play with the dealer last (answered with ``points`` per seat and, for four, ``team_points``).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import StrictInput, no_input
from tournaments.models import JudgeCall, Ruling
from tournaments.selectors.access import (
    event_get_for_director,
    event_get_for_judging,
    judge_call_get_for_judging,
)
from tournaments.selectors.entrants import entrant_label
from tournaments.selectors.games import table_get
from tournaments.selectors.rulings import (
    count_hand,
    count_pegging,
    count_play,
    judge_calls_open,
    rulings_of_event,
)
from tournaments.services.judge_calls import judge_call_answer, judge_call_create
from tournaments.services.rulings import ruling_record

# Serializers


class RulingSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(
        source="table.game.number", read_only=True, allow_null=True, help_text="null in a match"
    )
    table = serializers.IntegerField(
        source="table.number", read_only=True, allow_null=True, help_text="null in a match"
    )
    match = serializers.IntegerField(
        source="match_game.match_id", read_only=True, allow_null=True, help_text="playoff match id"
    )
    match_game = serializers.IntegerField(
        source="match_game.number", read_only=True, allow_null=True, help_text="game of the match"
    )
    infraction = serializers.CharField(source="get_code_display", read_only=True)
    offender_name = serializers.SerializerMethodField(
        help_text="the offender as the pages name them: in doubles the team and its partners"
    )
    beneficiary_name = serializers.SerializerMethodField(
        help_text="the beneficiary as the pages name them: in doubles the team and its partners"
    )

    def get_offender_name(self, ruling) -> str:
        return entrant_label(ruling.offender)

    def get_beneficiary_name(self, ruling) -> str:
        return entrant_label(ruling.beneficiary)

    class Meta:
        model = Ruling
        fields = [
            "id", "event", "game", "table", "match", "match_game", "hand_number", "code",
            "infraction", "direction", "rulebook_edition", "rule", "points", "offender",
            "offender_name", "beneficiary", "beneficiary_name", "true_score", "reneged_cards",
            "claimed_missed", "true_missed", "score_before_offender", "score_before_opponent",
            "score_after_offender", "score_after_opponent", "game_over", "winner", "judges",
            "third_judge", "final", "notes", "entered_by", "created_at",
        ]  # fmt: skip
        read_only_fields = fields


def _figure(least: int) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=least, required=False, allow_null=True)


class RulingInputSerializer(StrictInput):
    """A ruling as the judges give it; the engine works out the board after it."""

    game = serializers.IntegerField(min_value=1, help_text="the game number")
    table = serializers.IntegerField(min_value=1, help_text="the table number in that game")
    code = serializers.ChoiceField(choices=Ruling.CODES)
    offender = serializers.IntegerField(help_text="entry id of the offender")
    score_before_offender = serializers.IntegerField(min_value=0)
    score_before_opponent = serializers.IntegerField(min_value=0)
    true_score = _figure(0)
    reneged_cards = _figure(1)
    claimed_missed = _figure(1)
    true_missed = _figure(0)
    judges = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=get_user_model().objects.all(),
        help_text="user ids: as many as the event's judges_per_ruling (two, or one where it "
        "allows), or three with third_judge",
    )
    third_judge = serializers.BooleanField(default=False)
    final = serializers.BooleanField(default=False)
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    hand_number = serializers.IntegerField(min_value=1, required=False, allow_null=True)

    def validate(self, attrs):
        event = self.context["event"]
        table = table_get(event=event, number=attrs.pop("game"), table_number=attrs["table"])
        if table is None:
            raise serializers.ValidationError(
                {"table": "No such table in that game of this event."}, code="does_not_exist"
            )
        attrs["table"] = table
        attrs["offender_entry"] = attrs.pop("offender")
        return attrs


class OpenCallSerializer(serializers.Serializer):
    """An open call: to a qualifying table (``game``, ``table``) or to a playoff match
    (``match``, its id; ``game`` and ``table`` null); ``where`` says which in words."""

    id = serializers.IntegerField(source="call.pk")
    game = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    match = serializers.IntegerField(allow_null=True)
    where = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    called_by = serializers.CharField()
    created_at = serializers.DateTimeField(source="call.created_at")
    minutes_waiting = serializers.IntegerField()


class JudgeCallSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="table.game.number", read_only=True, allow_null=True)
    table = serializers.IntegerField(source="table.number", read_only=True, allow_null=True)

    class Meta:
        model = JudgeCall
        fields = [
            "id", "game", "table", "match", "called_by_entry", "called_by_user", "created_at",
            "answered_at", "answered_by",
        ]  # fmt: skip
        read_only_fields = fields


class JudgeCallInputSerializer(StrictInput):
    game = serializers.IntegerField(min_value=1)
    table = serializers.IntegerField(min_value=1)


class HandInputSerializer(StrictInput):
    hand = serializers.CharField(help_text='four cards, e.g. "5H 5D 5S JC"')
    starter = serializers.CharField(help_text='the cut card, e.g. "5C"')
    crib = serializers.BooleanField(default=False)


class CombinationSerializer(serializers.Serializer):
    kind = serializers.CharField()
    cards = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()


class CategoriesSerializer(serializers.Serializer):
    fifteens = serializers.IntegerField()
    pairs = serializers.IntegerField()
    runs = serializers.IntegerField()
    flush = serializers.IntegerField()
    nobs = serializers.IntegerField()


class HandCountSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    categories = CategoriesSerializer()
    combinations = CombinationSerializer(many=True)
    spoken = serializers.CharField()


class PlayInputSerializer(StrictInput):
    """Two players as ``pone`` and ``dealer``, or 2 to 4 ``hands`` in the order of play."""

    pone = serializers.CharField(required=False, help_text="the pone's four cards")
    dealer = serializers.CharField(required=False, help_text="the dealer's four cards")
    hands = serializers.ListField(
        child=serializers.CharField(),
        min_length=2,
        max_length=4,
        required=False,
        help_text="instead of pone and dealer: each seat's four cards in the order of play, "
        "the seat left of the dealer first and the dealer last (2, 3 or 4 hands)",
    )
    plays = serializers.CharField(help_text="every card in the order laid")

    def validate(self, data):
        two = "pone" in data or "dealer" in data
        if two == ("hands" in data):
            raise serializers.ValidationError(
                {"hands": "Give either pone and dealer, or hands (2 to 4, dealer last)."}
            )
        for field in ("pone", "dealer"):
            if two and field not in data:
                raise serializers.ValidationError({field: "This field is required."})
        return data


class PlayedCardSerializer(serializers.Serializer):
    card = serializers.CharField()
    player = serializers.ChoiceField(choices=["pone", "dealer"])
    count = serializers.IntegerField()
    points = serializers.IntegerField()
    reasons = serializers.ListField(child=serializers.CharField())


class PlayCountSerializer(serializers.Serializer):
    plays = PlayedCardSerializer(many=True)
    pone_points = serializers.IntegerField()
    dealer_points = serializers.IntegerField()


class SeatPlayedCardSerializer(serializers.Serializer):
    card = serializers.CharField()
    seat = serializers.IntegerField(help_text="0 = left of the dealer, the dealer last")
    player = serializers.CharField(help_text="pone/dealer for two seats, else 'seat N'")
    count = serializers.IntegerField()
    points = serializers.IntegerField()
    reasons = serializers.ListField(child=serializers.CharField())


class SeatsPlayCountSerializer(serializers.Serializer):
    """The answer when ``hands`` were given."""

    plays = SeatPlayedCardSerializer(many=True)
    points = serializers.ListField(child=serializers.IntegerField(), help_text="one per seat")
    team_points = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="four seats: seats 0 and 2, then seats 1 and 3; otherwise null",
    )


# Views


class RulingListView(GenericAPIView):
    """The event's rulings, newest first; POST records one."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = RulingSerializer
    queryset = Ruling.objects.none()  # names the model for the schema; rows come from selectors

    @extend_schema(responses=RulingSerializer(many=True))
    def get(self, request, event_id: int):
        event = event_get_for_judging(event_id=event_id, user=request.user)
        page = self.paginate_queryset(rulings_of_event(event=event))
        return self.get_paginated_response(RulingSerializer(page, many=True).data)

    @extend_schema(request=RulingInputSerializer, responses={201: RulingSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_judging(event_id=event_id, user=request.user)
        form = RulingInputSerializer(data=request.data, context={"event": event})
        form.is_valid(raise_exception=True)
        ruling = ruling_record(entered_by=request.user, **form.validated_data)
        ruling = rulings_of_event(event=event).get(pk=ruling.pk)
        return Response(RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)


class JudgeCallListView(GenericAPIView):
    """Open calls to tables, longest waiting first; POST (a director) calls judges to a table."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = OpenCallSerializer
    queryset = JudgeCall.objects.none()

    @extend_schema(responses=OpenCallSerializer(many=True))
    def get(self, request, event_id: int):
        event = event_get_for_judging(event_id=event_id, user=request.user)
        page = self.paginate_queryset(judge_calls_open(event=event))
        return self.get_paginated_response(OpenCallSerializer(page, many=True).data)

    @extend_schema(request=JudgeCallInputSerializer, responses={201: JudgeCallSerializer})
    def post(self, request, event_id: int):
        # Judges answer calls; a director (or the player, by their link) makes one.
        event = event_get_for_director(event_id=event_id, user=request.user)
        form = JudgeCallInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        table = table_get(
            event=event,
            number=form.validated_data["game"],
            table_number=form.validated_data["table"],
        )
        if table is None:
            raise serializers.ValidationError(
                {"table": "No such table in that game of this event."}, code="does_not_exist"
            )
        call = judge_call_create(table=table, user=request.user)
        return Response(JudgeCallSerializer(call).data, status=status.HTTP_201_CREATED)


class JudgeCallAnswerView(APIView):
    """A judge takes the call."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=JudgeCallSerializer)
    def post(self, request, call_id: int):
        call = judge_call_get_for_judging(call_id=call_id, user=request.user)
        no_input(request)
        return Response(JudgeCallSerializer(judge_call_answer(call=call, user=request.user)).data)


class CountHandView(APIView):
    """Count four cards with the starter: the total, by category, each combination, spoken."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=HandInputSerializer, responses=HandCountSerializer)
    def post(self, request):
        form = HandInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        score = count_hand(**form.validated_data)
        return Response(
            {
                "total": score.total,
                "categories": {
                    name: getattr(score, name)
                    for name in ("fifteens", "pairs", "runs", "flush", "nobs")
                },
                "combinations": [
                    {"kind": c.kind, "cards": [str(card) for card in c.cards], "points": c.points}
                    for c in score.combinations
                ],
                "spoken": score.spoken(),
            }
        )


class CountPlayView(APIView):
    """Check a whole play: each card's points and why, or a 400 naming the illegal card."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        request=PlayInputSerializer,
        responses=PolymorphicProxySerializer(
            component_name="PlayCountAnswer",
            serializers=[PlayCountSerializer, SeatsPlayCountSerializer],
            resource_type_field_name=None,
        ),
    )
    def post(self, request):
        form = PlayInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        if "hands" in data:
            return Response(_seats_answer(data["hands"], data["plays"]))
        result = count_play(pone=data["pone"], dealer=data["dealer"], plays=data["plays"])
        plays = [
            {
                "card": str(p.card),
                "player": p.player,
                "count": p.count,
                "points": p.points,
                "reasons": list(p.reasons),
            }
            for p in result.plays
        ]
        return Response(
            {
                "plays": plays,
                "pone_points": result.pone_points,
                "dealer_points": result.dealer_points,
            }
        )


def _seats_answer(hands: list[str], plays: str) -> dict:
    fields = {f"hands.{seat}": cards for seat, cards in enumerate(hands)}
    result = count_pegging(hands=fields, plays=plays)
    return {
        "plays": [
            {
                "card": str(p.card),
                "seat": p.seat,
                "player": p.player,
                "count": p.count,
                "points": p.points,
                "reasons": list(p.reasons),
            }
            for p in result.plays
        ],
        "points": list(result.points),
        "team_points": list(result.team_points()) if len(result.points) == 4 else None,
    }
