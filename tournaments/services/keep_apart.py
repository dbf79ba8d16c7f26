"""Pairs of entrants kept apart in the qualifying round (``core.keep_apart`` honours them in the
pairing when the field allows it): made by a director, or from a player's wish at registration.

- wish: a registration request's ``keep_apart_name`` (and ``keep_apart_acc``), in an event
  the player is entered in (their ``RegistrationChoice``). It is open until a pair is made
  from it in that event (``keep_apart_made_at``).
- settle: every open wish of an event that names exactly one entrant (``core.keep_apart.
  wish_match``: the holder of the ACC number given, or the one entrant of that name) becomes
  a pair, recorded in the history with the wish it came from. It runs whenever someone is
  entered: the player who asked, or later the person they named (approval of a request, an
  offered place taken, an entry at the door, a team, a file of entries, a withdrawal
  undone). A director expects a wish that can mean only one entrant to be honoured without
  another click, and sees the pair in the event's list, with Remove. A wish that may mean
  two entrants of one name (or gives an ACC number nobody entered holds) is not guessed: the
  director chooses the entrant with one click (``keep_apart_add`` with ``wish``).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.core.keep_apart import Entrant, wish_match
from tournaments.core.player_list import name_key
from tournaments.errors import ServiceError
from tournaments.models import ENTRANT_NAME, Entry, Event, KeepApart, RegistrationChoice
from tournaments.services.audit import Kind, audit_record
from tournaments.services.validation import clean_acc_number, clean_name


def keep_apart_wish_clean(
    *, name: str, acc_number: str, keep_apart_name: str, keep_apart_acc: str
) -> dict[str, str]:
    """A registration's wish, checked: a name (required with an ACC number), not the player's
    own (``name`` and ``acc_number``, checked already)."""
    wish_name = (keep_apart_name or "").strip()
    wish = {
        "keep_apart_name": clean_name(wish_name, field="keep_apart_name") if wish_name else "",
        "keep_apart_acc": clean_acc_number(keep_apart_acc or "", field="keep_apart_acc"),
    }
    if wish["keep_apart_acc"] and not wish["keep_apart_name"]:
        raise ServiceError(
            "Write the name of the person to keep apart from too, so the director knows who "
            "it is; or clear their ACC number.",
            field="keep_apart_name",
            code="required",
        )
    if wish["keep_apart_name"] and (
        name_key(wish["keep_apart_name"]) == name_key(name)
        or (acc_number and wish["keep_apart_acc"] == acc_number)
    ):
        raise ServiceError(
            "That is you: write the name of the person you came with, or leave it empty.",
            field="keep_apart_name",
            code="same_player",
        )
    return wish


def _names(pair: KeepApart) -> str:
    return f"{pair.entry_a.name} and {pair.entry_b.name}"


def _wish_locked(event: Event, wish_id: int) -> RegistrationChoice:
    wish = (
        open_wishes(event)
        .select_for_update(of=("self",))
        .filter(pk=wish_id)
        .select_related("request", "entry__player")
        .first()
    )
    if wish is None:
        raise ServiceError(
            "That keep-apart wish is not open in this event (it was settled, or its player is "
            "not entered here). Reload the page to see the open wishes.",
            field="wish",
            code="no_such_wish",
        )
    return wish


@transaction.atomic
def keep_apart_add(
    *, event: Event, user, entry_ids: tuple[int, int], note: str = "", wish: int | None = None
) -> KeepApart:
    """Keep two entrants of ``event`` apart in the games not paired yet; ``wish`` (a choice's
    id) settles that player's registration wish with this pair."""
    first, second = sorted(int(i) for i in entry_ids)
    if first == second:
        raise ServiceError(
            "Choose two different players: someone cannot be kept apart from themselves.",
            field="entry_b",
            code="same_player",
        )
    entries = {
        e.pk: e
        for e in Entry.objects.filter(event=event, pk__in=(first, second)).select_related("player")
    }
    if len(entries) != 2:
        raise ServiceError(
            "Both players must be entered in this event: enter the other player first, or "
            "choose two players from the event's list.",
            field="entry_b",
            code="not_entered",
        )
    found = _wish_locked(event, wish) if wish is not None else None
    if found is not None and found.entry_id not in entries:
        raise ServiceError(
            f"{found.entry.name} asked to be kept apart: choose them as one of the two.",
            field="entry_a",
            code="not_the_wisher",
        )
    return _pair_make(event, user, entries[first], entries[second], note=note, wish=found)


