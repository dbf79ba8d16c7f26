"""The entrant seam, for reads that name many entries at once.

An *entrant* is what an entry plays as: one player today, a team of two when doubles come.
``Entry.name`` and ``Entry.players`` name one entry; ``entry_names`` names a whole field in
one query (the standings, the cut, the ACC package), from the query path ``ENTRANT_NAME``.
Pages, sheets, exports and e-mails name entries through these and nothing else.
"""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import ENTRANT_NAME, Entry


def entry_names(*, entries: QuerySet[Entry]) -> dict[int, str]:
    """Each entry's name by id, as ``Entry.name`` gives it."""
    return dict(entries.order_by().values_list("pk", ENTRANT_NAME))
