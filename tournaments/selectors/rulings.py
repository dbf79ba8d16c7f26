"""Reading judges' calls and rulings, with the one place that decides who may judge an event.

- judging an event: being one of its judges or directors. They see the open calls, answer them,
  record rulings and read the event's rulings.
- the count checker: the engine's count of a hand or a play, for anyone (a player checking a
  count at the table, a judge settling one). Bad cards come back as a ServiceError naming the
  box to fix. The play is checked for two players (pone and dealer) or for 3 or 4 seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Max, Prefetch, Q, QuerySet
from django.utils import timezone

from scoring import (
    CardError,
    HandScore,
    IllegalOrder,
    IllegalPlay,
    PeggingResult,
    PlayResult,
    parse_card,
    parse_cards,
    score_hand,
    score_pegging,
    score_play,
)
from tournaments.errors import ServiceError
from tournaments.models import Event, EventRole, JudgeCall, Match, Ruling, Seat, Table
from tournaments.selectors.access import JUDGING_ROLES
from tournaments.selectors.people import person_name, users_with_names
from tournaments.selectors.playoffs import round_name


def events_judged_by(*, user) -> QuerySet[Event]:
    """Events in which ``user`` is a judge or a director, newest first."""
    if user.is_superuser:
        return Event.objects.all()
    return Event.objects.filter(roles__user=user, roles__role__in=JUDGING_ROLES).distinct()


def event_judges(*, event: Event) -> QuerySet:
    """Users holding the judge role in ``event``, by name."""
    return (
        get_user_model()
        .objects.select_related("player")
        .filter(eventrole__event=event, eventrole__role=EventRole.Role.JUDGE)
        .order_by("first_name", "last_name", "username")
        .distinct()
    )


def table_seats(*, table: Table) -> list[Seat]:
    """The two seats of a table, position 1 first, with their players."""
    return list(table.seats.select_related("entry__player").order_by("position"))


@dataclass(frozen=True)
class OpenCall:
    call: JudgeCall
    game: int | None  # the qualifying game; None for a playoff match
    table: int | None  # None for a playoff match
    players: list[str]
    called_by: str
    minutes_waiting: int
    where: str = ""  # "Table 3 · game 5", or "Playoff match: Semi-finals"
    match: int | None = None


def _minutes_since(moment: datetime, now: datetime) -> int:
    return max(0, int((now - moment).total_seconds() // 60))


def _caller(call: JudgeCall) -> str:
    if call.called_by_entry_id:
        return call.called_by_entry.name
    if call.called_by_user_id:
        return person_name(call.called_by_user)
    return "—"


def judge_calls_open(*, event: Event) -> list[OpenCall]:
    """Open calls of the event (to tables and to playoff matches), longest waiting first, in a
    fixed number of queries."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    calls = (
        JudgeCall.objects.filter(
            Q(table__game__event=event) | Q(match__playoff__event=event), answered_at__isnull=True
        )
        .select_related(
            "table__game",
            "match__entry_a__player",
            "match__entry_b__player",
            "called_by_entry__player",
            "called_by_user__player",
        )
        .prefetch_related(Prefetch("table__seats", queryset=seats))
        .order_by("created_at", "id")
    )
    now = timezone.now()
    rounds = Match.objects.filter(playoff__event=event).aggregate(last=Max("round"))["last"]
    return [_open_call(call, now, rounds) for call in calls]


def _open_call(call: JudgeCall, now: datetime, rounds: int | None) -> OpenCall:
    common = {
        "call": call,
        "called_by": _caller(call),
        "minutes_waiting": _minutes_since(call.created_at, now),
    }
    if call.match_id is not None:
        match = call.match
        players = [e.name for e in (match.entry_a, match.entry_b) if e is not None]
        name = round_name(match.round, rounds or match.round)
        return OpenCall(
            **common, game=None, table=None, players=players, where=f"Playoff match: {name}",
            match=match.pk,
        )  # fmt: skip
    table = call.table
    return OpenCall(
        **common,
        game=table.game.number,
        table=table.number,
        players=[seat.entry.name for seat in table.seats.all()],
        where=f"Table {table.number} · game {table.game.number}",
    )


