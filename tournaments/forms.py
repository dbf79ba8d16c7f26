"""Forms for the director's pages. They check shapes; services check the rules."""

from __future__ import annotations

from django import forms

from tournaments.models import Event, EventRole
from tournaments.presets import PRESETS
from tournaments.services.entries import csv_upload_text
from tournaments.services.errors import ServiceError


class EventCreateForm(forms.Form):
    name = forms.CharField(max_length=200, label="Event name")
    preset = forms.ChoiceField(
        choices=[(slug, p.name) for slug, p in PRESETS.items()],
        label="Start from",
        help_text="Fills every setting; you can change them before play starts.",
    )
    starts_on = forms.DateField(
        required=False, label="Date", widget=forms.DateInput(attrs={"type": "date"})
    )


class EventSettingsForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = ["name", "starts_on", "published", *Event.SETTINGS]
        widgets = {"starts_on": forms.DateInput(attrs={"type": "date"})}
        help_texts = {"published": "Visitors may see published pairings and standings."}


class RegistrationForm(forms.Form):
    name = forms.CharField(max_length=200)
    acc_number = forms.CharField(max_length=20, required=False, label="ACC number")
    club = forms.CharField(max_length=200, required=False)
    email = forms.EmailField(required=False, label="E-mail")
    phone = forms.CharField(max_length=40, required=False)
    check_in = forms.BooleanField(required=False, label="Walk-in: check in now")


class ImportForm(forms.Form):
    """A CSV file; or, on the second step that asks who some names are, its text again."""

    file = forms.FileField(
        label="CSV file",
        required=False,
        help_text="First row: name, acc_number, club, email, phone (only name is required).",
    )
    text = forms.CharField(required=False, widget=forms.HiddenInput)
    check_in = forms.BooleanField(required=False, label="Check everyone in")

    def clean(self):
        data = super().clean()
        upload, text = data.get("file"), data.get("text")
        if upload:
            try:
                data["text"] = csv_upload_text(upload)
            except ServiceError as exc:
                self.add_error("file", exc.message)
        elif not text:
            self.add_error("file", "Choose the CSV file to import.")
        return data

    def matches(self, post) -> dict[int, int | str]:
        """The second step's answers: ``match_<row>`` is a player id or "new"."""
        found = {}
        for key, value in post.items():
            row = key.removeprefix("match_")
            if key.startswith("match_") and row.isdigit() and (value == "new" or value.isdigit()):
                found[int(row)] = value if value == "new" else int(value)
        return found


class RoleForm(forms.Form):
    person = forms.CharField(
        max_length=200,
        label="Person",
        help_text="Their user name, or their name as on their account.",
    )
    role = forms.ChoiceField(choices=EventRole.Role.choices, initial=EventRole.Role.JUDGE)
