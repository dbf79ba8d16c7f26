"""Pages for directors and cross-checkers: the live board of a game, one table's cards and
history, the cross-check queue, and entering lines from paper cards."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from scoring.games import CardLine as EngineLine
from tournaments.errors import ServiceError
from tournaments.models import EventRole, Seat, Table
from tournaments.selectors.access import (
    event_get_for_staff,
    event_roles,
    game_get_for_director,
    game_get_for_staff,
    table_get_for_staff,
)
from tournaments.selectors.board import board_for_game, board_version
from tournaments.selectors.results import (
    flagged_tables,
    game_board,
    staff_line_source,
    table_detail_of,
)
from tournaments.services import results as result_services
from tournaments.services.corrections import (
    table_correct,
    table_cross_check,
    table_paper_line_enter,
)
from tournaments.views.confirm import Confirmation, confirm_page, confirmed
from tournaments.views.live import live_page
from tournaments.views.refusals import refusal_on_form


class PaperLineForm(forms.Form):
    position = forms.TypedChoiceField(choices=[(1, "1"), (2, "2")], coerce=int)
    result = forms.ChoiceField(choices=[("won", "Won"), ("lost", "Lost")])
    margin = forms.IntegerField(label="Spread", min_value=0, max_value=9999)


class CorrectionForm(forms.Form):
    """Both players' lines as they stand (verified, else as reported), ready to change."""

    reason = forms.CharField(max_length=300, widget=forms.TextInput, label="Why")
    rebuild_bracket = forms.BooleanField(
        required=False,
        label="Rebuild the playoff bracket with this correction",
        help_text="Only if the correction changes who qualifies, a seed or the high "
        "non-qualifier, and no playoff game is reported yet.",
    )

    def __init__(self, *args, seats, current, verified, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats, self.verified = seats, verified
        for seat in seats:
            line = current.get(seat.pk)
            for part in ("game_points", "plus", "minus"):
                self.fields[f"{part}_{seat.position}"] = forms.IntegerField(
                    min_value=0,
                    max_value=1000,
                    initial=getattr(line, part, 0),
                    label=part.replace("_", " ").capitalize(),
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
        self.order_fields([n for n in self.fields if n not in ("reason", "rebuild_bracket")])

    def by_seat(self) -> list[tuple[Seat, list]]:
        """Each player's three boxes together, for the page."""
        parts = ("game_points", "plus", "minus")
        return [(s, [self[f"{part}_{s.position}"] for part in parts]) for s in self.seats]

    def lines(self) -> dict[int, EngineLine]:
        """The lines to store: every seat whose verified line this would change (a seat left
        as verified is not sent, so the engine's refusal names the line that was changed)."""
        data = self.cleaned_data
        changed = {}
        for seat in self.seats:
            parts = [data[f"{part}_{seat.position}"] for part in ("game_points", "plus", "minus")]
            now = self.verified.get(seat.pk)
            if now is None or parts != [now.game_points, now.plus, now.minus]:
                changed[seat.pk] = EngineLine(*parts)
        return changed


@login_required
def board(request, event_id: int, number: int):
    game = game_get_for_staff(event_id=event_id, number=number, user=request.user)
    event = game.event

    def context() -> dict:
        game.refresh_from_db(fields=["status", "published_at"])
        board = board_for_game(game=game)
        return {
            "event": event,
            "game": game,
            "board": board,
            "rows": board.tables,
            "counts": board.counts,
            "half_reported": board.counts["one reported"],
            "is_director": EventRole.Role.DIRECTOR in event_roles(event=event, user=request.user),
        }

    return live_page(
        request,
        version=lambda: board_version(event=event),
        page="tournaments/results/board.html",
        part="tournaments/results/_board_live.html",
        context=context,
    )


@login_required
def close(request, event_id: int, number: int):
    game = game_get_for_director(event_id=event_id, number=number, user=request.user)
    if not confirmed(request):
        waiting = sum(row.state != "verified" for row in game_board(game=game))
        return confirm_page(
            request,
            Confirmation(
                title=f"Close game {game.number}?",
                question=f"Players can no longer report game {game.number}. The {waiting} "
                "table(s) without agreeing cards go to a cross-checker.",
                details=["Close a game when play is over and the room has moved on."],
                action_label=f"Yes, close game {game.number}",
                cancel_url=reverse("game-board", args=[event_id, number]),
            ),
            event=game.event,
        )
    try:
        flagged = result_services.game_close(game=game, user=request.user)
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
    game = game_get_for_director(event_id=event_id, number=number, user=request.user)
    count = result_services.game_remind_unreported(game=game, user=request.user)
    messages.success(request, remind_words(count, number))
    return redirect("game-board", event_id=event_id, number=number)


def remind_words(count: int, number: int) -> str:
    """What a reminder did: a note on the players' private pages, no e-mail."""
    if count == 0:
        return f"Every player has reported game {number}: nobody needed a reminder."
    players = "1 player" if count == 1 else f"{count} players"
    return (
        f"A reminder to report game {number} now shows on the private page of {players} who "
        "have not reported. No e-mail or text was sent: they see it when they next open their "
        "link, so tell them at the tables too."
    )


def _table_context(table: Table, **forms_):
    detail = table_detail_of(table=table)
    return {
        "table": table,
        "game": table.game,
        "event": table.game.event,
        "detail": detail,
        "seats": [(s.seat, s.reported, s.verified) for s in detail.seats],
        "history": detail.history,
        "post_cut": detail.post_cut,
        "paper_form": forms_.get("paper_form") or PaperLineForm(),
        "correction_form": forms_.get("correction_form") or _correction_form(detail),
    }


def _correction_form(detail, data=None) -> CorrectionForm:
    seats = [s.seat for s in detail.seats]
    current = {s.seat.pk: s.current for s in detail.seats}
    verified = {s.seat.pk: s.verified for s in detail.seats if s.verified}
    return CorrectionForm(data, seats=seats, current=current, verified=verified)


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
            try:
                table_paper_line_enter(
                    table=table,
                    position=form.cleaned_data["position"],
                    won=form.cleaned_data["result"] == "won",
                    spread=form.cleaned_data["margin"],
                    user=request.user,
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
            cases = table_cross_check(table=table, user=request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"Settled by Rule 12.2, cases {', '.join(cases)}.")

    return _table_action(request, event_id, number, table_number, settle)


@login_required
@require_POST
def correct(request, event_id: int, number: int, table_number: int):
    def apply(table):
        form = _correction_form(table_detail_of(table=table), request.POST)
        if form.is_valid() and not form.lines():
            form.add_error(None, "Nothing was changed: change a line, or go back.")
        elif form.is_valid():
            try:
                table_correct(
                    table=table,
                    lines=form.lines(),
                    reason=form.cleaned_data["reason"],
                    user=request.user,
                    source=staff_line_source(event=table.game.event, user=request.user),
                    rebuild_bracket=form.cleaned_data["rebuild_bracket"],
                )
            except ServiceError as exc:
                refusal_on_form(form, exc)
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
