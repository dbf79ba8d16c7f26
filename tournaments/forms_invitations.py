"""The director's forms to invite someone by e-mail (``services.invitations``)."""

from django import forms

from tournaments.models import EventRole


class InvitationForm(forms.Form):
    email = forms.EmailField(
        label="Their e-mail address",
        help_text="We e-mail them a link; they make an account (or sign in) and take the role.",
    )
    role = forms.ChoiceField(choices=EventRole.Role.choices, initial=EventRole.Role.JUDGE)


class ClubInvitationForm(forms.Form):
    email = forms.EmailField(label="Their e-mail address")
