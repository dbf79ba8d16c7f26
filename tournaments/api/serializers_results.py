"""Serializers for results: card lines, the player's report, the live board, a table's history,
the cross-check queue, standings and tie playoffs.

- line: a card line's game points, plus (a win's spread) and minus (a loss's spread).
- margin: what a player types, "I won / I lost by N": the engine turns it into a line. Its
  bounds (1..target) are the engine's rule, so the input only checks that it is a whole number;
  an impossible margin comes back from the service as a 400 naming ``margin`` and the rule.
- position: a seat at a table, 1 (deals or cuts first) or 2.

Input serializers check shape only; output serializers read what the selectors return.
"""

from __future__ import annotations

from django.urls import reverse
from rest_framework import serializers

from tournaments.api.serializers import FieldsKept, StrictInput
from tournaments.models import CardLine, Entry, Table
from tournaments.selectors.events import entries_of_event
from tournaments.selectors.report_match import MATCH_STATES

RESULTS = [("won", "I won"), ("lost", "I lost")]
BOARD_STATES = ["waiting", "one reported", "disagree", "verified", "flagged"]

# Lines


class LineSerializer(serializers.Serializer):
    """A card line as the engine sees it: game points and the spread in one column."""

    game_points = serializers.IntegerField()
    plus = serializers.IntegerField()
    minus = serializers.IntegerField()


# "kind" is a plain string in the schema: Event and Job have a "kind" with other choices, and
# drf-spectacular names enums after the field.
KIND_HELP = "reported (entered for the player) or verified (what counts in the standings)"


class StoredLineSerializer(serializers.ModelSerializer):
    """A stored card line: its figures, who entered it (``source``) and when."""

    kind = serializers.CharField(help_text=KIND_HELP)

    class Meta:
        model = CardLine
        fields = ["id", "kind", "game_points", "plus", "minus", "source", "current", "created_at"]
        read_only_fields = fields


class HistoryLineSerializer(serializers.ModelSerializer):
    """One line ever entered at a table, replaced or not, with who, when and why."""

    position = serializers.IntegerField(source="seat.position")
    entry_id = serializers.IntegerField(source="seat.entry_id")
    name = serializers.CharField(source="seat.entry.entrant_name", help_text="doubles: the team")
    entered_by = serializers.CharField(source="entered_by.username", allow_null=True, default=None)
    kind = serializers.CharField(help_text=KIND_HELP)

    class Meta:
        model = CardLine
        fields = [
            "id",
            "position",
            "entry_id",
            "name",
            "kind",
            "source",
            "current",
            "game_points",
            "plus",
            "minus",
            "entered_by",
            "created_at",
            "reason",
        ]
        read_only_fields = fields


# The player's report


class ReportSerializer(FieldsKept, StrictInput):
    """ "I won / I lost by N". With ``preview`` the engine's line and words come back unsaved."""

    result = serializers.ChoiceField(choices=RESULTS)
    margin = serializers.IntegerField(
        min_value=0,
        max_value=9999,
        help_text="The spread: the target minus the loser's score.",
    )
    preview = serializers.BooleanField(default=False)
    game = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=9999,
        help_text="The game the player is reporting; refused if a later one is up.",
    )


class PreviewSerializer(serializers.Serializer):
    """What the margin puts on the card, in the engine's words; nothing is saved."""

    line = LineSerializer()
    words = serializers.CharField()


PLAYER_STATES = [
    "not_reported",
    "waiting",
    "your_turn",
    "disagree",
    "verified",
    "flagged",
    "settled",
    "sit_out",
    "withdrawn",
    "not_started",
]
OPPONENT_STATUSES = ["not_reported", "reported", "agrees", "disagrees"]


