"""API: the playoffs. Read the bracket, build it (a background job, 202), report a match game
from the player's private link; for directors, a match with its games, the no-show clock
(start, stop), and correcting or voiding a game (the match and the bracket are re-derived;
a change a later round's games depend on is refused with code ``depends``).

Who may do what: anyone who may see the event reads the bracket (``event_get_for_viewer``);
building and the clock are for the event's directors (``event_get_for_director``,
``match_get_for_director``); the report token in the URL is the player's credential.
"""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.idempotency import CONFLICT, KEY_PARAMETER, keyed_answer
from tournaments.api.private import PrivateAnswers
from tournaments.api.serializers import JobSerializer, StrictInput, no_input
from tournaments.api.serializers_results import RESULTS, PreviewSerializer
from tournaments.errors import ServiceError
from tournaments.models import Entry, MatchGame
from tournaments.selectors.access import (
    entry_get_by_token,
    event_get_for_director,
    event_get_for_viewer,
    match_game_get_for_director,
    match_get_for_director,
)
from tournaments.selectors.playoffs import bracket_for_event, entry_current_match, match_games
from tournaments.services.conflicts import read_again_on_drop
from tournaments.services.idempotency import report_print
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.playoffs_corrections import (
    match_clock_start,
    match_clock_stop,
    match_game_correct,
    match_game_void,
)
from tournaments.services.playoffs_matches import match_game_report
from tournaments.services.results import line_preview


class PlayerLineSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(
        allow_null=True, help_text="the player, or in a doubles event the team's name"
    )
    team_id = serializers.IntegerField(allow_null=True, help_text="the team (doubles events)")
    seed = serializers.IntegerField(allow_null=True)
    wins = serializers.IntegerField()


class MatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    slot = serializers.IntegerField()
    best_of = serializers.IntegerField()
    status = serializers.CharField()
    bye = serializers.BooleanField()
    a = serializers.SerializerMethodField()
    b = serializers.SerializerMethodField()
    winner_id = serializers.IntegerField(allow_null=True)
    absent_id = serializers.IntegerField(allow_null=True)
    clock_started_at = serializers.DateTimeField(allow_null=True)

    @extend_schema_field(PlayerLineSerializer)
    def get_a(self, match) -> dict:
        return _side(match, "a")

    @extend_schema_field(PlayerLineSerializer)
    def get_b(self, match) -> dict:
        return _side(match, "b")


def _side(match, side: str) -> dict:
    entry = getattr(match, f"entry_{side}")
    return {
        "entry_id": entry.pk if entry else None,
        "name": entry.entrant_name if entry else None,
        "team_id": entry.team_id if entry else None,
        "seed": getattr(match, f"seed_{side}"),
        "wins": getattr(match, f"wins_{side}", 0),
    }


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    name = serializers.CharField()
    best_of = serializers.IntegerField()
    matches = MatchSerializer(many=True)


class BracketSerializer(serializers.Serializer):
    built = serializers.BooleanField()
    entrants = serializers.IntegerField(allow_null=True)
    qualifiers = serializers.IntegerField(allow_null=True)
    champion_id = serializers.IntegerField(allow_null=True)
    rounds = RoundSerializer(many=True)


class MatchReportSerializer(StrictInput):
    result = serializers.ChoiceField(choices=RESULTS)
    margin = serializers.IntegerField(
        min_value=0, max_value=9999, help_text="The spread: the target minus the loser's score."
    )
    preview = serializers.BooleanField(
        default=False, help_text="Answer with the engine's line and words; save nothing."
    )
    game = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=9999,
        help_text="The match's game the player is reporting; refused (code game_changed) if "
        "another game is in play now: a report kept on a phone may arrive late.",
    )


class ClockSerializer(StrictInput):
    absent = serializers.IntegerField(help_text="the entry id of the absent player")


class BracketView(APIView):
    """The bracket: rounds in order, each match with its seeds, players, games won and winner."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=BracketSerializer)
    def get(self, request, event_id: int):
        event = event_get_for_viewer(event_id=event_id, user=request.user)
        view = bracket_for_event(event=event)
        data = {
            "built": view is not None,
            "entrants": view.playoff.entrants if view else None,
            "qualifiers": view.playoff.qualifiers if view else None,
            "champion_id": view.bracket.champion if view else None,
            "rounds": list(view.rounds) if view else [],
        }
        return Response(BracketSerializer(data).data)


class PlayoffBuildView(APIView):
    """Make the cut and build the bracket: 202 with the job (refused with 400 if not ready)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        job = playoff_build_request(event=event, user=request.user)
        job.refresh_from_db()  # without a broker the job has already run
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class MatchReportView(PrivateAnswers, APIView):
    """A player's "I won / I lost by N" for the current game of their playoff match: with
    ``preview`` the engine's line and words (200, nothing saved), else 201 with the match after
    it (the game is verified and the match decided when both cards agree). With an
    ``Idempotency-Key`` header the report is saved once per key (``api.idempotency``)."""

    # The private link in the path is the credential: no session or token is read (no session
    # query, and a page's offline queue posts without a CSRF token, which a signed-in player's
    # session would otherwise require).
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        request=MatchReportSerializer,
        parameters=[KEY_PARAMETER],
        responses={200: PreviewSerializer, 201: MatchSerializer, 409: CONFLICT},
    )
    def post(self, request, token: str):
        # The reads around the write survive a dropped connection as the write does
        # (``services.conflicts``): a saved report is never answered with a 500.
        entry = read_again_on_drop(lambda: entry_get_by_token(token=token))
        match = read_again_on_drop(lambda: entry_current_match(entry=entry))
        if match is None:
            raise Http404("You have no playoff match.")
        body = MatchReportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        won, margin = body.validated_data["result"] == "won", body.validated_data["margin"]
        if body.validated_data["preview"]:
            line, words = read_again_on_drop(
                lambda: line_preview(event=entry.event, won=won, spread=margin)
            )
            return Response(PreviewSerializer({"line": line, "words": words}).data)

        game = body.validated_data.get("game")

        def write():
            match_game_report(
                match=match,
                entry=entry,
                won=won,
                spread=margin,
                user=request.user,
                game_number=game,
            )

        def answer():
            return MatchSerializer(entry_current_match(entry=entry)).data

        keyed = keyed_answer(
            request,
            entry=entry,
            print_=report_print(
                "match", result=body.validated_data["result"], margin=margin, game=game
            ),
            status=status.HTTP_201_CREATED,
            write=write,
            answer=answer,
        )
        if keyed is not None:
            return keyed
        write()
        return Response(read_again_on_drop(answer), status=status.HTTP_201_CREATED)


