"""The administrators' page for the list of clubs: merge two clubs that are one, remove one
made by mistake (``services.clubs_admin``)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from tournaments.errors import ServiceError
from tournaments.models import Club
from tournaments.selectors.clubs import clubs_for_admin
from tournaments.services.clubs_admin import club_merge, club_remove


class ClubMergeForm(forms.Form):
    merge = forms.ModelChoiceField(
        queryset=Club.objects.order_by("name"), label="Merge this club", empty_label="Choose…"
    )
    keep = forms.ModelChoiceField(
        queryset=Club.objects.order_by("name"), label="into this club", empty_label="Choose…"
    )


@staff_member_required
def clubs_admin(request):
    form = ClubMergeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        keep, merge = form.cleaned_data["keep"], form.cleaned_data["merge"]
        try:
            moved = club_merge(keep=keep, merge=merge, user=request.user)
        except ServiceError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                f"{merge.name} merged into {keep.name}: {moved['nights']} night(s), "
                f"{moved['members']} member(s) and {moved['awards']} award(s) moved.",
            )
            return redirect("clubs-admin")
    context = {"form": form, "clubs": clubs_for_admin()}
    return render(
        request, "tournaments/clubs/admin.html", context, status=400 if form.errors else 200
    )


@staff_member_required
@require_POST
def club_remove_view(request, club_id: int):
    club = get_object_or_404(Club, pk=club_id)
    try:
        club_remove(club=club, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{club.name} removed.")
    return redirect("clubs-admin")
