"""Finding the player record a name or an ACC number belongs to.

- likely match: a player whose name reads the same once case, spaces and punctuation are put
  aside ("Mary-Lou  Smith" and "mary lou smith"), or nearly the same (a similarity of at least
  ``SIMILAR``, so "Jon Smith" offers "John Smith"). Likely matches are offered to the director
  to confirm; nobody is ever merged silently.
- a merged record (``merged_into`` set) is never offered: the record it was merged into is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from django.db.models import Count, Q

from tournaments.models import EventRole, Player

SIMILAR = 0.85
MAX_CANDIDATES = 5


def name_key(name: str) -> str:
    """A name with case, spaces and punctuation put aside."""
    return re.sub(r"[^\w]+", " ", name.casefold()).strip()


@dataclass(frozen=True)
class Candidate:
    player: Player
    events: int
    exact: bool

    @property
    def label(self) -> str:
        player = self.player
        parts = [player.name]
        parts.append(f"ACC {player.acc_number}" if player.acc_number else "no ACC number")
        if player.home_club:
            parts.append(player.home_club.name)
        parts.append(f"{self.events} event{'s' if self.events != 1 else ''}")
        return ", ".join(parts)


def player_candidates(*, name: str, exclude_event=None) -> list[Candidate]:
    """Players a newly typed ``name`` may be, most alike first (see the module)."""
    key = name_key(name)
    words = key.split()
    if not words:
        return []
    surname = words[-1]
    players = (
        Player.objects.filter(merged_into__isnull=True)
        .filter(Q(name__icontains=surname) | Q(name__iexact=name.strip()))
        .select_related("home_club")
        .annotate(events=Count("entries", distinct=True))
    )
    if exclude_event is not None:  # already entered there: not a candidate for a new entry
        players = players.exclude(entries__event=exclude_event)
    found = []
    for player in players[:200]:
        other = name_key(player.name)
        ratio = 1.0 if other == key else SequenceMatcher(None, key, other).ratio()
        if ratio >= SIMILAR:
            found.append((ratio, Candidate(player, player.events, other == key)))
    found.sort(key=lambda item: (-item[0], item[1].player.name, item[1].player.pk))
    return [candidate for _, candidate in found[:MAX_CANDIDATES]]


def player_record_decider(*, player: Player, user) -> bool:
    """Who decides changes to a player's record: an administrator, or the player themselves
    (their confirmed account)."""
    return user.is_authenticated and (user.is_staff or player.user_id == user.pk)


def _directed_entries(player: Player, user):
    return player.entries.filter(
        event__roles__user=user, event__roles__role=EventRole.Role.DIRECTOR
    )


def player_may_edit(*, player: Player, user) -> bool:
    """Who may change a player's record, at once or by proposing it: a decider, or a director
    of an event the player entered (``services.record_changes``)."""
    if player_record_decider(player=player, user=user):
        return True
    return user.is_authenticated and _directed_entries(player, user).exists()


def player_edit_direct(*, player: Player, user) -> bool:
    """Whether ``user``'s change to the record applies at once rather than waiting for approval:
    a decider's, or a director's of every event the record was entered in while no account is
    linked to it (a record nobody else uses)."""
    if player_record_decider(player=player, user=user):
        return True
    if not user.is_authenticated or player.user_id is not None:
        return False
    entries = player.entries.count()
    return entries > 0 and _directed_entries(player, user).distinct().count() == entries
