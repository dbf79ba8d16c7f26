"""Pages for judges: the open calls, the ruling form, the event's rulings, a player's "Call a
judge" button. The count checker anyone may use is ``views/rulings_count.py``.

The ruling form shows what the engine makes of a ruling (the board after it, and the card lines
when it ends the game) before anything is saved; "Save this ruling" records exactly that.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from scoring.rulings import CATALOGUE
from tournaments.core.judging import panel_words
from tournaments.errors import ServiceError
from tournaments.models import Game, Match
from tournaments.selectors.access import (
    entry_get_by_token,
    event_get_for_judging,
    judge_call_get_for_judging,
    match_get_for_judging,
    table_get_for_judging,
)
from tournaments.selectors.entrants import entrant_label
from tournaments.selectors.events import event_judges_needed
from tournaments.selectors.live import event_version
from tournaments.selectors.people import person_name
from tournaments.selectors.playoffs import entry_current_match
from tournaments.selectors.results import entry_current_seat
from tournaments.selectors.rulings import (
    event_judges,
    events_judged_by,
    judge_calls_open,
    rulings_of_event,
    table_seats,
)
from tournaments.services.judge_calls import (
    judge_call_answer,
    judge_call_create,
    judge_call_to_match,
)
from tournaments.services.rulings import ruling_preview, ruling_record
from tournaments.services.rulings_match import ruling_record_in_match
from tournaments.services.rulings_outcome import MatchSide
from tournaments.views.live import live_page
from tournaments.views.refusals import refusal_on_form

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


def _number(label: str, *, required: bool = True, least: int = 0, help_text: str = ""):
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=least,
        max_value=9999,
        help_text=help_text,
        widget=forms.NumberInput(attrs=NUMBER),
    )


class TablePlaceForm(forms.Form):
    game = forms.IntegerField(min_value=1, max_value=9999)
    table = forms.IntegerField(min_value=1, max_value=9999)


class RulingForm(forms.Form):
    code = forms.ChoiceField(label="Infraction", widget=forms.RadioSelect)
    offender = forms.TypedChoiceField(label="Offender", coerce=int, widget=forms.RadioSelect)
    score_before_offender = _number("Offender's score now (where their peg is)")
    score_before_opponent = _number("Opponent's score now")
    true_score = _number(
        "Offender's true score",
        required=False,
        help_text="False claim of game, overpegging, renege: where the offender's peg belongs.",
    )
    reneged_cards = _number("Cards reneged", required=False, least=1, help_text="Renege only.")
    claimed_missed = _number(
        "Points the caller claimed were missed", required=False, least=1, help_text="Muggins only."
    )
    true_missed = _number(
        "Points actually missed",
        required=False,
        help_text="Muggins only; 0 when the call was wrong.",
    )
    judges = forms.ModelMultipleChoiceField(
        queryset=None, widget=forms.CheckboxSelectMultiple, label="Judges"
    )
    third_judge = forms.BooleanField(required=False, label="A player asked for a third judge")
    final = forms.BooleanField(required=False, label="Final: no appeal")
    hand_number = _number("Hand number, if known", required=False, least=1)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    RECORD_ONLY = ("final", "notes", "hand_number")

    def __init__(self, *args, event, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["code"].choices = [
            (code, infraction.name)
            for code, infraction in CATALOGUE.items()
            if code != "muggins" or event.muggins
        ]
        # At a doubles table each partner has a seat and the offender is one of them; a match
        # has two sides, a doubles team's being its first partner's entry: named by the team.
        self.fields["offender"].choices = [
            (s.entry_id, entrant_label(s.entry) if len(seats) == 2 else s.entry.name) for s in seats
        ]
        judges = self.fields["judges"]
        judges.queryset = event_judges(event=event)
        judges.label_from_instance = person_name
        judges.help_text = panel_words(event_judges_needed(event=event)).capitalize() + "."

    def ruling_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["offender_entry"] = data.pop("offender")
        data["judges"] = list(data["judges"])
        return data


@login_required
def judge_events(request):
    return render(
        request,
        "tournaments/rulings/event_list.html",
        {"events": events_judged_by(user=request.user)},
    )


@login_required
def judge_page(request, event_id: int):
    """Open calls, longest waiting first, and a way to rule at any table."""
    event = event_get_for_judging(event_id=event_id, user=request.user)
    if "table" in request.GET:
        place = TablePlaceForm(request.GET)
        if not place.is_valid():
            messages.error(request, "Enter the game number and the table number.")
        else:
            game, table = place.cleaned_data["game"], place.cleaned_data["table"]
            return redirect("ruling-form", event_id=event.pk, number=game, table_number=table)

    def context() -> dict:
        return {
            "event": event,
            "calls": judge_calls_open(event=event),
            "latest_game": event.games.exclude(status=Game.Status.NOT_PAIRED)
            .order_by("number")
            .last(),
            "matches_in_play": (
                Match.objects.filter(
                    playoff__event=event, status__in=[Match.Status.READY, Match.Status.PLAYING]
                )
                .select_related("entry_a__player", "entry_b__player")
                .order_by("round", "slot")
            ),
        }

    return live_page(
        request,
        version=lambda: event_version(event=event),
        page="tournaments/rulings/judge_page.html",
        part="tournaments/rulings/_calls_live.html",
        context=context,
    )


@login_required
@require_POST
def judge_call_answer_view(request, call_id: int):
    call = judge_call_get_for_judging(call_id=call_id, user=request.user)
    table, match = call.table, call.match
    event_id = table.game.event_id if table is not None else match.playoff.event_id
    try:
        judge_call_answer(call=call, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("judge-page", event_id=event_id)
    if match is not None:
        messages.success(request, "You are answering the call to a playoff match.")
        return redirect("match-ruling-form", event_id=event_id, match_id=match.pk)
    messages.success(
        request, f"You are answering table {table.number} of game {table.game.number}."
    )
    return redirect(
        "ruling-form",
        event_id=table.game.event_id,
        number=table.game.number,
        table_number=table.number,
    )


@login_required
def ruling_form(request, event_id: int, number: int, table_number: int):
    table = table_get_for_judging(
        event_id=event_id, number=number, table_number=table_number, user=request.user
    )
    context = {"event": table.game.event, "table": table, "game": table.game}
    return _ruling_page(
        request, context, table_seats(table=table), record=ruling_record, table=table
    )


@login_required
def match_ruling_form(request, event_id: int, match_id: int):
    """The ruling form for a playoff match: the ruling applies to its current game."""
    match = match_get_for_judging(event_id=event_id, match_id=match_id, user=request.user)
    context = {"event": match.playoff.event, "match": match}
    seats = [MatchSide(entry) for entry in (match.entry_a, match.entry_b) if entry is not None]
    return _ruling_page(request, context, seats, record=ruling_record_in_match, match=match)


def _ruling_page(request, context, seats, *, record, **place):
    """Check, preview and save a ruling at ``place`` (``table=`` or ``match=``)."""
    event = context["event"]
    form = RulingForm(request.POST or None, event=event, seats=seats)
    sides = list(dict.fromkeys(entrant_label(seat.entry) for seat in seats))  # teams once
    context.update(seats=seats, sides=sides, form=form)
    if request.method == "POST" and "edit" not in request.POST and form.is_valid():
        kwargs = form.ruling_kwargs()
        try:
            if "confirm" in request.POST:
                ruling = record(**place, entered_by=request.user, **kwargs)
                messages.success(request, _saved_message(ruling))
                return redirect("ruling-list", event_id=event.pk)
            for name in form.RECORD_ONLY:
                kwargs.pop(name)
            outcome = ruling_preview(**place, **kwargs)
            context["outcome"] = outcome
            context["preview_lines"] = [(s, outcome.lines[s.pk]) for s in seats if outcome.lines]
        except ServiceError as exc:
            refusal_on_form(form, exc)
    context["infractions"] = [(radio, CATALOGUE[radio.data["value"]]) for radio in form["code"]]
    status = 400 if form.errors else 200
    return render(request, "tournaments/rulings/ruling_form.html", context, status=status)


def _saved_message(ruling) -> str:
    message = (
        f"Ruling saved: {ruling.get_code_display()} against {entrant_label(ruling.offender)}. "
        f"Offender {ruling.score_before_offender} → {ruling.score_after_offender}, "
        f"opponent {ruling.score_before_opponent} → {ruling.score_after_opponent}."
    )
    if ruling.game_over:
        message += f" Game over: {entrant_label(ruling.winner)} wins; the card lines are verified."
        if ruling.match_game_id:
            message = message.replace("the card lines are", "the game is")
    return message


@login_required
def ruling_list(request, event_id: int):
    event = event_get_for_judging(event_id=event_id, user=request.user)
    context = {"event": event, "rulings": rulings_of_event(event=event)}
    return render(request, "tournaments/rulings/ruling_list.html", context)


@require_POST
def player_call_judge(request, token: str):
    """The "Call a judge" button on a player's page: judges to the player's current table, or
    to their playoff match (the button of a match posts ``match``)."""
    entry = entry_get_by_token(token=token)
    if "match" in request.POST:
        return _call_to_match(request, entry, token)
    seat = entry_current_seat(entry=entry)
    posted = request.POST.get("table", "")
    if seat is None or seat.table_id is None:
        messages.error(request, "You have no table in play, so there is no game to call judges to.")
    elif posted and posted != str(seat.table_id):
        messages.error(
            request,
            f"Your table has changed: you are at table {seat.table.number} of game "
            f"{seat.game.number}. Press “Call a judge” again if you still need one.",
        )
    else:
        try:
            judge_call_create(table=seat.table, entry=entry)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(
                request,
                f"Judges are called to table {seat.table.number}. Stay at your table and do "
                "not move the pegs; a judge is on the way.",
            )
    return redirect("player-page", token=token)


def _call_to_match(request, entry, token: str):
    match = entry_current_match(entry=entry)
    if match is None:
        messages.error(request, "You have no playoff match, so there is no game to call judges to.")
        return redirect("player-page", token=token)
    try:
        judge_call_to_match(match=match, entry=entry)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            "Judges are called to your match. Stay where you play and do not move the pegs; a "
            "judge is on the way.",
        )
    return redirect("player-page", token=token)
