"""Forms for the director's pages. They check shapes; services check the rules."""

from __future__ import annotations

from copy import copy
from typing import Any

from django import forms
from django.template.defaultfilters import pluralize

from tournaments.core.bracket import cut_for
from tournaments.core.mrp import MRP_TABLES
from tournaments.core.pairing_rules import max_games
from tournaments.core.playoff_lengths import NAMES, lengths_of
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, EventRole
from tournaments.presets import PRESETS
from tournaments.services.entries_import import csv_upload_text


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


BEST_OF_FIELDS = ("best_of_all", "best_of_semi", "best_of_final")


def _best_of_label(games: int) -> str:
    return "1 game" if games == 1 else f"Best of {games} (first to win {games // 2 + 1})"


BEST_OF_CHOICES = [(n, _best_of_label(n)) for n in (1, 3, 5, 7, 9)]
SAME_AS_OTHER_ROUNDS = ("", "Same as the other rounds")


def field_size(event: Event) -> int:
    """The players the settings page counts: entered (registration) or checked in (after)."""
    if event.pk is None:
        return 0
    if event.stage == Event.Stage.REGISTRATION:
        return event.entries.exclude(status=Entry.Status.WITHDRAWN).count()
    return event.entries.filter(status=Entry.Status.CHECKED_IN).count()


def playoff_rounds(entrants: int, ratio: int) -> int | None:
    """Rounds of the bracket ``entrants`` would make; None without players or playoffs."""
    if not ratio or entrants < 1:
        return None
    return cut_for(entrants, ratio).lines.bit_length() - 1  # lines are a power of two


def _words(numbers: list[int]) -> str:
    return " or ".join([", ".join(map(str, numbers[:-1])), str(numbers[-1])]).removeprefix(" or ")


def games_hint(event: Event, entrants: int) -> str:
    """How many qualifying games suit the field: the longest length the ACC tables for this
    kind of event (or the preset's) that ``entrants`` can play within the meeting cap."""
    if event.kind in MRP_TABLES:
        lengths, what = sorted(MRP_TABLES[event.kind].thresholds), f"ACC {event.get_kind_display()}"
    elif event.preset in PRESETS:
        low, high = PRESETS[event.preset].games_range
        lengths, what = list(range(low, high + 1)), PRESETS[event.preset].name
    else:
        lengths, what = [], ""
    meet = (
        "meeting anyone twice"
        if event.max_meetings == 1
        else f"meeting anyone more than {event.max_meetings} times"
    )
    longest = max_games(entrants, event.max_meetings)
    tabled = f"{what} ({_words(lengths)} games)" if lengths else ""
    if entrants < 2:
        start = f"{what} lengths: {_words(lengths)} games. " if lengths else ""
        return start + "Once players have entered, this suggests a length for the field."
    fitting = [n for n in lengths if n <= longest]
    if fitting:
        return (
            f"With {entrants} entrants, the ACC schedule suggests {fitting[-1]} games: the "
            f"longest {tabled} that {entrants} players can play without {meet}."
        )
    shortest = f": fewer than the shortest {what} ({lengths[0]} games)" if lengths else ""
    return f"With {entrants} entrants, at most {longest} games avoid {meet}{shortest}."


