"""The director downloads the backup by page and API; each download is in the history, and the
private links come only when asked for."""

import json

import pytest

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def test_the_director_downloads_a_backup_by_page_and_api(client, event_in_play):
    event = event_in_play(10)
    token = event.entries.first().report_token
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/backup.json")
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    assert "attachment" in page["Content-Disposition"]
    document = json.loads(page.content)
    assert document["format"] == "pegboard-event" and len(document["entries"]) == 10
    assert token not in page.content.decode()
    with_links = client.get(f"/events/{event.pk}/backup.json?tokens=1").content.decode()
    assert token in with_links
    api = client_for(event.director).get(f"/api/v1/events/{event.pk}/backup/?tokens=true")
    assert api.status_code == 200 and token in json.dumps(api.json())
    downloads = AuditEntry.objects.filter(event=event, action="event_backup_download")
    assert [row.after["include_tokens"] for row in downloads.order_by("pk")] == [False, True, True]
    assert "Download a backup" in client.get(f"/events/{event.pk}/manage/").content.decode()


def test_nobody_else_gets_the_backup(client, event_in_play):
    event = event_in_play(10)
    assert client.get(f"/events/{event.pk}/backup.json").status_code == 302
    client.force_login(UserFactory())
    assert client.get(f"/events/{event.pk}/backup.json").status_code == 403
    assert client_for(UserFactory()).get(f"/api/v1/events/{event.pk}/backup/").status_code == 403
    assert client_for().get(f"/api/v1/events/{event.pk}/backup/").status_code in (401, 403)
    assert not AuditEntry.objects.filter(action="event_backup_download").exists()