class MatchClockView(APIView):
    """POST starts (or restarts) the no-show clock against the absent player of a match;
    DELETE stops it (forfeits already made stay; void them if needed). Directors only."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=MatchSerializer)
    def delete(self, request, event_id: int, match_id: int):
        match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
        match_clock_stop(match=match, user=request.user)
        match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
        return Response(MatchSerializer(match).data)

    @extend_schema(request=ClockSerializer, responses=MatchSerializer)
    def post(self, request, event_id: int, match_id: int):
        match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
        body = ClockSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        absent = Entry.objects.filter(pk=body.validated_data["absent"]).first()
        if absent is None:
            raise ServiceError("No such player.", field="absent", code="not_in_match")
        match_clock_start(match=match, absent=absent, user=request.user)
        match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
        return Response(MatchSerializer(match).data)


class MatchGameLineSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField()
    kind = serializers.CharField()
    game_points = serializers.IntegerField()
    plus = serializers.IntegerField()
    minus = serializers.IntegerField()
    source = serializers.CharField()
    reason = serializers.CharField()


class MatchGameSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MatchGame.Status.choices)
    winner_id = serializers.IntegerField(allow_null=True)
    forfeit = serializers.BooleanField()
    lines = serializers.SerializerMethodField()

    @extend_schema_field(MatchGameLineSerializer(many=True))
    def get_lines(self, game) -> list[dict]:
        current = [line for line in game.lines.all() if line.current]
        return MatchGameLineSerializer(current, many=True).data


class MatchDetailSerializer(MatchSerializer):
    games = MatchGameSerializer(many=True, source="games_list")


class MatchChangeSerializer(MatchDetailSerializer):
    """The match after a correction or void, and whether it un-finalised the event."""

    unfinalised = serializers.BooleanField(
        help_text="true when this change reopened the final of a finalised event: its MRP "
        "awards are withdrawn until the event is finalised again"
    )
    unfinalised_message = serializers.CharField(help_text="what to do, or empty")


def _change_answer(event_id: int, match_id: int, user, change) -> dict:
    return {
        **_match_detail(event_id, match_id, user),
        "unfinalised": change.unfinalised,
        "unfinalised_message": change.unfinalised_message,
    }


class MatchGameCorrectSerializer(StrictInput):
    winner = serializers.IntegerField(help_text="the entry id of the game's winner")
    margin = serializers.IntegerField(min_value=1, max_value=1000)
    reason = serializers.CharField(max_length=300)


class MatchGameVoidSerializer(StrictInput):
    reason = serializers.CharField(max_length=300)


def _match_detail(event_id: int, match_id: int, user) -> dict:
    match = match_get_for_director(event_id=event_id, match_id=match_id, user=user)
    match.games_list = match_games(match=match)
    return MatchDetailSerializer(match).data


class MatchDetailView(APIView):
    """A match for its directors: players, games won, and every game with its current lines."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=MatchDetailSerializer)
    def get(self, request, event_id: int, match_id: int):
        return Response(_match_detail(event_id, match_id, request.user))


class MatchGameCorrectView(APIView):
    """Settle or correct a game (cards that disagree, or a decided game): the winner and the
    spread, with the reason. 200 with the match after it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MatchGameCorrectSerializer, responses=MatchChangeSerializer)
    def post(self, request, event_id: int, match_id: int, number: int):
        match, game = match_game_get_for_director(
            event_id=event_id, match_id=match_id, number=number, user=request.user
        )
        body = MatchGameCorrectSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        winner = Entry.objects.filter(pk=body.validated_data["winner"]).first()
        if winner is None:
            raise ServiceError(
                "That player is not in this match.", field="winner", code="not_in_match"
            )
        change = match_game_correct(
            match_game=game,
            winner_entry=winner,
            spread=body.validated_data["margin"],
            reason=body.validated_data["reason"],
            user=request.user,
        )
        return Response(_change_answer(event_id, match_id, request.user, change))


class MatchGameVoidView(APIView):
    """Void a game: it counts for nobody (its lines stay in the record). 200 with the match."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=MatchGameVoidSerializer, responses=MatchChangeSerializer)
    def post(self, request, event_id: int, match_id: int, number: int):
        match, game = match_game_get_for_director(
            event_id=event_id, match_id=match_id, number=number, user=request.user
        )
        body = MatchGameVoidSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        change = match_game_void(
            match_game=game, reason=body.validated_data["reason"], user=request.user
        )
        return Response(_change_answer(event_id, match_id, request.user, change))
