"""What the director's manage page shows of a doubles event's teams (``director_teams``)."""

from __future__ import annotations

from tournaments.forms_teams import PairUpForm, TeamForm
from tournaments.models import Entry
from tournaments.selectors.entrants import teams_of_event


def teams_context(event, **forms) -> dict:
    """What the manage page shows of a doubles event's teams (empty for singles)."""
    if not event.in_teams:
        return {}
    single = list(
        event.entries.filter(team__isnull=True)
        .exclude(status=Entry.Status.WITHDRAWN)
        .select_related("player")
    )
    return {
        "teams": list(teams_of_event(event=event)),
        "single": single,
        "drawable": sum(entry.status == Entry.Status.CHECKED_IN for entry in single),
        "team_form": forms.get("team_form") or TeamForm(),
        "pair_up_form": forms.get("pair_up_form") or PairUpForm(single=single),
    }
