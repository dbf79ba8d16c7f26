"""Finalising an event into the Master Rating Points ledger, and keeping the ledger true.

- finalise: a director's action after the final. A job works out every qualifier's award
  from the stored results (fresh standings, the bracket) and writes one ledger row per award.
  Running it again changes nothing. Only an event the ACC office sanctioned
  (``services.sanctioning``) has awards in the ledger: another one is finalised with none (its
  results are final on Pegboard, and stay out of the national ledger). When the office
  sanctions a finalised event later, or withdraws its sanction, the refresh below follows.
- refresh: after a correction to a finalised event, the same job runs again: if any award
  changed, the event's current rows are superseded (kept, no longer current) and the new ones
  written under a new finalisation; if none did, nothing is written. If a correction reopened
  the final, the event's awards are withdrawn until it is finalised again.
- rebuild: the job for every finalised event at once; from the stored results it gives the
  same rows (and writes nothing when the ledger is already right).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tournaments.core.mrp import MRP_SCHEDULE, MrpUnavailable, mrp_awards, mrp_table_for
from tournaments.errors import Blocked, ServiceError
from tournaments.models import Entry, Event, Finalisation, Job, MrpAward, Playoff
from tournaments.selectors.final import bracket_of, qualifier_results
from tournaments.selectors.standings import standings_live
from tournaments.selectors.waiting import WITHDRAWN, Blocker, cut_blockers
from tournaments.services.audit import Kind, audit_record
from tournaments.services.jobs import Progress, job_enqueue

COMPARED = (
    "entry_id", "player_id", "points", "qualifying_points", "playoff_points", "schedule",
    "kind", "rank", "game_points", "qualifiers", "games", "rounds_won", "round_lost", "member",
    "year",
)  # fmt: skip


NOT_IN_LEDGER = (
    "Its results are final here. They are not in the national MRP ledger: the ACC office has "
    "not sanctioned this event (ask them from the event's settings)."
)


UNFINALISED = (
    "The results are no longer final: {why} reopened the final, so the MRP awards are "
    "withdrawn. Finalise again from the final results page once the final is decided."
)


def final_reopened(*, event: Event, was_final: bool) -> bool:
    """Whether a change to the playoffs just un-finalised ``event``: it was final, and its
    final is no longer decided (the ledger job then withdraws the awards)."""
    playoff = Playoff.objects.filter(event=event).first()
    return was_final and (playoff is None or bracket_of(playoff).champion is None)


def mrp_by_hand(event: Event) -> str:
    """Why a sanctioned event's MRPs are reported by hand (no published table covers its
    length: ``core.mrp``), or "": it is finalised with no awards, the ACC package without MRPs."""
    if not event.sanctioned:
        return ""
    try:
        mrp_table_for(event.kind, event.qualifying_games)
    except MrpUnavailable as exc:
        return (
            f"Its results are final, with no MRPs in the ledger: {exc}. The ACC results "
            "package lists every player without MRPs."
        )
    return ""


def finalise_blockers(event: Event) -> list[Blocker]:
    """Everything that stops ``event`` being finalised now, each with its page; [] when it can."""
    playoff = Playoff.objects.filter(event=event).first()
    if playoff is None:
        return cut_blockers(event=event) or [
            Blocker("Make the cut and build the bracket", reverse("event-manage", args=[event.pk]))
        ]
    if bracket_of(playoff).champion is None:
        bracket = reverse("playoff-bracket", args=[event.pk])
        return [Blocker("The final is not decided yet: finalise after it", bracket)]
    return []


def finalise_refusal(event: Event) -> str | None:
    """Why ``event`` cannot be finalised now (every reason), or None when it can."""
    blockers = finalise_blockers(event)
    return "; ".join(b.text for b in blockers) + "." if blockers else None


@transaction.atomic
def event_finalise_request(*, event: Event, user) -> Job:
    """The director finalises the event: its awards are written to the ledger by a job."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    blockers = finalise_blockers(event)
    if blockers:
        raise Blocked("This event cannot be finalised yet:", blockers, code="cannot_finalise")
    job = _enqueue(event, user, "finalised by the director", finalise=True)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.RESULTS,
        action="event_finalise_request",
        summary=_finalised_summary(event),
    )
    return job


def _finalised_summary(event: Event) -> str:
    if event.in_teams:
        return "Results finalised, kept on Pegboard: a doubles event earns no Master Rating Points"
    if not event.sanctioned:
        return "Results finalised, kept on Pegboard: the event is not sanctioned"
    if mrp_by_hand(event):
        return "Results finalised: no published MRP table covers this length, MRPs by hand"
    return "Results finalised: the MRP awards go to the ledger"


def _enqueue(event: Event, user, reason: str, *, finalise: bool = False) -> Job:
    return job_enqueue(
        kind="ledger",
        key=f"event:{event.pk}",
        task="tournaments.tasks.finalise_event",
        created_by=user if user is not None and user.is_authenticated else None,
        event_id=event.pk,
        reason=reason,
        finalise=finalise,
    )


