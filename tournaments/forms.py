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
    file = forms.FileField(
        label="CSV file",
        help_text="First row: name, acc_number, club, email, phone (only name is required).",
    )
    check_in = forms.BooleanField(required=False, label="Check everyone in")

    def clean_file(self) -> str:
        try:
            return csv_upload_text(self.cleaned_data["file"])
        except ServiceError as exc:
            raise forms.ValidationError(exc.message) from None


class RoleForm(forms.Form):
    person = forms.CharField(
        max_length=200,
        label="Person",
        help_text="Their user name, or their name as on their account.",
    )
    role = forms.ChoiceField(choices=EventRole.Role.choices, initial=EventRole.Role.JUDGE)
