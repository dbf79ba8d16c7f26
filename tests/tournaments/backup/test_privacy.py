"""What a backup never carries: passwords, and private links unless asked for."""

import json

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Entry
from tournaments.services.backup import TOKEN_FIELDS
from tournaments.services.backup_export import event_export

pytestmark = pytest.mark.django_db


def _keys(value):
    """Every key of every object in a JSON document."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def test_private_links_only_when_asked(rich_event):
    event = rich_event()
    links = list(Entry.objects.filter(event=event).values_list("report_token", flat=True))
    previous = Entry.objects.filter(event=event).exclude(previous_report_token="").get()
    without = json.dumps(event_export(event=event))
    assert not any(link in without for link in [*links, previous.previous_report_token])
    assert not set(TOKEN_FIELDS) & set(_keys(json.loads(without)))
    with_links = event_export(event=event, include_tokens=True)
    assert {e["report_token"] for e in with_links["entries"]} == set(links)
    assert previous.previous_report_token in json.dumps(with_links)


def test_no_password_hash_anywhere(rich_event):
    event = rich_event()
    text = json.dumps(event_export(event=event, include_tokens=True))
    hashes = list(get_user_model().objects.values_list("password", flat=True))
    assert len(hashes) >= 4 and all(hashes)
    assert not any(h in text for h in hashes)
    assert not {"password", "last_login", "is_staff", "is_superuser"} & set(_keys(json.loads(text)))
