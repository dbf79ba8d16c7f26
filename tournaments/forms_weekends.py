"""Forms of the weekend pages: the weekend's details, adding an event, and the public
registration request (``services.weekends``, ``services.registrations``)."""

from __future__ import annotations

from django import forms

from tournaments.models import Weekend


class WeekendForm(forms.ModelForm):
    class Meta:
        model = Weekend
        fields = ["name", "starts_on", "ends_on", "venue", "schedule"]
        labels = {
            "name": "Name on the flyer",
            "starts_on": "First day",
            "ends_on": "Last day (if more than one)",
            "venue": "Where",
            "schedule": "Schedule",
        }
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
            "schedule": forms.Textarea(attrs={"rows": 5}),
        }


class WeekendEventForm(forms.Form):
    event = forms.TypedChoiceField(coerce=int, label="Event you direct")

    def __init__(self, *args, events=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event"].choices = [(e.pk, e.name) for e in events]


class RegistrationRequestForm(forms.Form):
    """The public form: who you are and which events you want to enter."""

    name = forms.CharField(
        max_length=200,
        label="Your name",
        error_messages={"required": "Write your name, as it should appear on the standings."},
    )
    acc_number = forms.CharField(
        max_length=20, required=False, label="ACC number (if you have one)"
    )
    email = forms.EmailField(
        required=False,
        label="E-mail (optional)",
        help_text="We e-mail you when the director answers, and if a place opens.",
    )
    phone = forms.CharField(max_length=40, required=False, label="Phone (optional)")
    partner_name = forms.CharField(
        max_length=200, required=False, label="Partner's name (for a doubles event)"
    )
    keep_apart_name = forms.CharField(
        max_length=200,
        required=False,
        label="Keep me apart from (optional)",
        help_text="The name of someone you came with or live with: the director keeps the two "
        "of you from playing each other in the qualifying games.",
    )
    keep_apart_acc = forms.CharField(
        max_length=20, required=False, label="Their ACC number (if you know it)"
    )
    events = forms.TypedMultipleChoiceField(
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        label="Events you want to enter",
        error_messages={"required": "Tick at least one event to enter."},
    )

    def __init__(self, *args, events=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["events"].choices = [(e.id, _event_label(e)) for e in events]


def _event_label(event) -> str:
    parts = [event.name]
    if event.starts_on:
        parts.append(f"{event.starts_on:%a %-d %b}")
    if event.entry_fee_cents:
        parts.append(f"${event.entry_fee_cents / 100:.2f}")
    if event.places_left == 0:
        parts.append("full: you join the waitlist")
    return " · ".join(parts)


class ApproveForm(forms.Form):
    """Who the request is: a known player (``player_id``) or someone new."""

    player = forms.CharField(required=False)

    def identity(self) -> dict:
        value = self.cleaned_data.get("player") or ""
        if value == "new":
            return {"new_player": True}
        if value.isdigit():
            return {"player_id": int(value)}
        return {}


class NoteForm(forms.Form):
    """A decline's reason or a change asked for; its rules (needed, at most 500 characters) are
    ``services.registrations``' so that a refusal names the right one."""

    note = forms.CharField(required=False, strip=False, widget=forms.Textarea(attrs={"rows": 2}))


CAPACITY_RULE = "Capacity is a whole number of players (0 or more), or empty for no limit."


class CapacityForm(forms.Form):
    capacity = forms.IntegerField(
        min_value=0,
        required=False,
        label="Capacity (empty: no limit)",
        error_messages={"invalid": CAPACITY_RULE, "min_value": CAPACITY_RULE},
    )
