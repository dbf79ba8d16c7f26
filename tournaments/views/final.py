"""Final results (public once published, with CSV exports), the director's money page, and the
button that makes the Consolation from a Main's non-qualifiers."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.core.bracket import band_players
from tournaments.core.money import GRADUATIONS, dollars, held_places, partner_shares, place_key
from tournaments.errors import ServiceError
from tournaments.exports import csv_download
from tournaments.models import EventRole
from tournaments.selectors.access import event_get_for_director, event_get_for_viewer, event_roles
from tournaments.selectors.final import band_of_key, event_final_results, event_payouts
from tournaments.services.consolation import consolation_create, consolation_of
from tournaments.services.prizes import (
    event_money_update,
    payout_adjustments_clear,
    payout_set_by_hand,
)

POOL_CHOICES = [
    ("none", "No qualifier pool"),
    ("equal", "Equal shares"),
    ("equal_top_doubled", "Equal, top qualifier doubled"),
] + [(f"graduated-{n}", f"Graduated, 1 in {n}") for n in GRADUATIONS]
CSV_COLUMNS = ["place", "name", "acc_number", "qualifying_rank", "seed", "finish_band", "mrp"]
# A doubles event's results add the team and each partner's share of the team's payout.
TEAM_COLUMNS = ["team_id", "partner_1", "partner_1_payout", "partner_2", "partner_2_payout"]


def _cents(dollars: Decimal) -> int:
    return int(dollars * 100)


def _form_dollars(cents: int) -> Decimal:
    """An amount as a form's initial value (what is shown is ``core.money.dollars``)."""
    return Decimal(dollars(cents))


class MoneyForm(forms.Form):
    entry_fee = forms.DecimalField(label="Entry fee ($)", min_value=0, decimal_places=2)
    sanctioning_fee = forms.DecimalField(
        label="ACC sanctioning fee per entrant ($)", min_value=0, decimal_places=2
    )
    pool = forms.ChoiceField(label="Qualifier pool", choices=POOL_CHOICES)
    pool_percent = forms.DecimalField(
        label="Qualifier pool (% of the prize fund)",
        min_value=0,
        max_value=100,
        decimal_places=2,
        required=False,
    )

    def __init__(self, *args, bands=(), qualifiers=0, in_teams=False, **kwargs):
        super().__init__(*args, **kwargs)
        if in_teams:  # a team enters and is paid once (``selectors.final``)
            self.fields["entry_fee"].label = "Entry fee per team ($)"
            self.fields["sanctioning_fee"].label = "ACC sanctioning fee per team ($)"
        self.band_keys = [place_key(*band) for band in bands]
        for band, key in zip(bands, self.band_keys, strict=True):
            self.fields[f"band_{key}"] = forms.DecimalField(
                label=f"Places {held_places(*band, qualifiers)} (% of the playoff fund, shared)",
                min_value=0,
                max_value=100,
                decimal_places=2,
                required=False,
            )

    def settings(self) -> dict:
        data = self.cleaned_data
        split, _, graduation = data["pool"].partition("-")
        pool = {"split": split, "percent": data.get("pool_percent")}
        if graduation:
            pool["graduation"] = int(graduation)
        return {
            "entry_fee_cents": _cents(data["entry_fee"]),
            "sanctioning_fee_cents": _cents(data["sanctioning_fee"]),
            "payout_percents": {k: data.get(f"band_{k}") for k in self.band_keys},
            "qualifier_pool": pool,
        }


class AdjustForm(forms.Form):
    key = forms.CharField(max_length=20)
    amount = forms.DecimalField(label="Each receives ($)", min_value=0, decimal_places=2)


def _initial(event) -> dict:
    pool = event.qualifier_pool or {}
    split = pool.get("split", "none")
    initial = {
        "entry_fee": _form_dollars(event.entry_fee_cents),
        "sanctioning_fee": _form_dollars(event.sanctioning_fee_cents),
        "pool": f"graduated-{pool.get('graduation')}" if split == "graduated" else split,
        "pool_percent": pool.get("percent"),
    }
    initial.update({f"band_{k}": v for k, v in (event.payout_percents or {}).items()})
    return initial


def results(request, event_id: int):
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    is_director = EventRole.Role.DIRECTOR in event_roles(event=event, user=request.user)
    final = event_final_results(event=event)
    return render(
        request,
        "tournaments/final/results.html",
        {
            "event": event,
            "results": final,
            "rows": final.rows,
            "is_director": is_director,
            "consolation": consolation_of(main_event=event) if is_director else None,
        },
    )


