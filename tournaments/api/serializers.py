"""Serializers shared across the API's resources.

``StrictInput``: a request body naming a field the endpoint does not take is refused (400 with
that field) instead of the field being silently dropped: a client that believes it changed
something must be told it did not.
"""

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


class StrictInput(serializers.Serializer):
    """Mix into an input serializer: fields it does not declare are a 400 naming them."""

    def to_internal_value(self, data):
        if hasattr(data, "keys"):
            known = set(self.fields)
            unknown = sorted(str(key) for key in data if key not in known)
            if unknown:
                raise serializers.ValidationError(
                    {
                        key: serializers.ErrorDetail(
                            "This endpoint does not take this field.", code="unknown_field"
                        )
                        for key in unknown
                    }
                )
        return super().to_internal_value(data)


class NoteSerializer(StrictInput):
    """A decision's words for the person it concerns (some decisions require them: the
    service says so, naming ``note``)."""

    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)
