"""``export_event`` and ``import_event`` from the command line, end to end."""

import io
import json

import pytest
from django.core.management import CommandError, call_command

from tests.factories import UserFactory
from tests.tournaments.backup.conftest import comparable, delete_event
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


def _export(*args) -> str:
    out = io.StringIO()
    call_command("export_event", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_export_to_a_file_then_import_prints_the_new_id(event_in_play, tmp_path):
    event = event_in_play(6, qualifying_games=3)
    links = set(Entry.objects.filter(event=event).values_list("report_token", flat=True))
    path = tmp_path / "event.json"
    assert _export(str(event.pk), "--tokens", "--output", str(path)) == ""
    doc = json.loads(path.read_text())
    assert doc["format"] == "pegboard-event" and doc["include_tokens"] is True
    delete_event(event, doc)
    UserFactory(username="restorer")
    out = io.StringIO()
    call_command("import_event", str(path), "--user", "restorer", stdout=out)
    restored = Event.objects.get(pk=int(out.getvalue()))
    assert set(Entry.objects.filter(event=restored).values_list("report_token", flat=True)) == links
    again = json.loads(_export(str(restored.pk), "--tokens"))
    assert comparable(again, importer="restorer") == comparable(doc)


def test_export_to_stdout_leaves_the_links_out_unless_asked(event_in_play):
    event = event_in_play(4, qualifying_games=3)
    doc = json.loads(_export(str(event.pk)))
    assert doc["include_tokens"] is False and "report_token" not in doc["entries"][0]


def test_commands_explain_what_is_wrong(event_in_play, tmp_path):
    event = event_in_play(4, qualifying_games=3)
    with pytest.raises(CommandError, match="No event with id 999999"):
        _export("999999")
    path = tmp_path / "event.json"
    _export(str(event.pk), "--output", str(path))
    with pytest.raises(CommandError, match="No user named 'nobody'"):
        call_command("import_event", str(path), "--user", "nobody")
    with pytest.raises(CommandError, match="already here"):
        call_command("import_event", str(path), "--user", event.director.username)
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("import_event", str(tmp_path / "bad.json"), "--user", event.director.username)
