"""API: exchange a user name and password for the account's token."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.parsers import FormParser, MultiPartParser

from tournaments.api.parsers import JSONParser


class TokenView(ObtainAuthToken):
    """POST ``username`` and ``password``; the answer is ``{"token": ...}``.

    Five wrong passwords for one user name pause it for 15 minutes: the answer is then 429 with
    code ``locked_out``, even for the right password.
    """

    parser_classes = [FormParser, MultiPartParser, JSONParser]

    def get_serializer_context(self):
        # The password check sees Django's own request, so django-axes can count the failure
        # and answer 429 (DRF's wrapper would hide the pause from its middleware).
        return {**super().get_serializer_context(), "request": self.request._request}

    @extend_schema(
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            400: OpenApiResponse(description="Wrong user name or password"),
            429: OpenApiResponse(description="Paused after too many wrong passwords"),
        },
    )
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)