def results_csv(request, event_id: int):
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    final = event_final_results(event=event)
    response, writer = csv_download(f"results-{event.pk}.csv")
    teams = event.in_teams
    writer.writerow(CSV_COLUMNS + ["payout"] + (TEAM_COLUMNS if teams else []))
    for row in final.rows:
        line = [
            row.place,
            row.name,
            row.acc_number,
            row.qualifying_rank or "",
            row.seed or "",
            row.finish,
            "" if row.mrp is None else row.mrp,
            dollars(row.payout_cents),
        ]
        if teams:
            line.append(row.team_id or "")
            for partner in row.partners:
                line += [partner.name, dollars(partner.payout_cents)]
        writer.writerow(line)
    return response


def payouts_csv(request, event_id: int):
    """Who is paid what: a player a line; in a doubles event each partner a line, with their
    share and the team's amount (the team is paid once, split between the partners)."""
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    final = event_final_results(event=event)
    response, writer = csv_download(f"payouts-{event.pk}.csv")
    if not event.in_teams:
        writer.writerow(["place", "name", "acc_number", "payout"])
        for row in final.rows:
            if row.payout_cents:
                writer.writerow([row.place, row.name, row.acc_number, dollars(row.payout_cents)])
        return response
    writer.writerow(["place", "team", "name", "acc_number", "payout", "team_payout"])
    for row in final.rows:
        for partner in row.partners if row.payout_cents else ():
            writer.writerow([row.place, row.name, partner.name, partner.acc_number,
                             dollars(partner.payout_cents), dollars(row.payout_cents)])  # fmt: skip
    return response


@login_required
def money(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    table = event_payouts(event=event)
    bands = list(band_players(table.qualifiers)) if table.qualifiers else []
    status = 200
    if request.method == "POST":
        form = MoneyForm(
            request.POST, bands=bands, qualifiers=table.qualifiers, in_teams=event.in_teams
        )
        if form.is_valid():
            try:
                event_money_update(event=event, user=request.user, **form.settings())
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, "Prize money saved.")
                return redirect("event-money", event_id=event.pk)
        status = 400
    else:
        form = MoneyForm(
            initial=_initial(event),
            bands=bands,
            qualifiers=table.qualifiers,
            in_teams=event.in_teams,
        )
    context = {
        "event": event,
        "form": form,
        "table": table,
        "in_teams": event.in_teams,
        **_money_display(table),
    }
    return render(request, "tournaments/final/money.html", context, status=status)


def _money_display(table) -> dict:
    """Dollar figures for the page: the fund, each payout line, and what is not paid."""
    if table.fund is None:
        return {"has_playoff": False}
    fund = {k: dollars(getattr(table.fund, k)) for k in ("entry_fees", "sanctioning_fees", "net")}
    lines, totals = [], {}
    if table.payouts is not None:
        p = table.payouts
        lines = [
            {
                "key": str(line.key),
                "places": _line_places(str(line.key), table.qualifiers),
                "players": line.players,
                "each": dollars(line.each),
                "total": dollars(line.total),
                "adjusted": str(line.key) in table.adjustments,
                # In doubles: what each partner of a team on this line receives.
                "shares": [dollars(c) for c in partner_shares(line.each)],
            }
            for line in p.lines
        ]
        totals = {
            "paid": dollars(p.paid),
            "unallocated": dollars(p.unallocated),
            "rounding": dollars(p.rounding_left_over),
            "balance": dollars(p.balance),
        }
    return {"fund": fund, "lines": lines, "totals": totals, "has_playoff": table.has_playoff}


def _line_places(key: str, qualifiers: int) -> str:
    """A payout line's places as people read them: playoff band "5-8" of 6 qualifiers is "5-6"."""
    if key.startswith("Q"):
        return key
    return held_places(*band_of_key(key), qualifiers)


@login_required
@require_POST
def money_adjust(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    if request.POST.get("clear"):
        dropped = payout_adjustments_clear(event=event, user=request.user)
        messages.success(request, f"{dropped} adjustment(s) removed: the payouts are as computed.")
        return redirect("event-money", event_id=event.pk)
    form = AdjustForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the place and the amount each receives, in dollars.")
        return redirect("event-money", event_id=event.pk)
    key, amount = form.cleaned_data["key"], form.cleaned_data["amount"]
    try:
        payout_set_by_hand(event=event, key=key, cents_each=_cents(amount), user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Places {key} now receive ${dollars(_cents(amount))} each.")
    return redirect("event-money", event_id=event.pk)


@login_required
@require_POST
def consolation(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        consy = consolation_create(main_event=event, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("event-results", event_id=event.pk)
    messages.success(request, f"{consy.name} is ready with {consy.entries.count()} players.")
    return redirect("event-manage", event_id=consy.pk)
