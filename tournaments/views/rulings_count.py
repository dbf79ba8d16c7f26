"""The count checker anyone may use (``/count/``): a hand or crib counted by the engine, and
the pegging of 2, 3 or 4 players checked card by card, each point with its reason.
"""

from __future__ import annotations

import re

from django import forms
from django.shortcuts import render

from tournaments.errors import ServiceError
from tournaments.selectors.rulings import count_hand, count_pegging
from tournaments.views.refusals import refusal_on_form

CARDS = {
    "class": "cards-input",
    "autocomplete": "off",
    "autocapitalize": "characters",
    "spellcheck": "false",
}


class HandForm(forms.Form):
    hand = forms.CharField(
        label="Four cards",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "5H 5D 5S JC"}),
        help_text="Rank then suit, with spaces: A 2 … 10 J Q K and C D H S.",
    )
    starter = forms.CharField(
        label="Starter (the cut card)", widget=forms.TextInput(attrs={**CARDS, "placeholder": "5C"})
    )
    crib = forms.BooleanField(required=False, label="This is the crib")


class PlayForm(forms.Form):
    """Two players fill the pone's and the dealer's boxes; three or four players also fill
    the second (and third) player's, in the order of play round the table."""

    pone = forms.CharField(
        label="Pone's four cards (the non-dealer; with three or four players, the player on "
        "the dealer's left, who leads)",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "KC 8C 4C 5C"}),
    )
    second = forms.CharField(
        required=False,
        label="Second player's four cards (three or four players only: next on the left)",
        widget=forms.TextInput(attrs=CARDS),
    )
    third = forms.CharField(
        required=False,
        label="Third player's four cards (four players only)",
        widget=forms.TextInput(attrs=CARDS),
    )
    dealer = forms.CharField(
        label="Dealer's four cards",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "5D 8D 6D 3D"}),
    )
    plays = forms.CharField(
        label="Every card in the order it was laid (8, 12 or 16 cards)",
        widget=forms.TextInput(attrs={**CARDS, "placeholder": "KC 5D 8C 8D 4C 6D 5C 3D"}),
    )

    def clean(self):
        data = super().clean()
        if data.get("third") and not data.get("second"):
            self.add_error(
                "second",
                "Fill in the second player's cards too: four players go pone, second, third, "
                "dealer.",
            )
        return data


# What the page calls each seat, by the number of seats.
_SEAT_WORDS = {
    2: ("pone", "dealer"),
    3: ("pone", "second player", "dealer"),
    4: ("pone", "second player", "third player", "dealer"),
}


def _pegging_rows(data: dict) -> dict:
    """The checked play for the page: each card by whom, and each seat's (and side's) total."""
    hands = {"pone": data["pone"]}
    hands.update({field: data[field] for field in ("second", "third") if data[field]})
    hands["dealer"] = data["dealer"]
    words = _SEAT_WORDS[len(hands)]
    try:
        result = count_pegging(hands=hands, plays=data["plays"])
    except ServiceError as exc:
        seat_words = re.sub(r"\bseat (\d)", lambda m: f"the {words[int(m[1])]}", exc.message)
        raise ServiceError(seat_words, field=exc.field, code=exc.code) from None
    rows = [
        {"card": p.card, "who": words[p.seat], "count": p.count, "points": p.points,
         "reasons": p.reasons}
        for p in result.plays
    ]  # fmt: skip
    totals = list(zip(words, result.points, strict=True))
    sides = None
    if len(result.points) == 4:
        sides = list(zip(("pone and third player", "second player and dealer"),
                         result.team_points(), strict=True))  # fmt: skip
    return {"play_rows": rows, "play_totals": totals, "play_sides": sides}


def count_checker(request):
    """Count a hand, or a whole play, with the engine. Nothing is saved."""
    check = request.GET.get("check")
    hand_form = HandForm(request.GET if check == "hand" else None)
    play_form = PlayForm(request.GET if check == "play" else None)
    context = {"hand_form": hand_form, "play_form": play_form, "check": check}
    try:
        if check == "hand" and hand_form.is_valid():
            context["hand_score"] = count_hand(**hand_form.cleaned_data)
        elif check == "play" and play_form.is_valid():
            context.update(_pegging_rows(play_form.cleaned_data))
    except ServiceError as exc:
        refusal_on_form(hand_form if check == "hand" else play_form, exc)
    status = 400 if hand_form.errors or play_form.errors else 200
    return render(request, "tournaments/rulings/count.html", context, status=status)
