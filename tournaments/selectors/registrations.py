"""Reading registration requests: a weekend's list for its directors, one request's private
page for the player, and a waitlisted choice's position in line."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from tournaments.models import RegistrationChoice, RegistrationRequest, Weekend
from tournaments.selectors.player_identity import Candidate, player_candidates

Choice = RegistrationChoice.Status


def waitlist_position(choice: RegistrationChoice) -> int | None:
    """1 for the next in line; None when the choice is not waiting in line."""
    if choice.status != Choice.WAITLISTED or choice.waitlisted_at is None:
        return None
    ahead = RegistrationChoice.objects.filter(
        event_id=choice.event_id, status=Choice.WAITLISTED, waitlisted_at__lt=choice.waitlisted_at
    ).count()
    same_time = RegistrationChoice.objects.filter(
        event_id=choice.event_id,
        status=Choice.WAITLISTED,
        waitlisted_at=choice.waitlisted_at,
        pk__lt=choice.pk,
    ).count()
    return ahead + same_time + 1


@dataclass(frozen=True)
class ChoiceRow:
    choice: RegistrationChoice
    position: int | None


@dataclass(frozen=True)
class RequestRow:
    request: RegistrationRequest
    choices: list[ChoiceRow]
    candidates: list[Candidate]


def _choices(request: RegistrationRequest) -> list[ChoiceRow]:
    return [ChoiceRow(c, waitlist_position(c)) for c in request.choices.all()]


def requests_of_weekend(*, weekend: Weekend) -> list[RequestRow]:
    """Every request of the weekend, the waiting ones first, each with its choices and, while
    it waits, the known players its name may be (the director says who it is)."""
    rows = []
    choices = RegistrationChoice.objects.select_related(
        "event", "keep_apart__entry_a__player", "keep_apart__entry_b__player"
    )
    found = weekend.requests.prefetch_related(Prefetch("choices", queryset=choices)).select_related(
        "player"
    )
    for request in found:
        waiting = request.status in (
            RegistrationRequest.Status.WAITING,
            RegistrationRequest.Status.CHANGE_ASKED,
        )
        candidates = (
            player_candidates(name=request.name) if waiting and not request.acc_number else []
        )
        rows.append(RequestRow(request, _choices(request), candidates))
    order = {RegistrationRequest.Status.WAITING: 0, RegistrationRequest.Status.CHANGE_ASKED: 1}
    return sorted(rows, key=lambda r: order.get(r.request.status, 2))


def request_by_token(*, token: str) -> RegistrationRequest | None:
    return (
        RegistrationRequest.objects.select_related("weekend")
        .prefetch_related(
            Prefetch("choices", queryset=RegistrationChoice.objects.select_related("event"))
        )
        .filter(token=token)
        .first()
    )


def request_status(*, request: RegistrationRequest) -> list[ChoiceRow]:
    """The player's private page: each chosen event with where it stands."""
    return _choices(request)
