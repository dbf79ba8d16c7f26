"""Serializers for the director's workflow: events, entries, games and their pairings.

Input serializers check the shape of a request (types, lengths, which fields); the rules (what a
preset fills in, when settings may change, who may be entered) live in the services. Output
serializers come in two widths where the public may look: ``EventSerializer`` is what a visitor
sees of a published event, ``EventDirectorSerializer`` adds what only its directors see.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.api.serializers import StrictInput
from tournaments.core.playoff_lengths import LONGEST
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, Game, Job, Weekend
from tournaments.presets import PRESETS
from tournaments.selectors.sanctioning import event_sanction_status
from tournaments.services.entries_import import csv_upload_text

# Events

PUBLIC_EVENT_FIELDS = [
    "id", "name", "kind", "preset", "starts_on", "stage", "published", "sanctioned",
    "weekend", "parent", "capacity",
]  # fmt: skip


_GAMES = {"type": "integer", "minimum": 1, "maximum": LONGEST}


@extend_schema_field(
    {
        "type": "object",
        "description": "Games per playoff match by the round's name, counted from the final: "
        '"every" round, and the "semi"-finals and "final" when they differ (null: as every '
        "round). Each is an odd number. The rule is checked by the service "
        "(core.playoff_lengths), which names the round that is wrong.",
        "properties": {
            "every": _GAMES,
            "semi": {**_GAMES, "nullable": True},
            "final": {**_GAMES, "nullable": True},
        },
        "required": ["every"],
        "additionalProperties": False,
        "example": {"every": 5, "semi": None, "final": 7},
    }
)
class PlayoffLengthsField(serializers.JSONField):
    """``Event.playoff_best_of``: documented as its named lengths, checked by the service."""


class _SanctioningIsNotASetting(StrictInput, serializers.ModelSerializer):
    """``sanctioned`` is the ACC office's to give (``api.sanctioning``): sent here, a 400."""

    def to_internal_value(self, data):
        if hasattr(data, "keys") and "sanctioned" in data:
            raise serializers.ValidationError(
                {
                    "sanctioned": serializers.ErrorDetail(
                        "Sanctioning is granted by the ACC office, not set by a director: ask "
                        "for it with POST /api/v1/events/<id>/sanctioning/request/.",
                        code="not_a_setting",
                    )
                }
            )
        return super().to_internal_value(data)


class EventSerializer(serializers.ModelSerializer):
    """An event as visitors see it once it is published: its name, stage and settings."""

    playoff_best_of = PlayoffLengthsField(read_only=True)

    class Meta:
        model = Event
        fields = [*PUBLIC_EVENT_FIELDS, *Event.SETTINGS]
        read_only_fields = fields


class EventDirectorSerializer(EventSerializer):
    """An event as its directors see it; ``mrp_note`` says when no published MRP table covers
    its qualifying length, with the two choices (change it, or report the MRPs by hand)."""

    mrp_note = serializers.SerializerMethodField()

    class Meta(EventSerializer.Meta):
        fields = [*EventSerializer.Meta.fields, "created_by", "created_at", "mrp_note"]
        read_only_fields = fields

    def get_mrp_note(self, event) -> str:
        return event_sanction_status(event=event).mrp_note


class EventCreateSerializer(_SanctioningIsNotASetting):
    """A new event: a name and a preset; any setting given overrides the preset's value."""

    preset = serializers.ChoiceField(choices=[(slug, p.name) for slug, p in PRESETS.items()])
    playoff_best_of = PlayoffLengthsField(required=False)
    weekend = serializers.PrimaryKeyRelatedField(
        queryset=Weekend.objects.all(),
        required=False,
        allow_null=True,
        help_text="the weekend (tournament) the event joins; you must run it",
    )
    parent = serializers.PrimaryKeyRelatedField(
        queryset=Event.objects.all(),
        required=False,
        allow_null=True,
        help_text="the Main this event belongs to (you must direct it); joins its weekend",
    )

    class Meta:
        model = Event
        fields = [
            "name", "preset", "kind", "starts_on", "published", "weekend", "parent", "capacity",
            *Event.SETTINGS,
        ]  # fmt: skip


class EventSettingsSerializer(_SanctioningIsNotASetting):
    """The fields a director may change; settings only until play starts."""

    playoff_best_of = PlayoffLengthsField(required=False)

    class Meta:
        model = Event
        fields = ["name", "starts_on", "published", *Event.SETTINGS]


# Entries


class EntrySerializer(serializers.ModelSerializer):
    """A player's entry, with the player's name, ACC number and home club, and the contact
    details the player gave for this event (never what they gave another event)."""

    name = serializers.CharField(read_only=True)
    acc_number = serializers.CharField(source="player.acc_number", read_only=True)
    club = serializers.CharField(source="player.home_club.name", read_only=True, allow_null=True)
    email = serializers.CharField(read_only=True, help_text="for this event; empty if none")
    phone = serializers.CharField(read_only=True, help_text="for this event; empty if none")
    team_name = serializers.CharField(
        source="team.name", read_only=True, allow_null=True, help_text="a doubles partner's team"
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "player",
            "name",
            "acc_number",
            "club",
            "status",
            "joined_from_game",
            "withdrawn_after_game",
            "missed_games",
            "checked_in_at",
            "email",
            "phone",
            "report_token",
            "team",
            "team_name",
            "created_at",
        ]
        read_only_fields = fields