class SettlementSerializer(serializers.Serializer):
    """Who settled the table (a cross-checker, a director, ACC Rule 12.2, the judges), the line
    the card now shows, what the player had reported, and the reason given."""

    by = serializers.CharField()
    line = StoredLineSerializer()
    reported = StoredLineSerializer(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    changed = serializers.BooleanField()


class CurrentGameSerializer(serializers.Serializer):
    """The player's latest game in play; ``table`` and ``opponent`` are null for the sit-out.

    ``state`` and ``words`` tell where the game stands (see ``selectors/report``);
    ``opponent_status``: ``not_reported``, ``reported`` (the opponent has, you have not; their
    figures are not shown), ``agrees`` or ``disagrees``; null for the sit-out."""

    game = serializers.IntegerField(source="number")
    game_status = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    table_status = serializers.CharField(allow_null=True)
    opponent = serializers.CharField(allow_null=True)
    can_report = serializers.BooleanField()
    reported = StoredLineSerializer(allow_null=True)
    verified = StoredLineSerializer(allow_null=True)
    opponent_status = serializers.ChoiceField(choices=OPPONENT_STATUSES, allow_null=True)
    state = serializers.ChoiceField(choices=PLAYER_STATES)
    words = serializers.CharField()
    settled = SettlementSerializer(allow_null=True)


class CardRowSerializer(serializers.Serializer):
    """One game of the running card: the verified line, else the player's own report."""

    game = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    opponent = serializers.CharField()
    game_points = serializers.IntegerField(source="line.game_points", allow_null=True, default=None)
    plus = serializers.IntegerField(source="line.plus", allow_null=True, default=None)
    minus = serializers.IntegerField(source="line.minus", allow_null=True, default=None)
    verified = serializers.BooleanField()


class NoticeSerializer(serializers.Serializer):
    message = serializers.CharField()
    created_at = serializers.DateTimeField()


class MatchStateSerializer(serializers.Serializer):
    """The player's playoff match (null outside the playoffs), with the states of a qualifying
    table for its current game (see ``selectors/report_match``): ``not_reported``, ``waiting``
    (saved, waiting for the opponent), ``your_turn`` (the opponent has reported), ``disagree``;
    between games ``verified`` (both cards agree) or ``settled`` (by a director, the judges or
    the no-show clock); ``not_known`` (the opponent is still to be decided) and ``decided``.
    ``game`` is the game a report goes to now (null when the match cannot be played);
    ``reported`` the player's own report of it (the opponent's figures are not shown)."""

    id = serializers.IntegerField(source="match_id")
    round = serializers.IntegerField()
    round_name = serializers.CharField()
    best_of = serializers.IntegerField()
    status = serializers.CharField()
    opponent = serializers.CharField(allow_null=True)
    wins = serializers.IntegerField(help_text="Games the player has won.")
    opponent_wins = serializers.IntegerField()
    game = serializers.IntegerField(allow_null=True)
    first_deal = serializers.CharField(allow_blank=True)
    can_report = serializers.BooleanField(
        help_text="POST /api/v1/report/<token>/match/ takes a report now."
    )
    reported = StoredLineSerializer(allow_null=True)
    opponent_status = serializers.ChoiceField(choices=OPPONENT_STATUSES, allow_null=True)
    state = serializers.ChoiceField(choices=MATCH_STATES)
    words = serializers.CharField()
    settled = SettlementSerializer(allow_null=True)


class ConsolationEntrySerializer(serializers.Serializer):
    """The player's entry in the Consolation of this Main (null until it is made, and outside a
    Main): its own private link, as ``page`` and as this endpoint (``report``)."""

    event_id = serializers.IntegerField()
    event = serializers.CharField(source="event.name")
    page = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()

    def get_page(self, entry) -> str:
        return reverse("player-page", args=[entry.report_token])

    def get_report(self, entry) -> str:
        return reverse("api-report", args=[entry.report_token])


class PlayerReportSerializer(serializers.Serializer):
    """Everything the player's phone shows: the game to report and the card so far."""

    entry_id = serializers.IntegerField(source="entry.pk")
    name = serializers.CharField()
    event = serializers.CharField()
    current = CurrentGameSerializer(
        allow_null=True, help_text="The qualifying game; null in the playoffs (see ``match``)."
    )
    match = MatchStateSerializer(source="match_state", allow_null=True)
    consolation = ConsolationEntrySerializer(allow_null=True)
    withdrawn_after_game = serializers.IntegerField(
        allow_null=True,
        help_text="Set when the player withdrew: the last game they are in (0: before any). "
        "Their games up to it still count; they are in no later game.",
    )
    card = CardRowSerializer(many=True)
    notices = NoticeSerializer(many=True)


# Directors and cross-checkers


class BoardSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    reported = StoredLineSerializer(allow_null=True)
    last_heard = serializers.DateTimeField(
        allow_null=True,
        help_text="When the server last heard from this player's phone (a report, the page or "
        "its poll; up to 30 s behind), null if not heard.",
    )


class BoardTableSerializer(serializers.Serializer):
    """One table of the live board. ``state``: waiting, one reported, disagree (both reported,
    not reciprocal), verified, or flagged (waiting for a cross-check)."""

    number = serializers.IntegerField(source="table.number")
    status = serializers.CharField(source="table.status")
    state = serializers.CharField(help_text=", ".join(BOARD_STATES))
    seats = BoardSeatSerializer(many=True)


class SilenceSerializer(serializers.Serializer):
    """No phone of the game in play has reached the server for ``minutes``
    (``SILENCE_MINUTES`` or more): paper entry is the fallback, from ``paper_table``."""

    minutes = serializers.IntegerField()
    last_heard = serializers.DateTimeField(allow_null=True)
    paper_table = serializers.IntegerField(source="paper_table.number")
    message = serializers.CharField()


class BoardSerializer(serializers.Serializer):
    game = serializers.IntegerField(source="game.number")
    game_status = serializers.CharField(source="game.status")
    last_heard = serializers.DateTimeField(
        allow_null=True, help_text="The newest time any player of the game was heard."
    )
    silence = SilenceSerializer(
        allow_null=True, help_text="Set when sending has stopped: the director's alarm."
    )
    tables = BoardTableSerializer(many=True)


class PaperLineSerializer(StrictInput):
    """A player's line copied from their paper card by a director or cross-checker."""

    position = serializers.ChoiceField(choices=[1, 2])
    result = serializers.ChoiceField(choices=RESULTS)
    margin = serializers.IntegerField(help_text="The spread: the target minus the loser's score.")


class TableSeatSerializer(serializers.Serializer):
    """One seat: ``current`` is the verified line, else the reported one: what a correction
    starts from."""

    position = serializers.IntegerField(source="seat.position")
    entry_id = serializers.IntegerField(source="seat.entry_id")
    name = serializers.CharField(source="seat.entry.entrant_name", help_text="doubles: the team")
    reported = StoredLineSerializer(allow_null=True)
    verified = StoredLineSerializer(allow_null=True)
    current = StoredLineSerializer(allow_null=True)


class TableDetailSerializer(serializers.Serializer):
    """A table's two players with their reported and verified lines, and every line ever
    entered there (replaced ones too), oldest first. ``post_cut``: the cut is made, so a
    correction that changes the bracket needs ``rebuild_bracket``."""

    game = serializers.IntegerField(source="table.game.number")
    number = serializers.IntegerField(source="table.number")
    status = serializers.CharField(source="table.status")
    verified_at = serializers.DateTimeField(source="table.verified_at", allow_null=True)
    post_cut = serializers.BooleanField()
    seats = TableSeatSerializer(many=True)
    history = HistoryLineSerializer(many=True)


class SettledLineSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    game_points = serializers.IntegerField()
    plus = serializers.IntegerField()
    minus = serializers.IntegerField()
    source = serializers.CharField()
    reason = serializers.CharField()


class CrossCheckSerializer(serializers.Serializer):
    """The Rule 12.2 cases applied (letters, in order) and the verified lines they gave."""

    cases = serializers.ListField(child=serializers.CharField())
    lines = SettledLineSerializer(many=True)


class CorrectionLineSerializer(StrictInput):
    position = serializers.ChoiceField(choices=[1, 2])
    game_points = serializers.IntegerField(min_value=0, max_value=1000)
    plus = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    minus = serializers.IntegerField(min_value=0, max_value=1000, default=0)


class CorrectionSerializer(StrictInput):
    """New verified lines for one or both players; the old lines are kept. ``reason`` is
    required by the service (a blank one is refused there, with the rule). A line given for
    one player is checked with the other player's current verified line. After the cut, a
    correction that changes who qualifies, a seed, the byes or the high non-qualifier is
    refused (code ``changes_bracket``) unless ``rebuild_bracket`` is true and no playoff game
    is reported yet (else code ``bracket_locked``)."""

    lines = CorrectionLineSerializer(many=True, min_length=1, max_length=2)
    reason = serializers.CharField(max_length=300, allow_blank=True)
    rebuild_bracket = serializers.BooleanField(default=False)

    def validate_lines(self, lines):
        positions = [line["position"] for line in lines]
        if len(set(positions)) != len(positions):
            raise serializers.ValidationError("Give each position once.", code="unique")
        return lines


class FlaggedTableSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game.number")

    class Meta:
        model = Table
        fields = ["game", "number"]
        read_only_fields = fields


# Standings


class StandingsRowSerializer(serializers.Serializer):
    """One player's place. ``tied``: the rank is shared; ``playoff_needed``: the tie straddles
    the cut; ``qualifies``: certainly above the cut."""

    rank = serializers.IntegerField()
    entry_id = serializers.IntegerField()
    name = serializers.CharField(help_text="the player, or in a doubles event the team")
    team_id = serializers.IntegerField(
        default=None, allow_null=True, help_text="doubles: the team ranked here; else null"
    )
    partners = serializers.CharField(default="", help_text='doubles: "Ann and Bob"; else empty')
    game_points = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_played = serializers.IntegerField()
    net_spread = serializers.IntegerField()
    plus_spread = serializers.IntegerField()
    minus_spread = serializers.IntegerField()
    tied = serializers.BooleanField()
    playoff_needed = serializers.BooleanField()
    qualifies = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    """The latest standings; before any verified result, no rows and ``computed_at`` null."""

    computed_at = serializers.DateTimeField(source="snapshot.computed_at", allow_null=True)
    qualifiers = serializers.IntegerField(source="snapshot.qualifiers", default=0)
    cut_tie = serializers.ListField(
        child=serializers.IntegerField(), source="snapshot.cut_tie", default=list
    )
    high_non_qualifier = serializers.IntegerField(
        source="snapshot.high_non_qualifier_id", allow_null=True, default=None
    )
    rows = StandingsRowSerializer(many=True)


class TiePlayoffSerializer(StrictInput):
    """The winner and loser of a one-game playoff between two players of the event."""

    id = serializers.IntegerField(read_only=True)
    winner = serializers.PrimaryKeyRelatedField(queryset=Entry.objects.none())
    loser = serializers.PrimaryKeyRelatedField(queryset=Entry.objects.none())
    rebuild_bracket = serializers.BooleanField(
        default=False, write_only=True, help_text="after the cut: rebuild if this changes it"
    )
    created_at = serializers.DateTimeField(read_only=True)

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        if event is not None:  # only this event's entries can be named
            for name in ("winner", "loser"):
                self.fields[name].queryset = entries_of_event(event=event)
