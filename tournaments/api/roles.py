"""API: the people who run an event. Its directors list the roles, give one to a person found
by user name or name (``{"person", "role"}``), and take one back (DELETE). The last director
cannot be removed. People are named as the pages name them (``name``), with their user name.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import StrictInput
from tournaments.models import EventRole
from tournaments.selectors.access import event_get_for_director, role_grant_get_for_director
from tournaments.selectors.events import event_role_holders
from tournaments.services.roles import event_role_grant, event_role_revoke


class RoleHolderSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=EventRole.Role.choices)


class RoleGrantSerializer(StrictInput):
    person = serializers.CharField(max_length=200, help_text="a user name, or a person's name")
    role = serializers.ChoiceField(choices=EventRole.Role.choices)


class RoleListView(APIView):
    """GET every role holder of the event; POST gives a role (201; 200 if already held)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=RoleHolderSerializer(many=True))
    def get(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        return Response(RoleHolderSerializer(event_role_holders(event=event), many=True).data)

    @extend_schema(
        request=RoleGrantSerializer,
        responses={201: RoleHolderSerializer, 200: RoleHolderSerializer},
    )
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        body = RoleGrantSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        held = set(EventRole.objects.filter(event=event).values_list("pk", flat=True))
        grant = event_role_grant(event=event, actor=request.user, **body.validated_data)
        holder = next(h for h in event_role_holders(event=event) if h.id == grant.pk)
        code = status.HTTP_200_OK if grant.pk in held else status.HTTP_201_CREATED
        return Response(RoleHolderSerializer(holder).data, status=code)


class RoleDetailView(APIView):
    """DELETE takes the role back (204); refused for the event's last director."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, event_id: int, grant_id: int):
        grant = role_grant_get_for_director(event_id=event_id, grant_id=grant_id, user=request.user)
        event_role_revoke(event=grant.event, actor=request.user, grant_id=grant.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
