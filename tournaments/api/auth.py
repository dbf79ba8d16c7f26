"""API: exchange a user name and password for the account's token, and give it back.

A token is good for ``API_TOKEN_HOURS`` after it was issued (``tournaments.services.api_tokens``).
"""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from tournaments.api.parsers import JSONParser
from tournaments.api.serializers import StrictInput
from tournaments.services.api_tokens import (
    api_token_expires_at,
    api_token_issue,
    api_token_revoke,
)


class TokenRequestSerializer(StrictInput, AuthTokenSerializer):
    """A user name and a password, nothing else."""


class TokenView(ObtainAuthToken):
    """POST ``username`` and ``password``; the answer is ``{"token": ..., "expires": ...}``:
    the same token until it expires, then a new one. DELETE (signed in) revokes your token.

    Five wrong passwords for one user name pause it for 15 minutes: the answer is then 429 with
    code ``locked_out``, even for the right password, and that user's token stops working.
    """

    parser_classes = [FormParser, MultiPartParser, JSONParser]
    serializer_class = TokenRequestSerializer

    def get_authenticators(self):
        # Asking for a token takes a password, nothing else: an expired token still in the
        # client's Authorization header must not stand in the way of its replacement.
        if getattr(self.request, "method", None) == "POST":
            return []
        return super().get_authenticators()

    def get_permissions(self):
        if getattr(self.request, "method", None) == "DELETE":
            return [permissions.IsAuthenticated()]
        return super().get_permissions()

    def get_serializer_context(self):
        # The password check sees Django's own request, so django-axes can count the failure
        # and answer 429 (DRF's wrapper would hide the pause from its middleware).
        return {**super().get_serializer_context(), "request": self.request._request}

    @extend_schema(
        request=TokenRequestSerializer,
        responses={
            200: inline_serializer(
                "Token", {"token": serializers.CharField(), "expires": serializers.DateTimeField()}
            ),
            400: OpenApiResponse(description="Wrong user name or password"),
            429: OpenApiResponse(description="Paused after too many wrong passwords"),
        },
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = api_token_issue(user=serializer.validated_data["user"])
        return Response({"token": token.key, "expires": api_token_expires_at(token=token)})

    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(description="Your token is revoked: it no longer works"),
            401: OpenApiResponse(description="Not signed in"),
        },
    )
    def delete(self, request, *args, **kwargs):
        api_token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