def _pair_make(event, user, first: Entry, second: Entry, *, note: str, wish) -> KeepApart:
    note = (note or "").strip()[:200]
    if wish is not None and not note:
        note = f"{wish.request.name} asked at registration"[:200]
    pair, created = KeepApart.objects.get_or_create(
        event=event,
        entry_a=first,
        entry_b=second,
        defaults={"note": note, "created_by": user},
    )
    pair.created = created
    summary = f"{_names(pair)} are kept apart" + ("" if created else " (already were)")
    after = {"entries": [first.pk, second.pk], "note": pair.note}
    if wish is not None:
        wish.keep_apart, wish.keep_apart_made_at = pair, timezone.now()
        wish.save(update_fields=["keep_apart", "keep_apart_made_at"])
        summary += f": {wish.request.name}'s wish (registration request {wish.request_id})"
        after["request"] = wish.request_id
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PAIRINGS,
        action="keep_apart_add",
        summary=summary,
        after=after,
    )
    return pair


@transaction.atomic
def keep_apart_remove(*, event: Event, user, pair_id: int) -> None:
    pair = (
        KeepApart.objects.filter(event=event, pk=pair_id)
        .select_related("entry_a__player", "entry_b__player")
        .first()
    )
    if pair is None:
        raise ServiceError(
            "Those two are not kept apart here (the pair was removed already). Reload the "
            "event's list of pairs.",
            code="no_such_pair",
        )
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PAIRINGS,
        action="keep_apart_remove",
        summary=f"{_names(pair)} may meet again",
        before={"entries": [pair.entry_a_id, pair.entry_b_id], "note": pair.note},
    )
    pair.delete()


def open_wishes(event: Event):
    """The registration wishes of ``event`` with no pair made yet, their player entered."""
    return (
        RegistrationChoice.objects.filter(
            event=event,
            status=RegistrationChoice.Status.ENTERED,
            entry__isnull=False,
            keep_apart_made_at__isnull=True,
        )
        .exclude(request__keep_apart_name="")
        .exclude(entry__status=Entry.Status.WITHDRAWN)
        .order_by("pk")
    )


def entrants_of(event: Event) -> list[Entrant]:
    """The event's entrants as a wish is matched against them (withdrawn ones aside): a
    wish names one person, so a doubles event's entries are its players, as here."""
    rows = (
        Entry.objects.filter(event=event)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("pk", ENTRANT_NAME, "player__acc_number")
        .order_by("pk")
    )
    return [Entrant(entry=pk, name=name, acc_number=acc) for pk, name, acc in rows]


def keep_apart_wishes_settle(*, event: Event, user) -> list[KeepApart]:
    """Make a pair of each open wish of ``event`` that names exactly one entrant (see the
    module). Runs inside the caller's transaction, which has entered someone."""
    wishes = list(open_wishes(event).select_related("request"))
    if not wishes:
        return []
    entrants = entrants_of(event)
    made = []
    for wish in wishes:
        request = wish.request
        match = wish_match(
            name=request.keep_apart_name,
            acc_number=request.keep_apart_acc,
            entrants=entrants,
            wisher=wish.entry_id,
        )
        if match.sure is None:
            continue
        pair = (wish.entry_id, match.sure)
        made.append(keep_apart_add(event=event, user=user, entry_ids=pair, wish=wish.pk))
    return made
