"""Names without control characters and e-mail addresses that are one address, wherever they
come in: a form, the API, a CSV file."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import Club, Entry, Event
from tournaments.services.clubs import club_create
from tournaments.services.entries import Registration, entry_register
from tournaments.services.entries_import import entries_import_csv
from tournaments.services.events import event_create
from tournaments.services.validation import clean_email, clean_name

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name", ["Ann\r\nBcc: x@example.org", "Ann\x00", "Ann\tAble", "Ann\u2028Able", "Ann\x1b[31m"]
)
def test_a_name_with_a_control_character_is_refused(name):
    with pytest.raises(ServiceError, match="line break or another control character"):
        clean_name(name)


@pytest.mark.parametrize(
    "address", ["a@b.org, c@d.org", "a@b.org\nBcc: c@d.org", "plain", "a@", "@b.org", "a b@c.org"]
)
def test_only_one_real_address_is_an_address(address):
    with pytest.raises(ServiceError) as refused:
        clean_email(address)
    assert refused.value.field == "email"


def test_names_and_addresses_that_are_fine():
    assert clean_name("  Mary-Lou O'Brien  ") == "Mary-Lou O'Brien"
    assert clean_name("Zoë Bélanger") == "Zoë Bélanger"
    assert clean_email(" ann@example.org ") == "ann@example.org" and clean_email("") == ""


def test_every_way_in_refuses_them():
    director = UserFactory()
    event = EventFactory(director=director)
    bad = Registration(name="Ann\r\nAble")
    with pytest.raises(ServiceError):
        entry_register(event=event, registration=bad, user=director)
    with pytest.raises(ServiceError) as rows:
        entries_import_csv(event=event, text='name,email\nAnn,"a@b.org, c@d.org"\n', user=director)
    assert "email" in rows.value.message
    with pytest.raises(ServiceError):
        event_create(user=director, name="Main\r\nX", preset="acc-main")
    with pytest.raises(ServiceError):
        club_create(name="Pegs\nInc", user=director)
    api = client_for(director)
    answer = api.post(f"/api/v1/events/{event.pk}/entries/", {"name": "Bo\nB"})
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "name"
    assert not Entry.objects.exists() and not Club.objects.exists()
    assert Event.objects.count() == 1
