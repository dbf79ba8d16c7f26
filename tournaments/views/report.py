"""The player's page, opened from the private link (or QR code) on their scorecard.

Large type, one question at a time: did you win or lose, and by how much. The engine works out
the game points and says what the line means before anything is saved.
"""

from __future__ import annotations

import threading
import uuid

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.signals import setting_changed
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.autoreload import file_changed
from django.utils.safestring import SafeString

from tournaments.converters import link_path
from tournaments.errors import Conflict, ServiceError
from tournaments.live_poll import POLL_HEADER, VERSION_KEY
from tournaments.models import Notice
from tournaments.selectors.access import entry_get_by_token, entry_of_link
from tournaments.selectors.account_links import (
    account_link_offer,
    account_links_of_user,
    entries_of_user,
    player_of_user,
)
from tournaments.selectors.live import entry_and_poll_by_token, poll_seconds
from tournaments.selectors.report import player_state
from tournaments.selectors.results import entry_current_seat
from tournaments.services.conflicts import read_again_on_drop
from tournaments.services.idempotency import idempotency_key_clean, keyed_write, report_print
from tournaments.services.results import card_line_preview, card_line_report
from tournaments.views.account_links import link_ask
from tournaments.views.check_in import check_in_by_link
from tournaments.views.live import live_part
from tournaments.views.report_offline import offline_script, page_scripts


class ReportForm(forms.Form):
    result = forms.ChoiceField(
        choices=[("won", "I won"), ("lost", "I lost")],
        widget=forms.RadioSelect,
        error_messages={"required": "Choose “I won” or “I lost”."},
    )
    game = forms.IntegerField(required=False, min_value=1, max_value=9999, widget=forms.HiddenInput)
    margin = forms.IntegerField(
        label="By how many points (spread)?",
        min_value=0,
        max_value=9999,
        error_messages={"required": "Enter the margin: 121 minus the loser's score."},
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "pattern": "[0-9]*"}),
    )
    # Made for each report (services.idempotency): the form sent twice saves one line.
    idempotency_key = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)


_unbound = threading.local()


def unbound_report_form() -> ReportForm:
    """The empty report form of every page opening, made once per thread: an unbound form is
    never changed by showing it (its fields are deep-copied at each ``ReportForm()``, 4% of an
    opening), and a form that was sent is always a new, bound one (``_report``)."""
    form = getattr(_unbound, "form", None)
    if form is None:
        form = _unbound.form = ReportForm()
    return form


_fields: dict[str, SafeString] = {}


def unbound_report_fields() -> SafeString:
    """The empty form's fields and keypad (``_report_form_fields.html``), the same for every
    phone: rendered once per process, when a page first shows the form (the template calls
    it). A ``{% cache %}`` tag kept it before, at 58 us a page for its key and lookup."""
    made = _fields.get("html")
    if made is None:
        made = _fields["html"] = render_to_string(
            "tournaments/player/_report_form_fields.html", {"form": unbound_report_form()}
        )
    return made


def _forget_fields(**kwargs) -> None:
    """A template edited under ``runserver`` (which reloads templates without restarting) or
    a test's other template settings: the fields are rendered again."""
    if kwargs.get("setting") in (None, "TEMPLATES", "FORM_RENDERER"):
        _fields.clear()


setting_changed.connect(_forget_fields)
file_changed.connect(_forget_fields)  # returns None: the reloader decides as before


def report_once(form, entry, route: str, write) -> None:
    """``write()``, once per the form's ``idempotency_key`` (every time without one). A key
    sent before with other figures is refused in the page's words."""
    data = form.cleaned_data
    key = idempotency_key_clean(data.get("idempotency_key"), field="idempotency_key")
    if key is None:
        write()
        return
    game = data.get("game")
    try:
        keyed_write(
            entry=entry,
            key=key,
            print_=report_print(route, result=data["result"], margin=data["margin"], game=game),
            status=201,
            write=write,
        )
    except Conflict:
        raise ServiceError(
            "This form was already sent with other figures, and those were kept. To send these "
            "figures instead, send the form again from your page: it now holds a new key.",
            code="idempotency_conflict",
        ) from None


def player_page(request, token: str):
    if request.method in ("GET", "HEAD"):
        # Opening or polling the page changes nothing that matters when done twice: after a
        # dropped database connection it is opened again on a new one (``services.conflicts``).
        return read_again_on_drop(lambda: _player_page(request, token))
    return _player_page(request, token)


def _player_page(request, token: str):
    if request.method == "GET" and request.GET.get("part") == "live":
        return _live(request, token)
    version = seconds = None
    if request.method in ("GET", "HEAD"):
        # The page carries its live part's version: the phone's first poll is then a 304.
        entry, (version, seconds) = _entry_and_version(token)
    else:
        entry = read_again_on_drop(lambda: entry_get_by_token(token=token))
    if request.method == "POST" and "link" in request.POST:
        # Asked, never on opening; and it only sends the player a code (services.account_links).
        return link_ask(request, entry)
    if request.method == "POST" and "check_in" in request.POST:
        return check_in_by_link(request, entry)  # the button only: opening the page does not
    extra, status = {}, 200
    if request.method == "POST":
        extra, status = _report(request, entry, ReportForm(request.POST))
        if status == 302:
            return redirect("player-page", token=token)
    return read_again_on_drop(lambda: _page(request, entry, extra, status, version, seconds))


