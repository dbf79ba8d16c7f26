"""API: results. A player reports their game from the private link on their scorecard; the
event's directors and cross-checkers watch the live board, enter lines from paper cards, settle
flagged tables by ACC Rule 12.2 and correct lines (the old lines are always kept).

Who may do what is decided by the selectors: the report token in the URL is the player's
credential (``entry_get_by_token``: an unknown or revoked link is 404); ``event_get_for_staff``
and ``table_get_for_staff`` admit directors and cross-checkers; ``event_get_for_director`` admits
directors only (closing a game, reminding players). A line a director enters is recorded with
source ``director``, one a cross-checker enters with ``cross_checker``.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.games import CardLine as EngineLine
from tournaments.api.idempotency import CONFLICT, KEY_PARAMETER, keyed_answer
from tournaments.api.private import PrivateAnswers
from tournaments.api.serializers import no_input
from tournaments.api.serializers_report import ReportSavedSerializer
from tournaments.api.serializers_results import (
    BoardSerializer,
    CorrectionSerializer,
    CrossCheckSerializer,
    FlaggedTableSerializer,
    PaperLineSerializer,
    PlayerReportSerializer,
    PreviewSerializer,
    ReportSerializer,
    TableDetailSerializer,
)
from tournaments.errors import ServiceError
from tournaments.models import CardLine, Seat, Table
from tournaments.selectors.access import (
    entry_get_by_token,
    event_get_for_director,
    event_get_for_staff,
    game_in,
    table_get_for_staff,
)
from tournaments.selectors.board import board_for_game
from tournaments.selectors.report import player_state
from tournaments.selectors.results import (
    current_lines,
    entry_current_seat,
    flagged_tables,
    staff_line_source,
    table_detail_of,
)
from tournaments.services.conflicts import read_again_on_drop
from tournaments.services.corrections import (
    table_correct,
    table_cross_check,
    table_paper_line_enter,
)
from tournaments.services.idempotency import HEADER, idempotency_key_clean, report_print
from tournaments.services.report import report_by_link
from tournaments.services.results import (
    card_line_preview,
    card_line_report,
    game_close,
    game_remind_unreported,
)

REPORTED, VERIFIED = CardLine.Kind.REPORTED, CardLine.Kind.VERIFIED


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.select_related("entry__player").order_by("position"))


# The player's report


class ReportView(PrivateAnswers, APIView):
    """The player's page as data: no sign-in, the private link's token is the credential.

    GET: the current game (number, table, opponent, whether it can be reported now, the
    player's reported and verified lines, the opponent's status and the game's state in plain
    words) and the running card. POST "I won / I lost by N":
    with ``preview`` the engine's line and words (200, nothing saved), else the report is
    saved (201, the new state); the game is verified when both cards agree. With an
    ``Idempotency-Key`` header the report is saved once per key (``api.idempotency``)."""

    # The private link in the path is the credential: no session or token is read (no session
    # query, and a page's offline queue posts without a CSRF token, which a signed-in player's
    # session would otherwise require).
    authentication_classes: list = []
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerReportSerializer)
    def get(self, request, token: str):
        return Response(read_again_on_drop(lambda: _player_report(entry_get_by_token(token=token))))

    @extend_schema(
        request=ReportSerializer,
        parameters=[KEY_PARAMETER],
        responses={200: PreviewSerializer, 201: ReportSavedSerializer, 409: CONFLICT},
    )
    def post(self, request, token: str):
        form = ReportSerializer(data=request.data)
        if form.is_valid() and not form.validated_data["preview"]:
            data = form.validated_data
            done = report_by_link(
                token=token,
                won=data["result"] == "won",
                spread=data["margin"],
                game_number=data.get("game"),
                key=idempotency_key_clean(request.headers.get(HEADER)),
                print_=_print(data),
            )
            if done is not None:
                return _answer(done, token)
        return self._general(request, token, form)

    def _general(self, request, token: str, form):
        """Every other case: a preview, a refusal that needs the link, the page's state, a
        sit-out or no game (``report_by_link`` takes a game at a table only)."""
        # The reads before and after the write survive a dropped connection as the write does
        # (``services.conflicts``): a saved report is never answered with a 500.
        entry = read_again_on_drop(lambda: entry_get_by_token(token=token))
        form.is_valid(raise_exception=True)
        seat = read_again_on_drop(lambda: entry_current_seat(entry=entry))
        if seat is None:
            raise serializers.ValidationError("You have no game in play yet.", code="no_game")
        won, margin = form.validated_data["result"] == "won", form.validated_data["margin"]
        if form.validated_data["preview"]:
            line, words = read_again_on_drop(
                lambda: card_line_preview(
                    seat=seat, won=won, spread=margin, game_number=form.validated_data.get("game")
                )
            )
            return Response(PreviewSerializer({"line": line, "words": words}).data)

        def write():
            card_line_report(
                seat=seat,
                won=won,
                spread=margin,
                user=request.user,
                game_number=form.validated_data.get("game"),
            )

        keyed = keyed_answer(
            request,
            entry=entry,
            print_=_print(form.validated_data),
            status=status.HTTP_201_CREATED,
            write=write,
            answer=lambda: _player_report(entry),
        )
        if keyed is not None:
            return keyed
        write()
        answer = read_again_on_drop(lambda: _player_report(entry))
        return Response(answer, status=status.HTTP_201_CREATED)


def _print(data: dict) -> str:
    result, margin, game = data["result"], data["margin"], data.get("game")
    return report_print("report", result=result, margin=margin, game=game)


def _answer(done, token: str) -> Response:
    """A report saved by link, or its replay (one first sent from the page's form kept no body:
    answered with the state as it is now)."""
    body = done.body
    if body is None:
        body = read_again_on_drop(lambda: _player_report(entry_get_by_token(token=token)))
    response = Response(body, status=done.status)
    if done.replayed:
        response["Idempotent-Replayed"] = "true"
    return response


def _player_report(entry) -> dict:
    """The player's page as data (GET, and the answer to a saved report)."""
    return PlayerReportSerializer(player_state(entry=entry)).data


