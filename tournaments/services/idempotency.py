"""Writes that can be repeated safely (``models.idempotency``): a player's report sent with a
key is written once per (link, key), and every later try with that key gets the first answer.

``keyed_write`` runs the write, builds its answer and keeps both in one transaction whose first
statement inserts the (link, key) row: a second try that arrives while the first is running
waits on that row's unique index, then finds it taken and replays the answer the first one
kept. A try that arrives after the table moved on (verified, cross-checked, corrected) is
answered from the kept row too, never written again. Only an answer that was written is kept:
a refused report wrote nothing, so the phone may send it again, fixed, with the same key.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.utils.encoders import JSONEncoder

from tournaments.errors import Conflict, ServiceError
from tournaments.models import Entry, KeptAnswer
from tournaments.services.conflicts import read_again_on_drop, retry_on_conflict

HEADER = "Idempotency-Key"
KEY = re.compile(r"[A-Za-z0-9._:-]{8,100}")


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any
    replayed: bool = False


class _Taken(Exception):
    """The (link, key) row is already there (kept by an earlier or a concurrent try)."""


def idempotency_key_clean(raw: str | None, *, field: str = HEADER) -> str | None:
    """The key as sent, or None when none was sent; refused when it cannot be one."""
    if raw is None or raw == "":
        return None
    if not KEY.fullmatch(raw):
        raise ServiceError(
            f"The {field} must be 8 to 100 letters, digits or . _ : - (a UUID is right); "
            "send the report again with a new key.",
            field=field,
            code="invalid_idempotency_key",
        )
    return raw


def report_print(route: str, *, result: str, margin: int, game: int | None = None) -> str:
    """What a report asked (``route``: "report" for a qualifying game, "match" for a playoff
    game), the same whether it came from the API or the page's form: a key sent first by one
    and again by the other is the same report."""
    body = {"result": result, "margin": margin, "game": game}
    text = json.dumps([route, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def keyed_write(
    *,
    entry: Entry,
    key: str,
    print_: str,
    status: int,
    write: Callable[[], Any],
    answer: Callable[[], Any] | None = None,
) -> Answer:
    """``write()`` then ``answer()`` once for (``entry``, ``key``): the kept answer when the key
    was used before with the same fingerprint, a 409 ``Conflict`` when with another. Without
    ``answer`` (the page, which answers with a redirect) the kept body is None: the API answers
    a replay of it with the state as it is then."""
    try:
        kept = _first_try(entry, key, print_, status, write, answer)
        return Answer(kept.status_code, _as_sent(kept.answer))
    except (_Taken, ServiceError) as exc:
        replay = kept_replay(entry_id=entry.pk, key=key, print_=print_)
        if replay is None:
            if isinstance(exc, _Taken):  # the other try was rolled back meanwhile: try again
                return keyed_write(
                    entry=entry, key=key, print_=print_, status=status, write=write, answer=answer
                )
            raise
        return replay


def kept_replay(*, entry_id: int, key: str, print_: str) -> Answer | None:
    """The answer kept for (link, ``key``) to replay, None when none is kept, a 409
    ``Conflict`` when the key was used for another report (``print_``)."""
    kept = read_again_on_drop(lambda: KeptAnswer.objects.filter(entry_id=entry_id, key=key).first())
    if kept is None:
        return None
    return kept_as_replay(kept, print_=print_)


def kept_as_replay(kept: KeptAnswer, *, print_: str) -> Answer:
    """The kept answer to send again, or a 409 ``Conflict`` when the key was used for another
    report (``print_``)."""
    if kept.fingerprint != print_:
        raise Conflict(
            f"This {HEADER} was already used for another report from this link, and that "
            "first report was kept. To send different figures, send them with a new key "
            "(on the player's page: open the page again and send the form).",
            field=HEADER,
            code="idempotency_conflict",
        )
    return Answer(kept.status_code, _as_sent(kept.answer), replayed=True)


def kept_answer_new(
    *, entry_id: int, key: str, print_: str, status: int, answer: Any
) -> KeptAnswer:
    """(link, ``key``) with its answer, as it will be kept and sent (every replay of it is the
    same bytes), not yet saved: the caller inserts it in its transaction, after or with its
    write (``services.report`` sends it in the statement that inserts the lines). A key kept
    meanwhile by another try is then an ``IntegrityError`` that rolls the write back."""
    return KeptAnswer(
        entry_id=entry_id,
        key=key,
        fingerprint=print_,
        status_code=status,
        answer=_as_sent(answer),
    )


def _as_sent(answer: Any) -> Any:
    # Kept as it is sent (dates as text), its keys in one order: PostgreSQL's jsonb gives a
    # kept object back with its keys in its own order, so the first answer and every replay
    # are the same bytes only when both are sorted.
    return json.loads(json.dumps(answer, cls=JSONEncoder, sort_keys=True))


@retry_on_conflict(saved=lambda kept: KeptAnswer.objects.filter(pk=kept.pk).first())
def _first_try(entry, key, print_, status, write, answer) -> KeptAnswer:
    try:
        with transaction.atomic():
            kept = KeptAnswer.objects.create(
                entry=entry, key=key, fingerprint=print_, status_code=status
            )
    except IntegrityError:
        raise _Taken from None
    write()
    if answer is not None:
        kept.answer = _as_sent(answer())
        KeptAnswer.objects.filter(pk=kept.pk).update(answer=kept.answer)
    return kept


def kept_answers_expire(*, now=None) -> int:
    """Delete the kept answers older than ``IDEMPOTENCY_KEY_HOURS``; how many were."""
    before = (now or timezone.now()) - timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)
    deleted, _ = KeptAnswer.objects.filter(created_at__lt=before).delete()
    return deleted
