"""One player record per person: merging two records found to be the same person (and undoing
that). Changes to a record are ``record_changes``; accounts are linked by ``account_links``.

- merge (administrators): everything that names the merged record moves to the kept one
  (``MOVES`` lists every relation to a player and what a merge does with it; a test checks
  none is missing): its entries, and with them what hangs on an entry (MRP awards, night
  cards: moved by entry, so rows rebuilt by a job in between follow too), its club awards (by
  the events of its entries), its account links and record changes. Ratings are worked out
  again from the games by a job. The merged record stays, pointing at the one kept, and
  ``PlayerMerge`` keeps what moved so the merge can be undone. Two records entered in the same
  event, or holding different ACC numbers or different accounts, are different people:
  refused; so are two records each waiting on a change of the same field (decide one first).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import (
    AccountLink,
    ClubAward,
    Entry,
    Event,
    MrpAward,
    NightCard,
    Player,
    PlayerMerge,
    RecordChange,
)
from tournaments.services.ratings import ratings_recompute_request
from tournaments.services.record_changes import refresh_ledgers_naming

IDENTITY = ("acc_number", "user_id", "email", "phone", "home_club_id")

# Every relation that names a player (by its related name), and what a merge does with it.
MOVES = {
    "entries": "moved",
    "mrp_awards": "moved with their entry",
    "night_cards": "moved with their entry",
    "club_awards": "moved with the events of the entries",
    "account_links": "moved when the kept record has no account",
    "record_changes": "moved",
    "rating": "worked out again by a job",
    "rating_points": "worked out again by a job",
    "merges_kept": "kept: the history of merges",
    "merges_gone": "kept: the history of merges",
    "merged_records": "kept: records merged into this one earlier stay merged into it",
}


def _identity(player: Player) -> dict:
    return {name: getattr(player, name) for name in IDENTITY}


@transaction.atomic
def player_merge(*, keep: Player, merge: Player, user) -> PlayerMerge:
    """``merge`` is the same person as ``keep``: their history moves to ``keep``."""
    if not (user.is_authenticated and user.is_staff):
        raise ServiceError("Only an administrator may merge players.", code="not_staff")
    keep, merge = (Player.objects.select_for_update().get(pk=p.pk) for p in (keep, merge))
    _check_mergeable(keep, merge)
    kept_before, merged_before = _identity(keep), _identity(merge)
    entries = list(merge.entries.values_list("pk", flat=True))
    # The merged record's confirmed account goes with its user (below) when the kept one has
    # none; its rows follow, so the history reads true.
    links = list(merge.account_links.values_list("pk", flat=True)) if not keep.user_id else []
    moved = {
        "entries": entries,
        "awards": list(MrpAward.objects.filter(entry__in=entries).values_list("pk", flat=True)),
        "account_links": links,
        "record_changes": list(merge.record_changes.values_list("pk", flat=True)),
    }
    _move(moved, to=keep, whose=merge)
    for name in IDENTITY:  # what the kept record lacks, the merged one gives
        if not getattr(keep, name) and getattr(merge, name):
            setattr(keep, name, getattr(merge, name))
            setattr(merge, name, None if name.endswith("_id") else "")
    merge.merged_into = keep
    merge.save()
    keep.save()
    refresh_ledgers_naming([keep], f"{merge.name} merged into {keep.name}")
    ratings_recompute_request(user=user)
    return PlayerMerge.objects.create(
        kept=keep,
        merged=merge,
        moved=moved,
        kept_before=kept_before,
        merged_before=merged_before,
        created_by=user,
    )


def _check_mergeable(keep: Player, merge: Player) -> None:
    if keep.pk == merge.pk:
        raise ServiceError("Choose two different players.", code="same_player")
    if keep.merged_into_id or merge.merged_into_id:
        raise ServiceError("One of these records is already merged.", code="already_merged")
    for name, label in (("acc_number", "ACC numbers"), ("user_id", "accounts")):
        a, b = getattr(keep, name), getattr(merge, name)
        if a and b and a != b:
            raise ServiceError(
                f"They hold different {label}: they are different people.", code="different"
            )
    waiting = RecordChange.objects.filter(status=RecordChange.Status.PENDING)
    both = set(waiting.filter(player=keep).values_list("field", flat=True)) & set(
        waiting.filter(player=merge).values_list("field", flat=True)
    )
    if both:
        raise ServiceError(
            f"Both records wait on a change of their {' and '.join(sorted(both))}: approve or "
            f"decline the one at /players/{merge.pk}/record/ first, then merge.",
            code="changes_waiting",
        )
    shared = Event.objects.filter(entries__player=keep).filter(entries__player=merge).first()
    if shared is not None:
        raise ServiceError(
            f"Both played in {shared.name}: they are different people.", code="different"
        )


@transaction.atomic
def player_merge_undo(*, merge: PlayerMerge, user) -> PlayerMerge:
    """Put both records back as they were; history that moved goes back with them."""
    if not (user.is_authenticated and user.is_staff):
        raise ServiceError("Only an administrator may undo a merge.", code="not_staff")
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    if merge.undone_at is not None:
        raise ServiceError("This merge was already undone.", code="already_undone")
    kept = Player.objects.select_for_update().get(pk=merge.kept_id)
    gone = Player.objects.select_for_update().get(pk=merge.merged_id)
    _move(merge.moved, to=gone, whose=kept)
    for player, before in ((kept, merge.kept_before), (gone, merge.merged_before)):
        for name in IDENTITY:
            setattr(player, name, before[name])
    gone.merged_into = None
    kept.save()  # the kept record gives back what it took first: the ACC number is unique
    gone.save()
    merge.undone_at, merge.undone_by = timezone.now(), user
    merge.save(update_fields=["undone_at", "undone_by"])
    refresh_ledgers_naming([kept, gone], f"the merge of {gone.name} into {kept.name} undone")
    ratings_recompute_request(user=user)
    return merge


def _move(moved: dict, *, to: Player, whose: Player) -> None:
    """The rows of one merge go ``to`` a record from ``whose``: by id, and by entry for what a
    job may have rebuilt since (MRP awards, night cards), by event for club awards."""
    entries = moved.get("entries", [])
    Entry.objects.filter(pk__in=entries).update(player=to)
    MrpAward.objects.filter(Q(pk__in=moved.get("awards", [])) | Q(entry__in=entries)).update(
        player=to
    )
    NightCard.objects.filter(entry__in=entries).update(player=to)
    events = Entry.objects.filter(pk__in=entries).values("event_id")
    ClubAward.objects.filter(player=whose, event__in=events).update(player=to)
    AccountLink.objects.filter(pk__in=moved.get("account_links", [])).update(player=to)
    RecordChange.objects.filter(pk__in=moved.get("record_changes", [])).update(player=to)