def ledger_refresh_request(*, event: Event, reason: str) -> Job | None:
    """After a change to a finalised event's results: check its awards again, by a job."""
    if event.finalised_at is None:
        return None
    return _enqueue(event, None, reason)


def _award_rows(event: Event) -> list[MrpAward] | None:
    """The awards the stored results give now (unsaved rows): [] for an event that is not
    sanctioned, None while the final is open."""
    playoff = Playoff.objects.filter(event=event).first()
    if playoff is None:
        return None
    bracket = bracket_of(playoff)
    if bracket.champion is None:
        return None
    if not event.sanctioned or event.in_teams or mrp_by_hand(event):
        return []  # a doubles event earns no MRPs, even if once sanctioned as singles
    standings = standings_live(event=event)
    results = qualifier_results(
        playoff=playoff,
        bracket=bracket,
        game_points={row.entry_id: row.game_points for row in standings.rows},
    )
    awards = mrp_awards(event.kind, event.qualifying_games, results)
    players = dict(
        Entry.objects.filter(pk__in=[a.result.entry_id for a in awards]).values_list(
            "pk", "player_id"
        )
    )
    numbers = dict(Entry.objects.filter(pk__in=players).values_list("pk", "player__acc_number"))
    year = (event.starts_on or (event.finalised_at or timezone.now()).date()).year
    return [
        MrpAward(
            event=event, entry_id=a.result.entry_id, player_id=players[a.result.entry_id],
            points=a.points, qualifying_points=a.qualifying, playoff_points=a.playoff,
            schedule=MRP_SCHEDULE, kind=event.kind, rank=a.result.rank,
            game_points=a.result.game_points, qualifiers=len(results),
            games=event.qualifying_games, rounds_won=a.result.rounds_won,
            round_lost=a.result.round_lost, member=bool(numbers[a.result.entry_id]), year=year,
        )
        for a in awards
    ]  # fmt: skip


def _key(row: MrpAward) -> tuple:
    return tuple(getattr(row, name) for name in COMPARED)


def event_finalise(
    *,
    event_id: int,
    reason: str,
    finalise: bool = False,
    job: Job | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The job's work: the event's ledger rows as the stored results give them (see module).
    ``finalise`` is the director's request; without it only a finalised event is touched."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event_id)
        if event.finalised_at is None and not finalise:
            return {"changed": False, "awards": 0, "why": "not finalised"}
        first = event.finalised_at is None
        if first:
            event.finalised_at = timezone.now()
            event.save(update_fields=["finalised_at"])
        rows = _award_rows(event)
        current = list(MrpAward.objects.filter(event=event, current=True))
        if not first and rows is not None and sorted(map(_key, current)) == sorted(map(_key, rows)):
            return {"changed": False, "awards": len(current)}
        return _write(event, rows, current, reason, job)


def _write(event, rows, current, reason, job) -> dict[str, Any]:
    """Supersede the current rows with ``rows``; ``rows`` None: the final was reopened by a
    correction, so no awards (and not final) until the event is finalised again."""
    now = timezone.now()
    MrpAward.objects.filter(pk__in=[row.pk for row in current]).update(
        current=False, superseded_at=now
    )
    number = (
        Finalisation.objects.filter(event=event)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    ) + 1
    if rows is None:
        rows = []
        event.finalised_at = None
        event.save(update_fields=["finalised_at"])
        audit_record(
            event=event,
            actor=job.created_by if job else None,
            kind=Kind.RESULTS,
            action="event_unfinalised",
            summary=UNFINALISED.format(why=reason),
            after={"finalised_at": None, "awards_withdrawn": len(current)},
        )
        reason = f"{reason}; {WITHDRAWN}"
    finalisation = Finalisation.objects.create(
        event=event, number=number, reason=reason[:200], awards=len(rows),
        points=sum(row.points for row in rows), job=job,
        created_by=job.created_by if job else None,
    )  # fmt: skip
    for row in rows:
        row.finalisation = finalisation
    MrpAward.objects.bulk_create(rows)
    return {"changed": True, "awards": len(rows), "finalisation": number}


def ledger_rebuild(*, progress: Progress | None = None, job: Job | None = None) -> dict:
    """Every finalised event's ledger from the stored results (the rebuild job's work)."""
    events = list(Event.objects.filter(finalised_at__isnull=False).values_list("pk", flat=True))
    changed = 0
    for done, event_id in enumerate(events, start=1):
        changed += event_finalise(event_id=event_id, reason="ledger rebuilt")["changed"]
        if progress and done % 10 == 0:
            progress(int(100 * done / len(events)), f"{done} of {len(events)} events")
    return {"events": len(events), "changed": changed}


def ledger_rebuild_request(*, user) -> Job:
    """An administrator asks for every ledger to be rebuilt from the stored results."""
    if not (user.is_authenticated and user.is_staff):
        raise ServiceError("Only an administrator may rebuild the ledger.", code="not_staff")
    return job_enqueue(
        kind="ledger-rebuild", key="all", task="tournaments.tasks.rebuild_ledger", created_by=user
    )
