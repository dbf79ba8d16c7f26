"""Club pages: the list of clubs, a club's page (public), its settings and directors, a new club
night in one action, the season standings, awards, and the national Grass Roots leaderboard."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.forms_invitations import ClubInvitationForm
from tournaments.models import ENTRANT_NAME, Club, ClubAward, Entry, Invitation
from tournaments.selectors.access import club_directs, club_get_for_director, may_sanction
from tournaments.selectors.clubs import club_get, club_page, national_grass_roots, season_table
from tournaments.selectors.invitations import invitations_waiting
from tournaments.services.clubs import (
    CLUB_SETTINGS,
    club_award_record,
    club_create,
    club_director_add,
    club_director_remove,
    club_night_create,
    club_update_settings,
)
from tournaments.services.invitations import invitation_send
from tournaments.views.invitations import invitation_withdraw_for
from tournaments.views.refusals import done_or_refused, refusal_on_form

PER_PAGE = 50


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = list(CLUB_SETTINGS)
        labels = {
            "season_start_month": "Season starts in month (1-12)",
            "season_end_month": "Season ends in month (1-12)",
            "grass_roots_rule": "Grass Roots points",
            "drop_worst_nights": "Worst nights left out of each player's season",
            "night_games": "Games in a club night",
        }


class NightForm(forms.Form):
    played_on = forms.DateField(label="Date", widget=forms.DateInput(attrs={"type": "date"}))


class DirectorForm(forms.Form):
    person = forms.CharField(max_length=200, label="Person (user name or name)")


class AwardForm(forms.Form):
    entry = forms.TypedChoiceField(label="Player and night", coerce=int)
    kind = forms.ChoiceField(label="Award", choices=ClubAward.Kind.choices)
    hand = forms.CharField(
        required=False,
        max_length=40,
        label="Hand (four cards)",
        widget=forms.TextInput(attrs={"placeholder": "5H 5D 5S JC"}),
    )
    starter = forms.CharField(
        required=False,
        max_length=8,
        label="Starter",
        widget=forms.TextInput(attrs={"placeholder": "5C"}),
    )
    crib = forms.BooleanField(required=False, label="It was the crib")  # fmt: skip

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        entries = (
            Entry.objects.filter(event__club=club, event__kind="club_night")
            .select_related("player", "event")
            .order_by("-event__starts_on", ENTRANT_NAME)[:500]
        )
        self.fields["entry"].choices = [
            (e.pk, f"{e.name}, {e.event.starts_on or e.event.created_at:%-d %b %Y}")
            for e in entries
        ]


def club_list(request):
    return render(request, "tournaments/clubs/list.html", {"clubs": Club.objects.order_by("name")})


class ClubCreateForm(forms.Form):
    name = forms.CharField(max_length=200, label="The club's name")
    city = forms.CharField(max_length=200, required=False)
    region = forms.CharField(max_length=100, required=False, label="ACC region")


@login_required
def club_new(request):
    form = ClubCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = club_create(user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error("name", exc.message)
        else:
            messages.success(request, f"{club.name} is ready: you are its director.")
            return redirect("club-detail", club_id=club.pk)
    status = 400 if form.errors else 200
    return render(request, "tournaments/clubs/new.html", {"form": form}, status=status)


def _club_context(request, club, **forms_):
    directs = club_directs(club=club, user=request.user)
    today = timezone.localdate()
    return {
        "page": club_page(club=club),
        "directs": directs,
        "office": may_sanction(user=request.user),
        "night_form": forms_.get("night_form") or NightForm(initial={"played_on": today}),
        "director_form": forms_.get("director_form") or DirectorForm(),
        "award_form": (forms_.get("award_form") or AwardForm(club=club)) if directs else None,
        "invitation_form": forms_.get("invitation_form") or ClubInvitationForm(),
        "invitations": invitations_waiting(club=club) if directs else [],
    }


def club_detail(request, club_id: int):
    club = club_get(club_id=club_id)
    return render(request, "tournaments/clubs/club.html", _club_context(request, club))


@login_required
def club_settings(request, club_id: int):
    club = club_get_for_director(club_id=club_id, user=request.user)
    form = ClubForm(request.POST or None, instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and form.is_valid():
        changes = {name: form.cleaned_data[name] for name in form.changed_data}
        try:
            club_update_settings(club=club, user=request.user, **changes)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, "The club's settings are saved.")
            return redirect("club-detail", club_id=club.pk)
    status = 400 if form.errors else 200
    context = {"club": club, "form": form}
    return render(request, "tournaments/clubs/settings.html", context, status=status)


@login_required
@require_POST
def club_night_new(request, club_id: int):
    club = club_get_for_director(club_id=club_id, user=request.user)
    form = NightForm(request.POST)
    if form.is_valid():
        try:
            event = club_night_create(
                club=club, user=request.user, played_on=form.cleaned_data["played_on"]
            )
        except ServiceError as exc:
            form.add_error("played_on" if exc.field == "date" else None, exc.message)
        else:
            ready = f"{event.name} is ready: enter the players and check them in."
            messages.success(request, ready)
            return redirect("event-manage", event_id=event.pk)
    context = _club_context(request, club, night_form=form)
    return render(request, "tournaments/clubs/club.html", context, status=400)


@login_required
@require_POST
def club_director_new(request, club_id: int):
    club = club_get_for_director(club_id=club_id, user=request.user)
    form = DirectorForm(request.POST)
    if form.is_valid():
        try:
            role = club_director_add(
                club=club, actor=request.user, person=form.cleaned_data["person"]
            )
        except ServiceError as exc:
            form.add_error("person", exc.message)
        else:
            messages.success(request, f"{role.user} now directs the club too.")
            return redirect("club-detail", club_id=club.pk)
    context = _club_context(request, club, director_form=form)
    return render(request, "tournaments/clubs/club.html", context, status=400)


@login_required
@require_POST
def club_director_remove_view(request, club_id: int, user_id: int):
    club = club_get_for_director(club_id=club_id, user=request.user)
    done_or_refused(
        request,
        lambda: club_director_remove(club=club, actor=request.user, user_id=user_id),
        "Removed: they no longer direct the club.",
    )
    return redirect(reverse("club-detail", args=[club.pk]) + "#directors-heading")


@login_required
@require_POST
def club_award_new(request, club_id: int):
    club = club_get_for_director(club_id=club_id, user=request.user)
    form = AwardForm(request.POST, club=club)
    if form.is_valid():
        data = form.cleaned_data
        entry = Entry.objects.select_related("player", "event").get(pk=data["entry"])
        try:
            award = club_award_record(
                club=club, user=request.user, entry=entry, kind=data["kind"],
                hand=data["hand"], starter=data["starter"], crib=data["crib"],
            )  # fmt: skip
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, f"{award.get_kind_display()} recorded for {entry.player}.")
            return redirect("club-detail", club_id=club.pk)
    context = _club_context(request, club, award_form=form)
    return render(request, "tournaments/clubs/club.html", context, status=400)


def club_season(request, club_id: int, season: int):
    club = club_get(club_id=club_id)
    if not 1900 <= season <= 9999:
        raise Http404("No such season.")
    table = season_table(club=club, season=season)
    return render(request, "tournaments/clubs/season.html", {"table": table})


def grass_roots_leaderboard(request, season: int):
    if not 1900 <= season <= 9999:
        raise Http404("No such season.")
    page = Paginator(national_grass_roots(season=season), PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(request, "tournaments/clubs/grass_roots.html", {"season": season, "page": page})


@login_required
@require_POST
def club_invitation_send(request, club_id: int):
    club = club_get_for_director(club_id=club_id, user=request.user)
    form = ClubInvitationForm(request.POST)
    if form.is_valid():
        try:
            sent = invitation_send(actor=request.user, club=club, role="", **form.cleaned_data)
        except ServiceError as exc:
            refusal_on_form(form, exc)
        else:
            messages.success(request, f"Invitation to direct the club e-mailed to {sent.email}.")
            return redirect(reverse("club-detail", args=[club.pk]) + "#directors-heading")
    context = _club_context(request, club, invitation_form=form)
    return render(request, "tournaments/clubs/club.html", context, status=400)


@login_required
@require_POST
def club_invitation_withdraw(request, club_id: int, invitation_id: int):
    club = club_get_for_director(club_id=club_id, user=request.user)
    invitation_withdraw_for(request, get_object_or_404(Invitation, pk=invitation_id, club=club))
    return redirect(reverse("club-detail", args=[club.pk]) + "#directors-heading")
