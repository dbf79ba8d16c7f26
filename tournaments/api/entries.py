"""API: entries. The director registers players (one by one, as walk-ins, or from a CSV file),
checks them in, withdraws them and undoes a withdrawal, and replaces a private link (and undoes
that for ten minutes while the new link is unused). Every endpoint is for the event's
directors only.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.parsers import JSONParser
from tournaments.api.serializers import no_input
from tournaments.api.serializers_events import (
    EntriesImportSerializer,
    EntryRegisterSerializer,
    EntrySerializer,
)
from tournaments.models import Entry
from tournaments.selectors.access import entry_get_for_director, event_get_for_director
from tournaments.selectors.events import entries_of_event, entries_of_event_qs
from tournaments.services.check_in import entry_check_in, entry_check_in_undo
from tournaments.services.entries import Registration, entry_register
from tournaments.services.entries_import import entries_import_csv
from tournaments.services.links import entry_token_restore, entry_token_revoke
from tournaments.services.withdrawals import entry_rejoin, entry_withdraw


class EntryListView(GenericAPIView):
    """The event's entries in name order; POST enters one player."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = EntrySerializer
    queryset = Entry.objects.none()  # names the model for the schema; rows come from selectors

    @extend_schema(responses=EntrySerializer(many=True))
    def get(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        page = self.paginate_queryset(entries_of_event(event=event))
        return self.get_paginated_response(EntrySerializer(page, many=True).data)

    @extend_schema(
        request=EntryRegisterSerializer,
        responses={201: EntrySerializer, 200: EntrySerializer},
        description="201 for a new entry; 200 when the player had withdrawn and their entry "
        "is restored (with their games so far).",
    )
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        form = EntryRegisterSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = dict(form.validated_data)
        check_in = data.pop("check_in")
        entry = entry_register(
            event=event, registration=Registration(**data), check_in=check_in, user=request.user
        )
        code = status.HTTP_200_OK if entry.restored else status.HTTP_201_CREATED
        return Response(EntrySerializer(entry).data, status=code)


class EntriesImportView(APIView):
    """Enter every new row of a CSV file, or nobody: each bad row is named in the 400 response.

    The file is read as a spreadsheet saves it: comma, semicolon or tab; the usual header
    names ("ACC #", "Player Name", "First Name" + "Last Name"). The response lists the entries
    made (or restored after a withdrawal); rows naming a player already entered in this event
    are skipped and not listed, so an updated list can be sent again."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, FormParser, JSONParser]

    @extend_schema(request=EntriesImportSerializer, responses={201: EntrySerializer(many=True)})
    def post(self, request, event_id: int):
        event = event_get_for_director(event_id=event_id, user=request.user)
        form = EntriesImportSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        result = entries_import_csv(
            event=event,
            text=form.validated_data["text"],
            check_in=form.validated_data["check_in"],
            user=request.user,
            matches=form.validated_data.get("matches"),
            clubs=form.validated_data.get("clubs"),
        )
        imported = entries_of_event_qs().filter(pk__in=[e.pk for e in result.entries])
        return Response(
            EntrySerializer(imported, many=True).data,
            status=status.HTTP_201_CREATED,
        )


class _EntryActionView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    service = None  # called as service(entry=...)

    @extend_schema(request=None, responses=EntrySerializer)
    def post(self, request, entry_id: int):
        entry = entry_get_for_director(entry_id=entry_id, user=request.user)
        no_input(request)
        entry = type(self).service(entry=entry, user=request.user)
        return Response(EntrySerializer(entry).data)


class EntryCheckInView(_EntryActionView):
    """Check a registered player in (after play started, they join from the next game)."""

    service = entry_check_in


class EntryCheckInUndoView(_EntryActionView):
    """Undo a check-in made by mistake: the player is registered again (refused once they are
    paired: withdraw them instead). The history keeps both."""

    service = entry_check_in_undo


class EntryWithdrawView(_EntryActionView):
    """Withdraw a player between games: they play no game that is not paired yet."""

    service = entry_withdraw


class EntryRejoinView(_EntryActionView):
    """Undo a withdrawal: the player rejoins from the next unpaired game, with their history
    (games paired while they were away are listed in ``missed_games``)."""

    service = entry_rejoin


class EntryNewLinkView(_EntryActionView):
    """Replace the player's private link (a lost scorecard): the old one stops at once."""

    service = entry_token_revoke


class EntryLinkUndoView(_EntryActionView):
    """Put the old private link back, within ten minutes and while the new one is unused."""

    service = entry_token_restore
