"""Forms for a doubles event's teams on the director's page. They check shapes; the rules are
``services.teams``."""

from __future__ import annotations

from django import forms

from tournaments.models import Entry


class TeamForm(forms.Form):
    """Two players entered as a team: each gets their own entry and private link."""

    name_1 = forms.CharField(max_length=200, label="First partner")
    acc_number_1 = forms.CharField(
        max_length=20, required=False, label="First partner's ACC number"
    )
    name_2 = forms.CharField(max_length=200, label="Second partner")
    acc_number_2 = forms.CharField(
        max_length=20, required=False, label="Second partner's ACC number"
    )
    team_name = forms.CharField(
        max_length=200,
        required=False,
        label="Team name",
        help_text="Leave empty to use the partners' names (\u201cAnn & Bob\u201d).",
    )
    new_players = forms.BooleanField(
        required=False,
        label="Both are new players",
        help_text="Tick when a name is like a player Pegboard knows but is someone else.",
    )
    check_in = forms.BooleanField(required=False, label="Walk-in: check both in now")

    def partners(self) -> list[dict]:
        data = self.cleaned_data
        return [
            {
                "name": data[f"name_{n}"],
                "acc_number": data[f"acc_number_{n}"],
                "new_player": data["new_players"],
            }
            for n in (1, 2)
        ]


class PairUpForm(forms.Form):
    """Two players already entered, without a partner, made a team."""

    first = forms.ModelChoiceField(queryset=Entry.objects.none(), label="First partner")
    second = forms.ModelChoiceField(queryset=Entry.objects.none(), label="Second partner")
    team_name = forms.CharField(max_length=200, required=False, label="Team name")

    def __init__(self, *args, single: list[Entry] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        ids = [entry.pk for entry in single or []]
        for name in ("first", "second"):
            self.fields[name].queryset = Entry.objects.filter(pk__in=ids).select_related("player")
            self.fields[name].label_from_instance = lambda entry: entry.name
