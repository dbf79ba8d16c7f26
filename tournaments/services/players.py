"""One player record per person: merging two records found to be the same person (and undoing
that). Changes to a record are ``record_changes``; accounts are linked by ``account_links``.

- merge (administrators): the entries and MRP awards of one record move to the other; the
  merged record stays, pointing at the one kept, and ``PlayerMerge`` keeps what moved so the
  merge can be undone. Two records entered in the same event, or holding different ACC
  numbers or different accounts, are different people: refused.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import AccountLink, Entry, Event, MrpAward, Player, PlayerMerge
from tournaments.services.record_changes import refresh_ledgers_naming

IDENTITY = ("acc_number", "user_id", "email", "phone", "home_club_id")


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
    awards = list(merge.mrp_awards.values_list("pk", flat=True))
    Entry.objects.filter(pk__in=entries).update(player=keep)
    MrpAward.objects.filter(pk__in=awards).update(player=keep)
    # The merged record's confirmed account goes with its user (below) when the kept one has
    # none; its rows follow, so the history reads true.
    links = list(merge.account_links.values_list("pk", flat=True)) if not keep.user_id else []
    AccountLink.objects.filter(pk__in=links).update(player=keep)
    for name in IDENTITY:  # what the kept record lacks, the merged one gives
        if not getattr(keep, name) and getattr(merge, name):
            setattr(keep, name, getattr(merge, name))
            setattr(merge, name, None if name.endswith("_id") else "")
    merge.merged_into = keep
    merge.save()
    keep.save()
    refresh_ledgers_naming([keep], f"{merge.name} merged into {keep.name}")
    return PlayerMerge.objects.create(
        kept=keep,
        merged=merge,
        moved={"entries": entries, "awards": awards, "account_links": links},
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
    Entry.objects.filter(pk__in=merge.moved.get("entries", [])).update(player=gone)
    MrpAward.objects.filter(pk__in=merge.moved.get("awards", [])).update(player=gone)
    AccountLink.objects.filter(pk__in=merge.moved.get("account_links", [])).update(player=gone)
    for player, before in ((kept, merge.kept_before), (gone, merge.merged_before)):
        for name in IDENTITY:
            setattr(player, name, before[name])
    gone.merged_into = None
    kept.save()  # the kept record gives back what it took first: the ACC number is unique
    gone.save()
    merge.undone_at, merge.undone_by = timezone.now(), user
    merge.save(update_fields=["undone_at", "undone_by"])
    refresh_ledgers_naming([kept, gone], f"the merge of {gone.name} into {kept.name} undone")
    return merge
