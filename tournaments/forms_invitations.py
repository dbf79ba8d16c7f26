"""The director's forms to invite someone by e-mail (``services.invitations``)."""

from django import forms

from tournaments.models import EventRole


class InvitationForm(forms.Form):
    email = forms.EmailField(
        label="Their e-mail address",
        help_text="We e-mail them a link; they make an account (or sign in) and take the role.",
    )
    role = forms.ChoiceField(
        choices=EventRole.Role.choices, initial=EventRole.Role.JUDGE, label="Invite them as"
    )

    def __init__(self, *args, **kwargs):
        # The manage page holds the role form too: ids of their own (its "Role" is id_role).
        kwargs.setdefault("auto_id", "invite_%s")
        super().__init__(*args, **kwargs)


class ClubInvitationForm(forms.Form):
    email = forms.EmailField(label="Their e-mail address")

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "club_invite_%s")
        super().__init__(*args, **kwargs)