class EntryRegisterSerializer(StrictInput):
    """One player to enter; ``check_in`` checks a walk-in in at once."""

    # Lengths are the columns' sizes; the service decides what a valid name or e-mail is.
    name = serializers.CharField()
    acc_number = serializers.CharField(max_length=20, required=False, allow_blank=True)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    new_club = serializers.BooleanField(
        default=False,
        help_text="the club is not known yet: make it (after an unknown_club answer)",
    )
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True)
    check_in = serializers.BooleanField(default=False)
    player_id = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=2**63 - 1,
        help_text="the known player this is (after a confirm_player answer)",
    )
    new_player = serializers.BooleanField(
        default=False, help_text="this is someone new, though the name is like a known player's"
    )


class EntriesImportSerializer(StrictInput):
    """A CSV file as multipart field ``file``, or its text as ``csv``. The first row names the
    columns: name (required), acc_number, club, email, phone."""

    # validated_data["text"] is the CSV text, whichever way it came.

    file = serializers.FileField(required=False)
    csv = serializers.CharField(required=False, trim_whitespace=False)
    check_in = serializers.BooleanField(default=False)
    matches = serializers.DictField(
        child=serializers.CharField(max_length=20),
        required=False,
        help_text='by row of the file: a player_id, or "new" (after a confirm_players answer)',
    )

    clubs = serializers.DictField(
        child=serializers.CharField(max_length=20),
        required=False,
        help_text='by club name as the file spells it: a club id, "new" (make the club) or '
        '"none" (leave the club empty), after a confirm_clubs answer',
    )

    def validate_clubs(self, clubs: dict) -> dict[str, int | str]:
        for choice in clubs.values():
            if not (choice in ("new", "none") or str(choice).isdigit()):
                raise serializers.ValidationError(
                    'Give each club name a club id, "new" or "none".', code="invalid"
                )
        return {name: c if c in ("new", "none") else int(c) for name, c in clubs.items()}

    def validate_matches(self, matches: dict) -> dict[int, int | str]:
        cleaned = {}
        for row, choice in matches.items():
            if not str(row).isdigit() or not (choice == "new" or str(choice).isdigit()):
                raise serializers.ValidationError(
                    'Give each row number a player_id or "new".', code="invalid"
                )
            cleaned[int(row)] = choice if choice == "new" else int(choice)
        return cleaned

    def validate_file(self, upload) -> str:
        try:
            return csv_upload_text(upload)
        except ServiceError as exc:
            raise serializers.ValidationError(exc.message, code=exc.code) from None

    def validate(self, attrs):
        if ("file" in attrs) == ("csv" in attrs):
            raise serializers.ValidationError(
                {"file": "Send either a CSV file as 'file' or its text as 'csv'."},
                code="one_source",
            )
        attrs["text"] = attrs.pop("file") if "file" in attrs else attrs.pop("csv")
        return attrs


# Games and pairings


class JobStateSerializer(serializers.ModelSerializer):
    """How far a game's pairing job got, and why it failed if it did."""

    class Meta:
        model = Job
        fields = ["id", "status", "progress", "message", "error"]
        read_only_fields = fields


class GameSerializer(serializers.ModelSerializer):
    job = JobStateSerializer(read_only=True, allow_null=True)

    class Meta:
        model = Game
        fields = ["number", "status", "paired_at", "published_at", "closed_at", "job"]
        read_only_fields = fields


class TableRowSerializer(serializers.Serializer):
    """One table; ``first`` deals or cuts first."""

    number = serializers.IntegerField()
    first = serializers.CharField()
    first_entry_id = serializers.IntegerField()
    second = serializers.CharField()
    second_entry_id = serializers.IntegerField()
    first_team_id = serializers.IntegerField(allow_null=True, help_text="doubles: the team")
    first_partners = serializers.ListField(child=serializers.CharField(), help_text="doubles")
    second_team_id = serializers.IntegerField(allow_null=True, help_text="doubles: the team")
    second_partners = serializers.ListField(child=serializers.CharField(), help_text="doubles")


class NameRowSerializer(serializers.Serializer):
    """One player's line of the lobby list; ``table`` is null for the sit-out."""

    name = serializers.CharField()
    entry_id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    opponent = serializers.CharField(help_text="the other player, or in doubles the other team")
    team = serializers.CharField(help_text="doubles: the player's own team; else empty")


class PairingsSerializer(serializers.Serializer):
    """A game's pairings by table (the director's sheet) and by name (the lobby list)."""

    number = serializers.IntegerField(source="game.number")
    status = serializers.ChoiceField(source="game.status", choices=Game.Status.choices)
    published_at = serializers.DateTimeField(source="game.published_at", allow_null=True)
    tables = TableRowSerializer(many=True)
    sit_out = NameRowSerializer(allow_null=True)
    by_name = NameRowSerializer(many=True)
