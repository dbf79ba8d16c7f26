"""Playoff pages: the public bracket, the director's match page (no-show clock, corrections),
building the bracket, and the player's match report from their private link."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.models import Entry, EventRole
from tournaments.selectors.access import (
    entry_get_by_token,
    event_get_for_director,
    event_get_for_viewer,
    event_roles,
    match_game_get_for_director,
    match_get_for_director,
)
from tournaments.selectors.live import public_version
from tournaments.selectors.playoffs import bracket_for_event, entry_current_match, match_games
from tournaments.services.conflicts import read_again_on_drop
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.playoffs_corrections import (
    match_clock_start,
    match_clock_stop,
    match_game_correct,
    match_game_void,
)
from tournaments.services.playoffs_matches import match_forfeits_apply, match_game_report
from tournaments.services.results import line_preview
from tournaments.views.live import live_page
from tournaments.views.refusals import refusal_message
from tournaments.views.report import ReportForm, player_page_context, report_once


class CorrectionForm(forms.Form):
    winner = forms.TypedChoiceField(coerce=int, label="Who won the game")
    margin = forms.IntegerField(label="Spread", min_value=1, max_value=9999)
    reason = forms.CharField(max_length=300, label="Why")

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = _players(match)


class VoidForm(forms.Form):
    reason = forms.CharField(max_length=300, label="Why is this game void")


class ClockForm(forms.Form):
    absent = forms.TypedChoiceField(coerce=int, label="Who is absent")

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["absent"].choices = _players(match)


def _players(match) -> list[tuple[int, str]]:
    return [(e.pk, e.entrant_name) for e in (match.entry_a, match.entry_b) if e is not None]


def bracket(request, event_id: int):
    event = event_get_for_viewer(event_id=event_id, user=request.user)
    is_director = EventRole.Role.DIRECTOR in event_roles(event=event, user=request.user)
    return live_page(
        request,
        version=lambda: public_version(event=event),
        page="tournaments/playoffs/bracket.html",
        part="tournaments/playoffs/_bracket_live.html",
        context=lambda: {
            "event": event,
            "view": bracket_for_event(event=event),
            "is_director": is_director,
        },
    )


@login_required
@require_POST
def build(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    try:
        job = playoff_build_request(event=event, user=request.user)
    except ServiceError as exc:
        refusal_message(request, exc)
        return redirect("event-manage", event_id=event.pk)
    job.refresh_from_db()
    if job.status == job.Status.SUCCEEDED:
        messages.success(request, "The cut is made and the bracket is built.")
        return redirect("playoff-bracket", event_id=event.pk)
    return redirect("job-detail", job_id=job.pk)


@login_required
def match_detail(request, event_id: int, match_id: int):
    match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
    if match_forfeits_apply(match=match):
        match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
    return _match_page(request, match)


def _match_page(request, match, *, clock_form=None, forms_for=None, status=200):
    """The match page; ``forms_for`` is (game number, correction form, void form) refused."""
    games = match_games(match=match)
    refused_number, refused_correction, refused_void = forms_for or (None, None, None)
    editable = [
        (
            game,
            refused_correction if game.number == refused_number and refused_correction else
            CorrectionForm(match=match, prefix=f"g{game.number}"),
            refused_void if game.number == refused_number and refused_void else
            VoidForm(prefix=f"v{game.number}"),
        )
        for game in games
        if game.status != "void"
    ]  # fmt: skip
    context = {
        "event": match.playoff.event,
        "match": match,
        "games": games,
        "editable": editable,
        "clock_form": clock_form or ClockForm(match=match),
    }
    return render(request, "tournaments/playoffs/match_detail.html", context, status=status)


@login_required
@require_POST
def match_clock(request, event_id: int, match_id: int):
    match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
    form = ClockForm(request.POST, match=match)
    if form.is_valid():
        absent = Entry.objects.get(pk=form.cleaned_data["absent"])
        try:
            match_clock_start(match=match, absent=absent, user=request.user)
            messages.success(request, f"The no-show clock is running against {absent.player}.")
            return redirect("match-detail", event_id=event_id, match_id=match_id)
        except ServiceError as exc:
            form.add_error(None, exc.message)
    return _match_page(request, match, clock_form=form, status=400)


@login_required
@require_POST
def match_clock_stop_view(request, event_id: int, match_id: int):
    match = match_get_for_director(event_id=event_id, match_id=match_id, user=request.user)
    try:
        match_clock_stop(match=match, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "The no-show clock is stopped. Start it again if needed.")
    return redirect("match-detail", event_id=event_id, match_id=match_id)


def _say_unfinalised(request, change) -> None:
    if change.unfinalised:
        messages.warning(request, change.unfinalised_message)


@login_required
@require_POST
def match_game_correction(request, event_id: int, match_id: int, number: int):
    match, game = match_game_get_for_director(
        event_id=event_id, match_id=match_id, number=number, user=request.user
    )
    form = CorrectionForm(request.POST, match=match, prefix=f"g{number}")
    if form.is_valid():
        data = form.cleaned_data
        try:
            change = match_game_correct(
                match_game=game,
                winner_entry=Entry.objects.get(pk=data["winner"]),
                spread=data["margin"],
                reason=data["reason"],
                user=request.user,
            )
            messages.success(request, f"Game {number} is corrected.")
            _say_unfinalised(request, change)
            return redirect("match-detail", event_id=event_id, match_id=match_id)
        except ServiceError as exc:
            form.add_error("margin" if exc.field == "margin" else None, exc.message)
    return _match_page(request, match, forms_for=(number, form, None), status=400)


@login_required
@require_POST
def match_game_void_view(request, event_id: int, match_id: int, number: int):
    match, game = match_game_get_for_director(
        event_id=event_id, match_id=match_id, number=number, user=request.user
    )
    form = VoidForm(request.POST, prefix=f"v{number}")
    if form.is_valid():
        try:
            change = match_game_void(
                match_game=game, reason=form.cleaned_data["reason"], user=request.user
            )
            messages.success(request, f"Game {number} is void: it counts for nobody.")
            _say_unfinalised(request, change)
            return redirect("match-detail", event_id=event_id, match_id=match_id)
        except ServiceError as exc:
            form.add_error(None, exc.message)
    return _match_page(request, match, forms_for=(number, None, form), status=400)


@require_POST
def player_match_report(request, token: str):
    """The form of ``_player_match.html``: first the engine's words for the line (nothing is
    saved), then "Save this game" saves it, as for a qualifying game. The reads around the
    write survive a dropped connection as the write does (``services.conflicts``)."""
    entry = read_again_on_drop(lambda: entry_get_by_token(token=token))
    match = read_again_on_drop(lambda: entry_current_match(entry=entry))
    if match is None:
        raise Http404("You have no playoff match.")
    form = ReportForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, errors[0])
        return redirect("player-page", token=token)
    won, margin = form.cleaned_data["result"] == "won", form.cleaned_data["margin"]
    try:
        if "confirm" not in request.POST:
            return read_again_on_drop(lambda: _match_preview(request, entry, form, won, margin))
        report_once(
            form,
            entry,
            "match",
            lambda: match_game_report(
                match=match,
                entry=entry,
                won=won,
                spread=margin,
                user=request.user,
                game_number=form.cleaned_data["game"],
            ),
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Saved: you {'won' if won else 'lost'} by {margin}.")
    return redirect("player-page", token=token)


def _match_preview(request, entry, form, won: bool, margin: int):
    line, words = line_preview(event=entry.event, won=won, spread=margin)
    context = player_page_context(
        request, entry, match_preview=words, match_preview_line=line, match_form=form
    )
    return render(request, "tournaments/player/report.html", context)
