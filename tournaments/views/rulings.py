"""Pages for judges: the open calls, the ruling form, the event's rulings, a player's "Call a
judge" button, and the count checker anyone may use.

The ruling form shows what the engine makes of a ruling (the board after it, and the card lines
when it ends the game) before anything is saved; "Save this ruling" records exactly that.
"""

from __future__ import annotations

import re

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
from tournaments.selectors.events import event_judges_needed
from tournaments.selectors.live import event_version
from tournaments.selectors.people import person_name
from tournaments.selectors.playoffs import entry_current_match
from tournaments.selectors.results import entry_current_seat
from tournaments.selectors.rulings import (
    count_hand,
    count_pegging,
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

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}
CARDS = {
    "class": "cards-input",
    "autocomplete": "off",
    "autocapitalize": "characters",
    "spellcheck": "false",
}


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
        self.fields["offender"].choices = [(s.entry_id, s.entry.name) for s in seats]
        judges = self.fields["judges"]
        judges.queryset = event_judges(event=event)
        judges.label_from_instance = person_name
        judges.help_text = panel_words(event_judges_needed(event=event)).capitalize() + "."

    def ruling_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["offender_entry"] = data.pop("offender")
        data["judges"] = list(data["judges"])
        return data


def _form_error(form: forms.Form, exc: ServiceError) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


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
    context.update(seats=seats, form=form)
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
            _form_error(form, exc)
    context["infractions"] = [(radio, CATALOGUE[radio.data["value"]]) for radio in form["code"]]
    status = 400 if form.errors else 200
    return render(request, "tournaments/rulings/ruling_form.html", context, status=status)


def _saved_message(ruling) -> str:
    message = (
        f"Ruling saved: {ruling.get_code_display()} against {ruling.offender.name}. "
        f"Offender {ruling.score_before_offender} → {ruling.score_after_offender}, "
        f"opponent {ruling.score_before_opponent} → {ruling.score_after_opponent}."
    )
    if ruling.game_over:
        message += f" Game over: {ruling.winner.name} wins; the card lines are verified."
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


class HandForm(forms.Form):
    hand = forms.CharField(
        label="Four cards",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "5H 5D 5S JC"}),
        help_text="Rank then suit, with spaces: A 2 … 10 J Q K and C D H S.",
    )
    starter = forms.CharField(
        label="Starter (the cut card)", widget=forms.TextInput(attrs={**CARDS, "placeholder": "5C"})
    )
    crib = forms.BooleanField(required=False, label="This is the crib")


class PlayForm(forms.Form):
    """Two players fill the pone's and the dealer's boxes; three or four players also fill
    the second (and third) player's, in the order of play round the table."""

    pone = forms.CharField(
        label="Pone's four cards (the non-dealer; with three or four players, the player on "
        "the dealer's left, who leads)",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "KC 8C 4C 5C"}),
    )
    second = forms.CharField(
        required=False,
        label="Second player's four cards (three or four players only: next on the left)",
        widget=forms.TextInput(attrs=CARDS),
    )
    third = forms.CharField(
        required=False,
        label="Third player's four cards (four players only)",
        widget=forms.TextInput(attrs=CARDS),
    )
    dealer = forms.CharField(
        label="Dealer's four cards",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "5D 8D 6D 3D"}),
    )
    plays = forms.CharField(
        label="Every card in the order it was laid (8, 12 or 16 cards)",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "KC 5D 8C 8D 4C 6D 5C 3D"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("third") and not data.get("second"):
            self.add_error(
                "second",
                "Fill in the second player's cards too: four players go pone, second, third, "
                "dealer.",
            )
        return data


# What the page calls each seat, by the number of seats.
_SEAT_WORDS = {
    2: ("pone", "dealer"),
    3: ("pone", "second player", "dealer"),
    4: ("pone", "second player", "third player", "dealer"),
}


def _pegging_rows(data: dict) -> dict:
    """The checked play for the page: each card by whom, and each seat's (and side's) total."""
    hands = {"pone": data["pone"]}
    hands.update({field: data[field] for field in ("second", "third") if data[field]})
    hands["dealer"] = data["dealer"]
    words = _SEAT_WORDS[len(hands)]
    try:
        result = count_pegging(hands=hands, plays=data["plays"])
    except ServiceError as exc:
        seat_words = re.sub(r"\bseat (\d)", lambda m: f"the {words[int(m[1])]}", exc.message)
        raise ServiceError(seat_words, field=exc.field, code=exc.code) from None
    rows = [
        {"card": p.card, "who": words[p.seat], "count": p.count, "points": p.points,
         "reasons": p.reasons}
        for p in result.plays
    ]  # fmt: skip
    totals = list(zip(words, result.points, strict=True))
    sides = None
    if len(result.points) == 4:
        sides = list(zip(("pone and third player", "second player and dealer"),
                         result.team_points(), strict=True))  # fmt: skip
    return {"play_rows": rows, "play_totals": totals, "play_sides": sides}


def count_checker(request):
    """Count a hand, or a whole play, with the engine. Nothing is saved."""
    check = request.GET.get("check")
    hand_form = HandForm(request.GET if check == "hand" else None)
    play_form = PlayForm(request.GET if check == "play" else None)
    context = {"hand_form": hand_form, "play_form": play_form, "check": check}
    try:
        if check == "hand" and hand_form.is_valid():
            context["hand_score"] = count_hand(**hand_form.cleaned_data)
        elif check == "play" and play_form.is_valid():
            context.update(_pegging_rows(play_form.cleaned_data))
    except ServiceError as exc:
        _form_error(hand_form if check == "hand" else play_form, exc)
    status = 400 if hand_form.errors or play_form.errors else 200
    return render(request, "tournaments/rulings/count.html", context, status=status)
