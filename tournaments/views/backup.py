"""The director's download of an event's backup (``?tokens=1`` adds the private links)."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse

from tournaments.selectors.access import event_get_for_director
from tournaments.services.backup_export import event_backup_download


@login_required
def event_backup(request, event_id: int):
    event = event_get_for_director(event_id=event_id, user=request.user)
    tokens = request.GET.get("tokens") == "1"
    document = event_backup_download(event=event, user=request.user, include_tokens=tokens)
    response = HttpResponse(
        json.dumps(document, indent=1, cls=DjangoJSONEncoder),
        content_type="application/json",
    )
    suffix = "-with-links" if tokens else ""
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-backup{suffix}.json"'
    response["Cache-Control"] = "no-store"
    return response
