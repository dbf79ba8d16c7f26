"""The matrix's own instruments can fail: a snapshot sees a changed row, the database's count
of written rows moves with a write, and an answer is held to the exact outcome."""

from __future__ import annotations

import pytest
from django.http import HttpResponse

from tests.factories import EntryFactory
from tests.permissions.snapshot import differences, rows_written, state
from tests.permissions.spec import DENIED, FLASH_ERROR, OK
from tests.permissions.test_matrix import WrongStatus, check_outcome
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_a_snapshot_names_the_table_a_write_changed():
    entry = EntryFactory()
    before = state()
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.WITHDRAWN)
    assert differences(before, state()) == ["Entry (-1 +1 rows)"]


def test_the_count_of_written_rows_moves_with_a_write():
    entry = EntryFactory()
    written = rows_written()
    assert written is not None, "this database cannot count written rows: every refusal reads"
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.WITHDRAWN)
    assert rows_written() == written + 1


def test_an_answer_is_held_to_the_exact_outcome(rf):
    forbidden = HttpResponse(status=403)
    check_outcome(forbidden, DENIED, 200)
    with pytest.raises(WrongStatus):
        check_outcome(forbidden, OK, 200)
    redirect = HttpResponse(status=302, headers={"Location": "/events/1/manage/"})
    redirect.wsgi_request = rf.post("/")
    with pytest.raises(WrongStatus):  # no error message: not a refusal
        check_outcome(redirect, FLASH_ERROR, 302)
