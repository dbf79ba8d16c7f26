"""The ACC results package: what the ACC's result form asks of a finalised sanctioned event,
for the CSV download, the printable sheet and the API.

- event part: the style (Main or Consolation), date, region, directors, entrants, qualifying
  games, qualifiers, the qualifier pool, the fees and the MRP schedule with the finalisation.
- player part: every entrant, qualifiers first by finish: ACC number, name, qualifying rank,
  game points, net spread, playoff finish, MRPs (the ledger's) and prize money.
- not a member: an entrant with no ACC number; the package lists them before anything is sent,
  so the director can record their numbers (an award's points stay, flagged).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from tournaments.models import EventRole, Finalisation
from tournaments.selectors.final import ResultRow, event_final_results, pool_of
from tournaments.selectors.people import person_name


@dataclass(frozen=True)
class AccPackage:
    event_id: int
    event: str
    style: str
    starts_on: date | None
    region: str
    directors: list[str]
    entrants: int
    games: int
    qualifiers: int
    qualifier_pool: str
    entry_fee_cents: int
    sanctioning_fee_cents: int
    sanctioning_fees_total_cents: int
    mrp_schedule: str | None  # None: no MRPs from Pegboard, ``mrp_note`` says why (by hand)
    finalisation: int
    finalised_at: datetime
    rows: list[ResultRow]
    mrp_note: str = ""

    @property
    def without_acc_number(self) -> list[ResultRow]:
        return [row for row in self.rows if not row.member]


def _pool_words(event) -> str:
    pool = pool_of(event)
    if pool is None:
        return "none"
    words = {"equal": "equal", "equal_top_doubled": "equal, top doubled"}.get(
        pool.split, f"graduated 1 in {pool.graduation}"
    )
    return f"{words}, {pool.percent}% of the prize fund"


def acc_package(*, event) -> AccPackage | None:
    """The package of a finalised sanctioned event; None before it is finalised."""
    if event.finalised_at is None or not event.sanctioned:
        return None
    results = event_final_results(event=event)
    latest = Finalisation.objects.filter(event=event).order_by("-number").first()
    directors = [
        person_name(role.user)
        for role in EventRole.objects.filter(event=event, role=EventRole.Role.DIRECTOR)
        .select_related("user__player")
        .order_by("user__username")
    ]
    entrants = results.playoff.entrants if results.playoff else 0
    return AccPackage(
        event_id=event.pk,
        event=event.name,
        style=event.get_kind_display(),
        starts_on=event.starts_on,
        region=event.club.region if event.club else "",
        directors=directors,
        entrants=entrants,
        games=event.qualifying_games,
        qualifiers=results.playoff.qualifiers if results.playoff else 0,
        qualifier_pool=_pool_words(event),
        entry_fee_cents=event.entry_fee_cents,
        sanctioning_fee_cents=event.sanctioning_fee_cents,
        sanctioning_fees_total_cents=event.sanctioning_fee_cents * entrants,
        mrp_schedule=results.mrp_schedule,
        finalisation=latest.number if latest else 0,
        finalised_at=event.finalised_at,
        rows=results.rows,
        mrp_note=results.mrp_note,
    )
