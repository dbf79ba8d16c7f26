"""Serializers for teams of two (doubles events): a team with its partners, and a team to
enter. The rules (who may be entered, the default name) are ``services.teams``."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.api.serializers import StrictInput
from tournaments.selectors.entrants import team_members


class MemberSerializer(serializers.Serializer):
    """One partner: their own entry (private link, check-in) and player record."""

    entry_id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    acc_number = serializers.CharField()
    status = serializers.CharField(help_text="the partner's own entry: registered, checked_in…")


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    drawn = serializers.BooleanField(help_text="made by the blind draw of partners")
    members = serializers.SerializerMethodField()

    def get_members(self, team) -> list[dict]:
        return MemberSerializer(team_members(team), many=True).data


class PartnerSerializer(StrictInput):
    """One partner to enter, as one player is entered (``POST .../entries/``)."""

    name = serializers.CharField()
    acc_number = serializers.CharField(max_length=20, required=False, allow_blank=True)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    new_club = serializers.BooleanField(default=False)
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    phone = serializers.CharField(max_length=40, required=False, allow_blank=True)
    player_id = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    new_player = serializers.BooleanField(default=False)


class TeamRegisterSerializer(StrictInput):
    """Two players and, optionally, the team's name (else "Ann & Bob")."""

    players = PartnerSerializer(many=True)
    name = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    check_in = serializers.BooleanField(default=False)


class PartnersDrawSerializer(StrictInput):
    """The blind draw: empty for a new random draw; ``seed`` repeats a draw (the same players
    and seed give the same teams)."""

    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**62 - 1)


class WaitingSerializer(serializers.Serializer):
    entry_id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class PartnersDrawResultSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    teams = TeamSerializer(many=True)
    waiting = WaitingSerializer(allow_null=True, help_text="the odd player, waiting for a partner")
    message = serializers.CharField()