# A game: the live board, closing it, reminding the players


class GameBoardView(APIView):
    """Every table of a game with its players, each one's current reported line (or null) and
    when their phone was last heard, the table's status and its state: waiting, one reported,
    disagree, verified, flagged; ``silence`` when no phone has reached the server for
    ``SILENCE_MINUTES``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=BoardSerializer)
    def get(self, request, event_id: int, number: int):
        event = event_get_for_staff(event_id=event_id, user=request.user)
        board = board_for_game(game=game_in(event, number))
        return Response(BoardSerializer(board).data)


class GameCloseView(APIView):
    """Play is over: every table whose cards do not agree is flagged for a cross-check."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses=inline_serializer("GameClosed", {"flagged": serializers.IntegerField()}),
    )
    def post(self, request, event_id: int, number: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        return Response({"flagged": game_close(game=game_in(event, number), user=request.user)})


class GameRemindView(APIView):
    """Leave a reminder on the page of every player whose table has not reported."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=None,
        responses=inline_serializer("PlayersReminded", {"reminded": serializers.IntegerField()}),
    )
    def post(self, request, event_id: int, number: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        no_input(request)
        game = game_in(event, number)
        return Response({"reminded": game_remind_unreported(game=game, user=request.user)})


# One table: its lines and history, a paper card, a cross-check, a correction


def _staff_table(request, event_id: int, number: int, table_number: int) -> Table:
    return table_get_for_staff(
        event_id=event_id, number=number, table_number=table_number, user=request.user
    )


class TableDetailView(APIView):
    """Both players' reported and verified lines, and every line ever entered at the table:
    kind, source, whether it is current, who entered it, when and why."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=TableDetailSerializer)
    def get(self, request, event_id: int, number: int, table_number: int):
        table = _staff_table(request, event_id, number, table_number)
        return Response(TableDetailSerializer(table_detail_of(table=table)).data)


class TableLineView(APIView):
    """Enter a player's line from their paper card ("won / lost by N" at position 1 or 2)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PaperLineSerializer, responses={201: TableDetailSerializer})
    def post(self, request, event_id: int, number: int, table_number: int):
        table = _staff_table(request, event_id, number, table_number)
        form = PaperLineSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        table_paper_line_enter(
            table=table,
            position=data["position"],
            won=data["result"] == "won",
            spread=data["margin"],
            user=request.user,
        )
        detail = TableDetailSerializer(table_detail_of(table=table)).data
        return Response(detail, status=status.HTTP_201_CREATED)


class TableCrossCheckView(APIView):
    """Settle a flagged table by ACC Rule 12.2: the cases applied and the verified lines."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=CrossCheckSerializer)
    def post(self, request, event_id: int, number: int, table_number: int):
        table = _staff_table(request, event_id, number, table_number)
        no_input(request)
        cases = table_cross_check(table=table, user=request.user)
        verified = current_lines(table=table, kind=VERIFIED)
        lines = [
            {
                "position": seat.position,
                "game_points": line.game_points,
                "plus": line.plus,
                "minus": line.minus,
                "source": line.source,
                "reason": line.reason,
            }
            for seat in _seats(table)
            if (line := verified.get(seat.pk)) is not None
        ]
        return Response(CrossCheckSerializer({"cases": list(cases), "lines": lines}).data)


class TableCorrectView(APIView):
    """New verified lines for one or both players, with the reason; the old lines stay in the
    history and players whose side of the cut moved are told."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=CorrectionSerializer, responses=TableDetailSerializer)
    def post(self, request, event_id: int, number: int, table_number: int):
        table = _staff_table(request, event_id, number, table_number)
        form = CorrectionSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        by_position = {seat.position: seat.pk for seat in _seats(table)}
        given = form.validated_data["lines"]
        lines = {
            by_position[line["position"]]: EngineLine(
                line["game_points"], line["plus"], line["minus"]
            )
            for line in given
        }
        try:
            table_correct(
                table=table,
                lines=lines,
                reason=form.validated_data["reason"],
                user=request.user,
                source=staff_line_source(event=table.game.event, user=request.user),
                rebuild_bracket=form.validated_data["rebuild_bracket"],
            )
        except ServiceError as exc:
            raise _lines_field(exc, [line["position"] for line in given]) from None
        return Response(TableDetailSerializer(table_detail_of(table=table)).data)


def _lines_field(exc: ServiceError, positions: list[int]) -> ServiceError:
    """The service names a seat's box ``plus_2``; the API names it by the request's list:
    ``lines[0].plus`` (the line sent for position 2), or ``lines.position_2.plus`` if the
    request did not send a line for that seat (the other seat's current line)."""
    part, _, position = (exc.field or "").rpartition("_")
    if not position.isdigit() or part not in ("game_points", "plus", "minus"):
        return exc
    seat = int(position)
    where = f"lines[{positions.index(seat)}]" if seat in positions else f"lines.position_{seat}"
    return ServiceError(exc.message, field=f"{where}.{part}", code=exc.code)


class CrossCheckListView(GenericAPIView):
    """Tables waiting for a cross-check, game by game."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = FlaggedTableSerializer
    queryset = Table.objects.none()  # names the model for the schema; rows come from selectors

    @extend_schema(responses=FlaggedTableSerializer(many=True))
    def get(self, request, event_id: int):
        event = event_get_for_staff(event_id=event_id, user=request.user)
        page = self.paginate_queryset(flagged_tables(event=event))
        return self.get_paginated_response(FlaggedTableSerializer(page, many=True).data)
