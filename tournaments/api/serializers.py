"""Serializers shared across the API's resources."""

from rest_framework import serializers

from tournaments.models import Job


class JobSerializer(serializers.ModelSerializer):
    class Meta:
        model = Job
        fields = [
            "id",
            "kind",
            "key",
            "status",
            "progress",
            "message",
            "error",
            "result",
            "worker",
            "attempts",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields
