"""Pages for directors and cross-checkers: the live board of a game, one table's cards and
history, the cross-check queue, and entering lines from paper cards."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from scoring.games import CardLine as EngineLine
from tournaments.models import CardLine, EventRole, Table
from tournaments.selectors.events import event_get_for_director, event_roles
from tournaments.selectors.games import game_get
from tournaments.selectors.results import (
    current_lines,
    event_get_for_staff,
    flagged_tables,
    game_board,
    staff_line_source,
    table_get_for_staff,
    table_history,
)
from tournaments.services import results as result_services
from tournaments.services.errors import ServiceError


class PaperLineForm(forms.Form):
    position = forms.TypedChoiceField(choices=[(1, "1"), (2, "2")], coerce=int)
    result = forms.ChoiceField(choices=[("won", "Won"), ("lost", "Lost")])
    margin = forms.IntegerField(label="Spread")


class CorrectionForm(forms.Form):
    reason = forms.CharField(max_length=300, widget=forms.TextInput, label="Why")

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in seats:
            for part in ("game_points", "plus", "minus"):
                self.fields[f"{part}_{seat.position}"] = forms.IntegerField(
                    min_value=0,
                    initial=0,
                    label=f"{seat.entry.player.name}: {part.replace('_', ' ')}",
                )

    def lines(self) -> dict[int, EngineLine]:
        data = self.cleaned_data
        return {
            seat.pk: EngineLine(
                data[f"game_points_{seat.position}"],
                data[f"plus_{seat.position}"],
                data[f"minus_{seat.position}"],
            )
            for seat in self.seats
        }


@login_required
def board(request, event_id: int, number: int):
    event = event_get_for_staff(event_id=event_id, user=request.user)
    game = game_get(event=event, number=number)
    if game is None:
        raise Http404("No such game.")
    rows = game_board(game=game)
    context = {
        "event": event,
        "game": game,
        "rows": rows,
        "counts": {
            state: sum(r.state == state for r in rows)
            for state in ("waiting", "one reported", "disagree", "verified", "flagged")
        },
        "is_director": EventRole.Role.DIRECTOR in event_roles(event=event, user=request.user),
    }
    context["half_reported"] = context["counts"]["one reported"]
    return render(request, "tournaments/results/board.html", context)


def _director_game(request, event_id: int, number: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    game = game_get(event=event, number=number)
    if game is None:
        raise Http404("No such game.")
    return game


@login_required
@require_POST
def close(request, event_id: int, number: int):
    game = _director_game(request, event_id, number)
    try:
        flagged = result_services.game_close(game=game)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, f"Game {number} is closed; {flagged} table(s) need a cross-check."
        )
    return redirect("game-board", event_id=event_id, number=number)


@login_required
@require_POST
def remind(request, event_id: int, number: int):
    game = _director_game(request, event_id, number)
    count = result_services.game_remind_unreported(game=game)
    messages.success(request, f"Reminded {count} player(s) who have not reported.")
    return redirect("game-board", event_id=event_id, number=number)


def _table_context(table: Table, **forms_):
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    reported = current_lines(table=table, kind=CardLine.Kind.REPORTED)
    verified = current_lines(table=table, kind=CardLine.Kind.VERIFIED)
    return {
        "table": table,
        "game": table.game,
        "event": table.game.event,
        "seats": [(s, reported.get(s.pk), verified.get(s.pk)) for s in seats],
        "history": table_history(table=table),
        "paper_form": forms_.get("paper_form") or PaperLineForm(),
        "correction_form": forms_.get("correction_form") or CorrectionForm(seats=seats),
    }


@login_required
def table_detail(request, event_id: int, number: int, table_number: int):
    table = table_get_for_staff(
        event_id=event_id, number=number, table_number=table_number, user=request.user
    )
    return render(request, "tournaments/results/table.html", _table_context(table))


def _table_action(request, event_id, number, table_number, action):
    table = table_get_for_staff(
        event_id=event_id, number=number, table_number=table_number, user=request.user
    )
    response = action(table)
    return response or redirect(
        "table-detail", event_id=event_id, number=number, table_number=table_number
    )


@login_required
@require_POST
def paper_line(request, event_id: int, number: int, table_number: int):
    def enter(table):
        form = PaperLineForm(request.POST)
        if form.is_valid():
            seat = table.seats.filter(position=form.cleaned_data["position"]).first()
            source = staff_line_source(event=table.game.event, user=request.user)
            try:
                result_services.card_line_report(
                    seat=seat,
                    won=form.cleaned_data["result"] == "won",
                    spread=form.cleaned_data["margin"],
                    user=request.user,
                    source=source,
                )
            except ServiceError as exc:
                form.add_error(
                    "margin" if exc.field in ("margin", "plus", "minus") else None, exc.message
                )
            else:
                messages.success(request, "Line entered.")
                return None
        context = _table_context(table, paper_form=form)
        return render(request, "tournaments/results/table.html", context, status=400)

    return _table_action(request, event_id, number, table_number, enter)


@login_required
@require_POST
def cross_check(request, event_id: int, number: int, table_number: int):
    def settle(table):
        try:
            cases = result_services.table_cross_check(table=table, user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"Settled by Rule 12.2, cases {', '.join(cases)}.")

    return _table_action(request, event_id, number, table_number, settle)


@login_required
@require_POST
def correct(request, event_id: int, number: int, table_number: int):
    def apply(table):
        seats = list(table.seats.select_related("entry__player").order_by("position"))
        form = CorrectionForm(request.POST, seats=seats)
        if form.is_valid():
            try:
                result_services.table_correct(
                    table=table,
                    lines=form.lines(),
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    source=staff_line_source(event=table.game.event, user=request.user),
                )
            except ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, "Correction saved; the old lines are kept.")
                return None
        context = _table_context(table, correction_form=form)
        return render(request, "tournaments/results/table.html", context, status=400)

    return _table_action(request, event_id, number, table_number, apply)


@login_required
def cross_check_queue(request, event_id: int):
    event = event_get_for_staff(event_id=event_id, user=request.user)
    return render(
        request,
        "tournaments/results/cross_checks.html",
        {"event": event, "tables": flagged_tables(event=event)},
    )
