"""The answer to a player's report saved by link (``POST /api/v1/report/<token>/``, 201).

Small on purpose: the report is the burst's hot path, so its answer is built from what the
report's transaction holds (``selectors.report.report_saved``) and sent as it is; this serializer
describes it for the OpenAPI schema only. The rest of the page (the card so far, notices, the
playoffs) is ``GET /api/v1/report/<token>/``.
"""

from __future__ import annotations

from rest_framework import serializers

from tournaments.api.serializers_results import OPPONENT_STATUSES, PLAYER_STATES


class SavedLineSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="reported: the line as the player reported it")
    game_points = serializers.IntegerField()
    plus = serializers.IntegerField()
    minus = serializers.IntegerField()


class ReportSavedSerializer(serializers.Serializer):
    """The line saved and the table's state as the page would show it now."""

    game = serializers.IntegerField(help_text="The game's number.")
    table = serializers.IntegerField(help_text="The table's number.")
    line = SavedLineSerializer(help_text="The line saved on the player's card.")
    opponent = serializers.CharField(help_text="The opponent's name.")
    opponent_status = serializers.ChoiceField(choices=OPPONENT_STATUSES)
    state = serializers.ChoiceField(choices=PLAYER_STATES, help_text="As the page's game state.")
    words = serializers.CharField(help_text="The state in plain words, as the page shows it.")
    verified = serializers.BooleanField(help_text="Both cards agree: the game is verified.")