def judge_call_open_for_table(*, table: Table) -> JudgeCall | None:
    return table.judge_calls.filter(answered_at__isnull=True).first()


def rulings_of_event(*, event: Event) -> QuerySet[Ruling]:
    """Every ruling of the event, newest first, with what the list shows."""
    return (
        Ruling.objects.filter(event=event)
        .select_related(
            "table__game",
            "match_game__match",
            "offender__player",
            "offender__team",
            "beneficiary__player",
            "beneficiary__team",
            "winner__player",
            "winner__team",
            "entered_by__player",
        )
        .prefetch_related(
            # A doubles side is named by its team and partners (``entrants.entrant_label``).
            "offender__team__members__player",
            "beneficiary__team__members__player",
            "winner__team__members__player",
            Prefetch(
                "judges", queryset=users_with_names().order_by("first_name", "last_name", "id")
            ),
        )
        .order_by("-created_at", "-id")
    )


_LABELS = {
    "hand": "Hand",
    "starter": "Starter",
    "pone": "Pone's hand",
    "dealer": "Dealer's hand",
    "plays": "Plays",
}


def _parsed(field: str, parse, text: str):
    try:
        return parse(text)
    except CardError as exc:
        raise ServiceError(f"{_LABELS[field]}: {exc}", field=field, code="bad_card") from None


def count_hand(*, hand: str, starter: str, crib: bool = False) -> HandScore:
    """The engine's count of four cards with the starter (``crib`` for the crib's flush rule)."""
    cards = _parsed("hand", parse_cards, hand)
    cut = _parsed("starter", parse_card, starter)
    # With four good cards, what is left to go wrong is the starter repeating one of them.
    field = "hand" if len(cards) != 4 else "starter"
    try:
        return score_hand(cards, cut, crib=crib)
    except CardError as exc:
        raise ServiceError(f"{_LABELS[field]}: {exc}", field=field, code="bad_card") from None


def count_play(*, pone: str, dealer: str, plays: str) -> PlayResult:
    """The engine's points for each card of a whole play, in the order the cards were laid."""
    pone_cards = _parsed("pone", parse_cards, pone)
    dealer_cards = _parsed("dealer", parse_cards, dealer)
    try:
        return score_play(pone_cards, dealer_cards, plays)
    except (CardError, IllegalPlay) as exc:
        message = str(exc)
        field = "plays"
        if "pone's hand" in message:
            field = "pone"
        elif "dealer's hand" in message or "in both hands" in message:
            field = "dealer"
        code = "illegal_play" if isinstance(exc, IllegalPlay) else "bad_card"
        raise ServiceError(f"{_LABELS[field]}: {message}", field=field, code=code) from None


def count_pegging(*, hands: dict[str, str], plays: str) -> PeggingResult:
    """The engine's points for each card of a play with 2, 3 or 4 seats. ``hands`` maps each
    box (a field name) to its four cards, in the order of play: the seat left of the dealer
    first, the dealer last. A ServiceError names the box to fix."""
    fields = list(hands)
    parsed = []
    for field, text in hands.items():
        try:
            parsed.append(parse_cards(text))
        except CardError as exc:
            raise ServiceError(str(exc), field=field, code="bad_card") from None
        if len(parsed[-1]) != 4:
            message = f"this hand has {len(parsed[-1])} cards, not 4"
            raise ServiceError(message, field=field, code="bad_card")
    try:
        return score_pegging(parsed, plays)
    except (CardError, IllegalPlay) as exc:
        field = _field_of(exc, fields, parsed)
        code = "illegal_play" if isinstance(exc, IllegalPlay) else "bad_card"
        raise ServiceError(str(exc), field=field, code=code) from None


def _field_of(exc: Exception, fields: list[str], parsed: list) -> str:
    """The box an engine error is about: the hand holding a card an earlier hand holds, else
    the plays."""
    if isinstance(exc, IllegalOrder) or not isinstance(exc, CardError):
        return "plays"
    seen: set = set()
    for field, cards in zip(fields, parsed, strict=True):
        if seen & set(cards):
            return field
        seen |= set(cards)
    return "plays"
