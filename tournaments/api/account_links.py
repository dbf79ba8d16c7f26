"""API: linking a sign-in account to a player record (``services.account_links``).

- ``POST /account-links/`` ``{"token"}``: the holder of a player's current private link asks
  to link their account to that player (201). A code goes to the e-mail address on the
  player's record (``method`` ``email_code``, ``sent_to`` the address partly hidden), or,
  with no address there, the request waits for an administrator (``administrator``).
- ``POST /account-links/<id>/confirm/`` ``{"code"}``: the code from the e-mail links the
  account (``status`` ``confirmed``); five wrong codes cancel the request.
- ``POST /account-links/<id>/cancel/``: the person who asked withdraws the request.
- ``POST /account-links/<id>/approve/``, ``decline/`` ``{"note"}``: administrators.
- ``POST /account-links/<id>/end/`` ``{"note"}``: unlink (the person themselves, or an
  administrator saying why).
- ``GET /account-links/``: your own requests and links (administrators: ``?waiting=true`` for
  the requests waiting for them).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import NoteSerializer, StrictInput, no_input
from tournaments.converters import LINK_MAX_LENGTH, LinkConverter
from tournaments.models import AccountLink
from tournaments.selectors.access import account_link_get_for_user, entry_get_by_token
from tournaments.selectors.account_links import account_links_of_user, account_links_waiting
from tournaments.services.account_links import (
    account_link_approve,
    account_link_cancel,
    account_link_confirm,
    account_link_decline,
    account_link_end,
    account_link_request,
)
from tournaments.throttles import link_in_body


class AccountLinkSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = AccountLink
        fields = [
            "id", "player", "player_name", "username", "status", "method", "sent_to",
            "code_sent_at", "expires_at", "created_at", "decided_at", "ended_at", "note",
        ]  # fmt: skip
        read_only_fields = fields


class AskSerializer(StrictInput):
    token = serializers.RegexField(
        rf"\A{LinkConverter.regex}\Z",
        max_length=LINK_MAX_LENGTH,
        help_text="the player's current private link",
        error_messages={"invalid": "This is not a private link: copy it from the scorecard."},
    )


class CodeSerializer(StrictInput):
    code = serializers.CharField(max_length=20)


class ListQuerySerializer(StrictInput):
    waiting = serializers.BooleanField(required=False, default=False)
    limit = serializers.IntegerField(required=False)
    offset = serializers.IntegerField(required=False)


class AccountLinkListView(GenericAPIView):
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = AccountLinkSerializer
    queryset = AccountLink.objects.none()  # names the model for the schema

    @extend_schema(
        parameters=[OpenApiParameter("waiting", bool, description="administrators only")],
        responses=AccountLinkSerializer(many=True),
    )
    def get(self, request):
        query = ListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        waiting = query.validated_data["waiting"] and request.user.is_staff
        links = account_links_waiting() if waiting else account_links_of_user(user=request.user)
        page = self.paginate_queryset(links)
        return self.get_paginated_response(AccountLinkSerializer(page, many=True).data)

    @extend_schema(request=AskSerializer, responses={201: AccountLinkSerializer})
    def post(self, request):
        body = AskSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        entry = link_in_body(
            request, body.validated_data["token"], lambda token: entry_get_by_token(token=token)
        )
        link = account_link_request(entry=entry, user=request.user)
        return Response(AccountLinkSerializer(link).data, status=status.HTTP_201_CREATED)


class _LinkAction(APIView):
    """Fetch the request (the asker's own, or any for an administrator), read the body if the
    action takes one, call the action, answer with the request as it now is."""

    permission_classes = [permissions.IsAuthenticated]
    body = None
    act = None  # staticmethod(request, link, data) -> AccountLink

    def post(self, request, link_id: int):
        link = account_link_get_for_user(link_id=link_id, user=request.user)
        data = {}
        if self.body is not None:
            form = self.body(data=request.data)
            form.is_valid(raise_exception=True)
            data = form.validated_data
        else:
            no_input(request)
        done = type(self).act(request, link, data)
        return Response(AccountLinkSerializer(done).data)


def _view(name: str, doc: str, act, body=None):
    @extend_schema(request=body, responses=AccountLinkSerializer)
    def post(self, request, link_id: int):
        return _LinkAction.post(self, request, link_id)

    return type(
        name,
        (_LinkAction,),
        {
            "__doc__": doc,
            "body": body,
            "act": staticmethod(act),
            "post": post,
        },
    )


AccountLinkConfirmView = _view(
    "AccountLinkConfirmView",
    "The code from the e-mail links the account; five wrong codes cancel the request.",
    lambda request, link, data: account_link_confirm(
        link=link, user=request.user, code=data["code"]
    ),
    CodeSerializer,
)
AccountLinkCancelView = _view(
    "AccountLinkCancelView",
    "The person who asked withdraws their waiting request.",
    lambda request, link, data: account_link_cancel(link=link, user=request.user),
)
AccountLinkApproveView = _view(
    "AccountLinkApproveView",
    "An administrator confirms a waiting request, knowing the person.",
    lambda request, link, data: account_link_approve(link=link, user=request.user),
)
AccountLinkDeclineView = _view(
    "AccountLinkDeclineView",
    "An administrator declines a waiting request; ``note`` says why (the person sees it).",
    lambda request, link, data: account_link_decline(
        link=link, user=request.user, note=data["note"]
    ),
    NoteSerializer,
)
AccountLinkEndView = _view(
    "AccountLinkEndView",
    "Unlink: the person themselves, or an administrator with ``note`` saying why.",
    lambda request, link, data: account_link_end(link=link, user=request.user, note=data["note"]),
    NoteSerializer,
)
