"""Helpers shared by tests of several folders (import them from here, not from another
folder's conftest)."""

from __future__ import annotations

from tests.factories import UserFactory


def sanction(event):
    """The ACC office sanctions ``event``, as in production (``services.sanctioning``)."""
    from tournaments.services.sanctioning import event_sanction_grant

    event_sanction_grant(event=event, user=UserFactory(is_staff=True))
    event.refresh_from_db()
    return event


def link_account(player, user):
    """``user`` is ``player``'s confirmed account, as an administrator's confirmation leaves it
    (``services.account_links``: ``Player.user`` and its confirmed ``AccountLink``)."""
    from tournaments.models import AccountLink, Player

    Player.objects.filter(pk=player.pk).update(user=user)
    player.user = user
    AccountLink.objects.create(player=player, user=user, status="confirmed", method="administrator")
    return player
