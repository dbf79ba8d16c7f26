"""Finalising an event into the MRP ledger, and the ACC results package (CSV and a printable
sheet) for its directors."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.core.money import dollars
from tournaments.errors import ServiceError
from tournaments.exports import csv_download
from tournaments.selectors.acc_package import AccPackage, acc_package
from tournaments.selectors.access import event_get_for_director
from tournaments.services.ledger import NOT_IN_LEDGER, event_finalise_request, mrp_by_hand
from tournaments.views.refusals import refusal_message

EVENT_FIELDS = (
    ("Event", "event"),
    ("Style", "style"),
    ("Date", "starts_on"),
    ("Region", "region"),
    ("Directors", "directors"),
    ("Entrants", "entrants"),
    ("Qualifying games", "games"),
    ("Qualifiers", "qualifiers"),
    ("Qualifier pool", "qualifier_pool"),
    ("Entry fee", "entry_fee_cents"),
    ("ACC sanctioning fee per entrant", "sanctioning_fee_cents"),
    ("ACC sanctioning fees", "sanctioning_fees_total_cents"),
    ("MRP schedule", "mrp_schedule"),
    ("Finalisation", "finalisation"),
)
PLAYER_COLUMNS = [
    "acc_number",
    "member",
    "name",
    "qualifying_rank",
    "game_points",
    "net_spread",
    "playoff_finish",
    "mrp",
    "mrp_qualifying",
    "mrp_playoffs",
    "prize",
]


def event_lines(package: AccPackage) -> list[tuple[str, str]]:
    """The event part as (label, value) pairs, money in dollars."""
    lines = []
    for label, name in EVENT_FIELDS:
        value = getattr(package, name)
        if name.endswith("_cents"):
            value = dollars(value)
        elif isinstance(value, list):
            value = ", ".join(value)
        elif name == "mrp_schedule" and value is None:
            value = package.mrp_note
        lines.append((label, "" if value is None else str(value)))
    return lines


def player_line(row) -> list:
    return [
        row.acc_number, "yes" if row.member else "no: not a member", row.name,
        row.qualifying_rank or "", row.game_points, row.net_spread, row.finish,
        "" if row.mrp is None else row.mrp,
        "" if row.mrp_qualifying is None else row.mrp_qualifying,
        "" if row.mrp_playoff is None else row.mrp_playoff,
        dollars(row.payout_cents),
    ]  # fmt: skip


@login_required
@require_POST
def finalise(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        job = event_finalise_request(event=event, user=request.user)
    except ServiceError as exc:
        refusal_message(request, exc)
    else:
        job.refresh_from_db()
        if not event.sanctioned:
            messages.success(request, NOT_IN_LEDGER)
        elif mrp_by_hand(event):
            messages.success(request, mrp_by_hand(event))
        elif job.status == job.Status.SUCCEEDED:
            messages.success(request, "The results are final: the MRPs are in the ledger.")
        else:
            messages.info(request, "Finalising: the MRP ledger is being written.")
    return redirect("event-results", event_id=event.pk)


def _package_or_page(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    package = acc_package(event=event)
    if package is None:
        page = render(request, "tournaments/final/acc_results.html", {"event": event}, status=409)
        return event, None, page
    return event, package, None


@login_required
def acc_results_csv(request, event_id: int):
    event, package, refusal = _package_or_page(request, event_id)
    if refusal:
        return refusal
    response, writer = csv_download(f"acc-results-{event.pk}.csv")
    for label, value in event_lines(package):
        writer.writerow([label, value])
    writer.writerow([])
    writer.writerow(PLAYER_COLUMNS)
    for row in package.rows:
        writer.writerow(player_line(row))
    return response


@login_required
def acc_results_print(request, event_id: int):
    event, package, refusal = _package_or_page(request, event_id)
    if refusal:
        return refusal
    context = {"event": event, "package": package, "event_lines": event_lines(package)}
    return render(request, "tournaments/final/acc_results.html", context)