def _entry_and_version(token: str):
    """The link's entry and its page's version with its poll seconds, in one query
    (``entry_and_poll_by_token``); 404 for a link that is not valid."""
    both = entry_and_poll_by_token(token=token)
    return entry_of_link(both and both[0]), both[1]


def _live(request, token: str):
    """A poll: answered 304 from the version alone. The WSGI shortcut (``live_poll``) hands on
    the version it read for a poll that changed; a phone opening its page (no ETag) has the
    entry and its version read together, in one query."""
    found = request.META.get(VERSION_KEY)
    if found is not None:
        read = lambda: entry_get_by_token(token=token)  # noqa: E731
    else:
        entry, found = _entry_and_version(token)
        read = lambda: entry  # noqa: E731
    response = live_part(
        request,
        version=found[0],
        render=lambda: render(request, "tournaments/player/_live.html", live_part_context(read())),
    )
    response[POLL_HEADER] = f"{found[1]:g}"  # when the phone asks next (live.js)
    return response


def _page(request, entry, extra: dict, status: int, version=None, seconds=None):
    context = player_page_context(request, entry, live_version=version, poll_every=seconds, **extra)
    response = render(request, "tournaments/player/report.html", context, status=status)
    response["Cache-Control"] = "private, no-cache"
    # A reminder or a cut notice is marked seen when shown; it stays on the page a while.
    shown = [n.pk for n in context["state"].notices]
    if shown:
        Notice.objects.filter(pk__in=shown, seen_at=None).update(seen_at=timezone.now())
    return response


def _report(request, entry, form) -> tuple[dict, int]:
    """The report form: preview (200 with the engine's words), save (302), or the error (400).
    The reads around the write survive a dropped connection as the write does."""
    seat = read_again_on_drop(lambda: entry_current_seat(entry=entry))
    if seat is None or not form.is_valid():
        return {"form": form}, 400
    won, margin = form.cleaned_data["result"] == "won", form.cleaned_data["margin"]
    try:
        if "confirm" in request.POST:
            report_once(
                form,
                entry,
                "report",
                lambda: card_line_report(
                    seat=seat,
                    won=won,
                    spread=margin,
                    user=request.user,
                    game_number=form.cleaned_data["game"],
                ),
            )
            return {}, 302
        line, words = read_again_on_drop(
            lambda: card_line_preview(
                seat=seat, won=won, spread=margin, game_number=form.cleaned_data["game"]
            )
        )
    except ServiceError as exc:
        form.add_error("margin" if exc.field in ("margin", "plus", "minus") else None, exc.message)
        return {"form": form}, 400
    return {"form": form, "preview": words, "preview_line": line}, 200


def live_part_context(entry, **extra) -> dict:
    """What the live part (``_live.html``) shows: the one read model (``player_state``) and
    the report form. A poll that changed renders only this."""
    state = player_state(entry=entry)
    return {
        "entry": entry,
        "state": state,
        "current": state.current,
        "match": state.match,
        "form": unbound_report_form(),
        "report_fields": unbound_report_fields,  # called by the template when it shows them
        "fresh_key": str(uuid.uuid4()),  # a phone with scripts makes its own (report-key.js)
        # "Call a judge" posts here (rulings/_call_button.html, playoffs/_player_match.html):
        # the path made from the route's halves, not a ``{% url %}`` at every opening and poll.
        "judge_path": link_path("player-call-judge", entry.report_token),
        **extra,
    }


def player_page_context(request, entry, poll_every: float | None = None, **extra) -> dict:
    """The whole page's context: the live part's, and what the rest of the page needs. The
    live part is polled only on a plain GET: a preview waiting to be confirmed stays put.
    ``poll_every``: the poll seconds when the opening has read them with the entry."""
    context = live_part_context(entry, **extra)
    if poll_every is None:
        poll_every = poll_seconds(event_id=entry.event_id)
    return {
        "offline": offline_script(entry=entry, form=context["form"]),  # the phone's queue
        "link_offer": account_link_offer(entry=entry, user=request.user),
        "live": request.method == "GET",
        "poll_seconds": poll_every,  # the first poll (live.js)
        "page_scripts": page_scripts(),
        **context,
    }


@login_required
def my_entries(request):
    """A player with a confirmed account finds all their events here instead of keeping the
    links; with their requests to link, and a way to unlink."""
    entries = list(entries_of_user(user=request.user))
    links = list(account_links_of_user(user=request.user)[:10])
    linked = next((link for link in links if link.status == link.Status.CONFIRMED), None)
    context = {
        "entries": entries,
        "player": player_of_user(user=request.user),
        "linked": linked,
        "waiting": [link for link in links if link.status == link.Status.PENDING],
    }
    return render(request, "tournaments/player/my_entries.html", context)
