"""People with accounts: how they are named on the pages, and finding one by what a director
types.

- name: what pages show for an account: the linked player's name, else the account's first and
  last name, else the user name. Judges and directors are people, not logins.
- finding: a director types a user name or a name; a user name matches exactly (any case), a
  name matches the account's full name or its linked player's name exactly (any case).
  Near misses are offered as suggestions, never chosen silently.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q, QuerySet, Value
from django.db.models.functions import Concat, Lower

SUGGESTIONS = 5


def person_name(user) -> str:
    """The name pages show for ``user`` (see the module's terms)."""
    if user is None:
        return ""
    try:
        player = user.player
    except ObjectDoesNotExist:  # no player record linked to this account
        player = None
    if player is not None and player.name:
        return player.name
    return user.get_full_name() or user.get_username()


def users_with_names() -> QuerySet:
    """Accounts with what ``person_name`` reads, in one query."""
    return get_user_model().objects.select_related("player")


def _full_name_annotated(queryset: QuerySet) -> QuerySet:
    return queryset.annotate(
        full_name_lower=Lower(Concat("first_name", Value(" "), "last_name")),
    )


def users_find(*, query: str) -> list:
    """Accounts matching ``query`` exactly: by user name, else by name (see the module)."""
    text = " ".join(query.split())
    if not text:
        return []
    users = users_with_names()
    by_username = list(users.filter(username__iexact=text))
    if by_username:
        return by_username
    lowered = text.casefold()
    return list(
        _full_name_annotated(users)
        .filter(Q(full_name_lower=lowered) | Q(player__name__iexact=text))
        .order_by("username")
    )


def users_suggest(*, query: str) -> list:
    """Accounts whose user name or name contains ``query``: suggestions after a miss."""
    text = " ".join(query.split())
    if len(text) < 2:
        return []
    return list(
        users_with_names()
        .filter(
            Q(username__icontains=text)
            | Q(first_name__icontains=text)
            | Q(last_name__icontains=text)
            | Q(player__name__icontains=text)
        )
        .order_by("username")[:SUGGESTIONS]
    )
