"""The event's history page: every action of its directors, cross-checkers and judges, newest
first, filterable by person, kind of action and game."""

from __future__ import annotations

import json

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import render

from tournaments.models import AuditEntry
from tournaments.selectors.access import event_get_for_history
from tournaments.selectors.audit import HistoryFilters, audit_entries, audit_people

PER_PAGE = 50


class HistoryFilterForm(forms.Form):
    actor = forms.TypedChoiceField(label="Person", required=False, coerce=int, empty_value=None)
    kind = forms.ChoiceField(label="Kind of action", required=False)
    game = forms.IntegerField(label="Game", required=False, min_value=1, max_value=1000)

    def __init__(self, *args, people, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["actor"].choices = [("", "Everyone"), *people]
        self.fields["kind"].choices = [("", "Every kind"), *AuditEntry.Kind.choices]

    def filters(self) -> HistoryFilters:
        if not self.is_valid():
            return HistoryFilters()
        data = self.cleaned_data
        return HistoryFilters(data["actor"], data["kind"] or None, data["game"])


def _shown(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def changes(entry: AuditEntry) -> list[tuple[str, str, str]]:
    """(what, before, after) for each key the action recorded, for reading on the page."""
    keys = list(dict.fromkeys([*entry.before, *entry.after]))
    return [
        (key.replace("_", " "), _shown(entry.before.get(key)), _shown(entry.after.get(key)))
        for key in keys
    ]


@login_required
def event_history(request, event_id: int):
    event = event_get_for_history(event_id=event_id, user=request.user)
    form = HistoryFilterForm(request.GET or None, people=audit_people(event=event))
    page = Paginator(audit_entries(event=event, filters=form.filters()), PER_PAGE).get_page(
        request.GET.get("page")
    )
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "event": event,
        "form": form,
        "page": page,
        "rows": [(entry, changes(entry)) for entry in page],
        "query": query.urlencode(),
    }
    return render(request, "tournaments/director/history.html", context)
