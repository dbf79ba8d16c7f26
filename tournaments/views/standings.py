"""The live standings (public once the event is published) and the scorecards to print."""

from __future__ import annotations

import functools
import re

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.models import Entry, EventRole, Playoff
from tournaments.selectors.access import event_get_for_director, event_get_for_viewer, event_roles
from tournaments.selectors.events import entries_of_event
from tournaments.selectors.live import public_version
from tournaments.selectors.results import standings_table
from tournaments.services.corrections import tie_playoff_record
from tournaments.views.live import live_page


class PlayoffForm(forms.Form):
    winner = forms.IntegerField(min_value=1, max_value=10**18)
    loser = forms.IntegerField(min_value=1, max_value=10**18)


def standings(request, event_id: int):
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    is_director = EventRole.Role.DIRECTOR in event_roles(event=event, user=request.user)
    return live_page(
        request,
        version=lambda: public_version(event=event),
        page="tournaments/results/standings.html",
        part="tournaments/results/_standings_live.html",
        context=lambda: {
            "event": event,
            "standings": standings_table(event=event),
            "is_director": is_director,
            "post_cut": Playoff.objects.filter(event=event).exists(),
        },
    )


@login_required
@require_POST
def tie_playoff(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    form = PlayoffForm(request.POST)
    entries = {e.pk: e for e in entries_of_event(event=event)}
    if form.is_valid() and {form.cleaned_data["winner"], form.cleaned_data["loser"]} <= set(
        entries
    ):
        try:
            tie_playoff_record(
                event=event,
                winner=entries[form.cleaned_data["winner"]],
                loser=entries[form.cleaned_data["loser"]],
                user=request.user,
                rebuild_bracket=bool(request.POST.get("rebuild_bracket")),
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "Playoff result recorded; the standings are being updated.")
    else:
        messages.error(request, "Choose the winner of the playoff between two tied players.")
    return redirect("standings", event_id=event.pk)


DARK_RUN = re.compile(rb"\x01+")  # a run of dark modules in a row of a QR code's matrix


@functools.lru_cache(maxsize=2048)  # about 2.5 kB each
def scorecard_qr_svg(url: str, title: str) -> str:
    """The QR code of a player's private link: inline SVG, one path, sized by the print style
    sheet (static/css/print.css), with the 4-module quiet zone a reader needs around it.

    Kept by link: a new link is a new token, so a kept code is never stale. A cold page of 500
    cards draws 500 codes, so this is written for speed. segno scores all eight masks to pick
    the most readable (ISO 18004), four fifths of its time; a reader decodes any mask (the code
    says which), and mask 4 is the one most often best for these links, and close otherwise.
    Each dark run of a row is one stroke, as segno draws them, without its general-purpose
    writer (a third of the time left)."""
    matrix = segno.make_qr(url, error="m", mask=4, boost_error=False).matrix
    size = len(matrix) + 8
    strokes = []
    for y, row in enumerate(matrix, start=4):
        end = None  # where the last stroke of this row ended; the next one moves on from there
        for run in DARK_RUN.finditer(row):
            start, stop = run.span()
            move = f"M{start + 4} {y}.5" if end is None else f"m{start - end} 0"
            strokes.append(f"{move}h{stop - start}")
            end = stop
    path = "".join(strokes)
    return format_html(
        '<svg viewBox="0 0 {0} {0}" role="img"><title>{1}</title>'
        '<path stroke="#000" d="{2}"/></svg>',
        size,
        title,
        path,
    )


# A sheet of paper is Letter less its margins (Letter is shorter than A4): 250 mm for cards.
# A card is 50 mm of name, QR code, borders and gap, plus 7 mm a line (the heading, each game);
# static/css/print.css draws them at these sizes.
SHEET_MM, CARD_MM, LINE_MM = 250, 50, 7


def cards_per_sheet(games: int) -> int:
    return max(1, SHEET_MM // (CARD_MM + LINE_MM * (games + 1)))


@login_required
def scorecards(request, event_id: int):
    """One scorecard per player still in the event: name, QR code to their page, a line for each
    game; printed a few to a sheet, each sheet on its own page."""
    event = event_get_for_director(event_id=event_id, user=request.user)
    entries = entries_of_event(event=event).exclude(status=Entry.Status.WITHDRAWN)
    cards = []
    for entry in entries:
        url = request.build_absolute_uri(reverse("player-page", args=[entry.report_token]))
        qr = scorecard_qr_svg(url, f"Link for {entry.name}")
        cards.append({"entry": entry, "url": url, "qr": qr})
    per_sheet = cards_per_sheet(event.qualifying_games)
    # Every card has the same empty lines: made once here, where a loop in the template took
    # more time than the rest of the page for 500 cards of 22 games.
    lines = format_html_join(
        "",
        "<tr><td>{}</td><td></td><td></td><td></td><td></td></tr>",
        ((n,) for n in range(1, event.qualifying_games + 1)),
    )
    return render(
        request,
        "tournaments/results/scorecards.html",
        {
            "event": event,
            "sheets": [cards[i : i + per_sheet] for i in range(0, len(cards), per_sheet)],
            "per_sheet": per_sheet,
            "lines": lines,
        },
    )