class EventSettingsForm(forms.ModelForm):
    """Every setting of an event in plain words, in the sections the page shows.

    Playoff lengths: ``Event.playoff_best_of`` names them (every round, the semi-finals, the
    final; ``core.playoff_lengths``), counted from the final, so a choice means the same
    whatever size of bracket the field makes. The three fields map onto the three names.
    """

    best_of_all = forms.TypedChoiceField(
        coerce=int,
        choices=BEST_OF_CHOICES,
        label="Playoff matches",
        help_text="Games in each playoff match, every round. ACC: best of 5.",
    )
    best_of_semi = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        choices=[SAME_AS_OTHER_ROUNDS, *BEST_OF_CHOICES],
        label="Semi-finals",
    )
    best_of_final = forms.TypedChoiceField(
        coerce=int,
        empty_value=None,
        required=False,
        choices=[SAME_AS_OTHER_ROUNDS, *BEST_OF_CHOICES],
        label="Final",
    )

    SECTIONS = (
        ("event", "The event", ("name", "starts_on", "style", "rulebook_edition")),
        (
            "games",
            "Games and scoring",
            (
                "qualifying_games", "max_meetings", "pairing_mode", "target_score",
                "win_points", "skunk_margin", "skunk_points", "double_skunk_margin",
                "double_skunk_points", "sit_out_game_points", "sit_out_spread", "muggins",
            ),
        ),
        (
            "playoffs",
            "The cut and playoffs",
            ("qualifier_ratio", *BEST_OF_FIELDS, "playoff_first_deal", "consolation_eligibility"),
        ),
        ("judges", "Judges and rulings", ("judges_per_ruling",)),
        ("money", "Money", ()),
        ("publishing", "Publishing", ("published",)),
    )  # fmt: skip

    class Meta:
        model = Event
        fields = [
            "name",
            "starts_on",
            "published",
            *(name for name in Event.SETTINGS if name != "playoff_best_of"),
        ]
        widgets = {"starts_on": forms.DateInput(attrs={"type": "date"})}
        labels = {
            "name": "Event name",
            "starts_on": "Date",
            "rulebook_edition": "Rulebook",
            "style": "How it is played",
            "qualifying_games": "Qualifying games",
            "max_meetings": "Most games against one opponent",
            "pairing_mode": "How players are paired",
            "target_score": "Game to",
            "win_points": "Game points for a win",
            "skunk_margin": "A skunk is a win by at least",
            "skunk_points": "Game points for a skunk",
            "double_skunk_margin": "A double skunk is a win by at least",
            "double_skunk_points": "Game points for a double skunk",
            "sit_out_game_points": "Game points for sitting out",
            "sit_out_spread": "Spread for sitting out",
            "muggins": "Muggins",
            "qualifier_ratio": "Entrants per playoff place",
            "playoff_first_deal": "First deal in a playoff game",
            "consolation_eligibility": "Who may enter the Consolation",
            "judges_per_ruling": "Judges per ruling",
            "published": "Published",
        }
        help_texts = {
            "name": "As players and spectators will see it.",
            "starts_on": "The first day of play.",
            "rulebook_edition": "The ACC rules the judges follow; every ruling records it.",
            "style": "Singles: one against one. Doubles and Canadian Doubles (the ten-card "
            "deal): teams of two, partners sitting opposite; each partner has their own "
            "private link.",
            "max_meetings": "1: a new opponent every game. 2: the two-games-per-opponent format.",
            "pairing_mode": "Random: anyone not met yet. By standings: players with similar "
            "records meet.",
            "target_score": "Points that win a game. ACC: 121.",
            "win_points": "ACC: 2.",
            "skunk_margin": "ACC: 31 (the loser has 90 or less).",
            "skunk_points": "ACC: 3.",
            "double_skunk_margin": "ACC: 61. Leave empty for no double skunk.",
            "double_skunk_points": "ACC: 3, as a skunk; the double is kept as a statistic.",
            "sit_out_game_points": "With an odd number of players one sits out each game and "
            "is scored as a win. ACC: 2.",
            "sit_out_spread": "ACC: 10.",
            "muggins": "Players may claim points their opponent missed. Off in ACC play.",
            "qualifier_ratio": "ACC: 4, so a quarter of the field qualifies (rounded up). "
            "0: no playoffs.",
            "playoff_first_deal": "Who deals first in each game of a playoff match.",
            "consolation_eligibility": "Used when a Consolation is made from this event's cut.",
            "judges_per_ruling": "ACC: two judges make a ruling, three when a player asks for a "
            "third. One judge may rule at a club night or another unsanctioned event. This can "
            "change during play.",
            "published": "Players and spectators can see the pairings, standings and bracket.",
        }

    LOCKED = "Fixed now: game 1 is paired."

    def __init__(self, *args, play_started: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        event = self.instance
        if event.sanctioned:
            self.fields["judges_per_ruling"].choices = [(2, "Two judges")]
            self.initial["judges_per_ruling"] = 2
            self.fields["judges_per_ruling"].help_text = (
                "This event is sanctioned: the ACC's rulings are made by two judges, three when "
                "a player asks for a third."
            )
        self.entrants, self.ratio = field_size(event), event.qualifier_ratio
        self.rounds = playoff_rounds(self.entrants, self.ratio)
        self.best_of = lengths_of(event.playoff_best_of)
        for name, key in zip(BEST_OF_FIELDS, NAMES, strict=True):
            games = self.best_of[key]
            self.initial.setdefault(name, games)
            field = self.fields[name]
            if games is not None and games not in dict(field.choices):
                field.choices = [*field.choices, (games, _best_of_label(games))]
        base = "Games everyone plays before the cut."
        self.fields["qualifying_games"].help_text = f"{base} {games_hint(event, self.entrants)}"
        where = (
            f" With the field as it is now, they are round {self.rounds - 1} of {self.rounds}."
            if self.rounds and self.rounds >= 2
            else ""
        )
        self.fields["best_of_semi"].help_text = (
            f"Only if they are longer or shorter. Counted from the final, so it stays right "
            f"if the field grows or shrinks.{where}"
        )
        where = f" With the field as it is now, it is round {self.rounds}." if self.rounds else ""
        self.fields["best_of_final"].help_text = (
            f"Only if it is longer or shorter. Always the last match, however many players "
            f"qualify.{where}"
        )
        if play_started:
            self._lock_rules_of_play()

    def _lock_rules_of_play(self) -> None:
        """After play starts the service refuses these: shown disabled, the reason beside each
        (a disabled field keeps its saved value whatever a post says)."""
        self.locked = [
            name
            for name in self.fields
            if (name in Event.SETTINGS and name not in Event.LIVE_SETTINGS)
            or name in BEST_OF_FIELDS
        ]
        for name in self.locked:
            field = self.fields[name]
            field.disabled = True
            field.help_text = f"{self.LOCKED} {field.help_text}".strip()

    def _locked_changes(self) -> list[str]:
        """Labels of fixed settings a post still changes (a page opened before game 1 was
        paired): a disabled field would drop them without a word."""
        changed = []
        for name in getattr(self, "locked", []):
            if name not in self.data:
                continue  # not sent: a disabled input, or an unticked box
            field = copy(self.fields[name])
            field.disabled = False
            value = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            if field.has_changed(self.get_initial_for_field(field, name), value):
                changed.append(str(field.label))
        return changed

    @property
    def sections(self) -> list[dict]:
        return [
            {"slug": slug, "heading": heading, "fields": [self[name] for name in names]}
            for slug, heading, names in self.SECTIONS
        ]

    def cut_words(self) -> str:
        """The bracket the current field makes with the saved ratio, for the playoff section."""
        ratio = self.ratio
        if not ratio:
            return "No playoffs: the qualifier ratio is 0."
        if self.entrants < 1:
            return (
                "Nobody has entered yet, so the size of the bracket is not known: lengths for "
                "the semi-finals and the final can be chosen once players have entered."
            )
        cut = cut_for(self.entrants, ratio)
        byes = f"{cut.byes or 'no'} bye{pluralize(cut.byes)}"
        shape = f"{cut.qualifiers} qualify: a bracket of {cut.lines} with {byes}"
        rounds = self.rounds
        played = f", played in {rounds} round{pluralize(rounds)}" if rounds else ", and no matches"
        return f"With {self.entrants} entrants, {shape}{played}."

    def clean(self):
        data = super().clean()
        locked = self._locked_changes()
        if locked:
            raise forms.ValidationError(
                f"Game 1 was paired after this page was opened, so {', '.join(locked)} can no "
                "longer change (the rules of play are fixed once play starts). Nothing was "
                "saved: the fixed settings now show their saved values; change the name, the "
                "date or publishing and save again.",
                code="play_started",
            )
        if data.get("qualifier_ratio", self.ratio) == 0:
            for name, what in (("best_of_semi", "semi-finals"), ("best_of_final", "final")):
                if name in self.changed_data and data.get(name) is not None:
                    self.add_error(
                        name,
                        f"This event has no playoffs (the qualifier ratio is 0), so no {what}: "
                        "choose “Same as the other rounds”, or set the entrants per playoff "
                        "place first.",
                    )
        return data

    def changes(self) -> dict[str, Any]:
        """The settings this form changes, as ``event_update_settings`` takes them."""
        changes = {
            name: self.cleaned_data[name]
            for name in self.changed_data
            if name not in BEST_OF_FIELDS
        }
        lengths = self._best_of_change()
        if lengths is not None:
            changes["playoff_best_of"] = lengths
        return changes

    def _best_of_change(self) -> dict | None:
        """The named lengths chosen, when they differ from the stored ones."""
        data = self.cleaned_data
        lengths = {key: data.get(name) for name, key in zip(BEST_OF_FIELDS, NAMES, strict=True)}
        every = lengths["every"]
        for key in ("semi", "final"):
            if lengths[key] == every:
                lengths[key] = None  # the same as every round: no override to remember
        return None if lengths == self.best_of else lengths


class RegistrationForm(forms.Form):
    name = forms.CharField(max_length=200)
    acc_number = forms.CharField(max_length=20, required=False, label="ACC number")
    club = forms.CharField(max_length=200, required=False)
    new_club = forms.BooleanField(
        required=False, label="It is a new club: add it to the clubs page"
    )
    email = forms.EmailField(required=False, label="E-mail")
    phone = forms.CharField(max_length=40, required=False)
    check_in = forms.BooleanField(required=False, label="Walk-in: check in now")


class ImportForm(forms.Form):
    """A CSV file; or, on the second step that asks who some names are, its text again."""

    file = forms.FileField(
        label="CSV file",
        required=False,
        help_text="Saved from a spreadsheet (comma, semicolon or tab). The first row names the "
        "columns: a name (or first and last name) is required; ACC number, club, e-mail and "
        "phone are read too. Players already entered are skipped. In a doubles event, a "
        "Team column (two rows share a team) or a Partner column (both on one row) makes "
        "the teams.",
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

    def clubs(self, post) -> dict[str, int | str]:
        """The answers about club names: ``club_<i>`` ("new", "none" or a club id) for the
        name in ``club_name_<i>``."""
        found = {}
        for key, value in post.items():
            name = post.get(f"club_name_{key.removeprefix('club_')}", "")
            asked = key.startswith("club_") and not key.startswith("club_name_") and name
            if asked and (value in ("new", "none") or value.isdigit()):
                found[name] = int(value) if value.isdigit() else value
        return found


class RoleForm(forms.Form):
    person = forms.CharField(
        max_length=200,
        label="Person",
        help_text="Their user name, or their name as on their account.",
    )
    role = forms.ChoiceField(choices=EventRole.Role.choices, initial=EventRole.Role.JUDGE)
