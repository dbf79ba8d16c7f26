"""Reading account links: what the player's page offers a signed-in visitor, a person's own
requests, and what waits for an administrator (see ``services.account_links``)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import AccountLink, Entry, Player


def mask_address(address: str) -> str:
    """An e-mail address with most of it hidden: "jane@example.org" -> "j•••@e•••.org", enough
    for its owner to recognise it and for nobody else to learn it."""
    local, _, domain = address.partition("@")
    host, dot, top = domain.rpartition(".")
    if not host:
        host, dot, top = domain, "", ""
    return f"{local[:1]}•••@{host[:1]}•••{dot}{top}"


@dataclass(frozen=True)
class LinkOffer:
    """What the player's page says about linking: ``ask`` (a button; ``by_code`` when a code
    can go to the record's address), ``waiting`` (a request of this account waits), or
    ``yours`` (this account is the player's)."""

    state: str
    by_code: bool = False
    request: AccountLink | None = None


def account_link_offer(*, entry: Entry, user) -> LinkOffer | None:
    """What to offer ``user`` on ``entry``'s page; None when there is nothing to offer (not
    signed in, or either side already linked to someone else)."""
    if not user.is_authenticated:
        return None
    player = entry.player
    if player.user_id == user.pk:
        return LinkOffer("yours")
    if player.user_id is not None or Player.objects.filter(user=user).exists():
        return None
    waiting = (
        AccountLink.objects.filter(player=player, user=user, status=AccountLink.Status.PENDING)
        .order_by("-created_at")
        .first()
    )
    if waiting is not None:
        return LinkOffer("waiting", by_code=waiting.method == AccountLink.Method.EMAIL_CODE,
                         request=waiting)  # fmt: skip
    return LinkOffer("ask", by_code=bool(player.email))


def account_links_of_user(*, user):
    """A person's own requests and links, newest first."""
    return AccountLink.objects.filter(user=user).select_related("player", "decided_by")


def account_links_waiting():
    """Requests waiting for an administrator (no address on the record), oldest first."""
    return (
        AccountLink.objects.filter(
            status=AccountLink.Status.PENDING, method=AccountLink.Method.ADMINISTRATOR
        )
        .select_related("player", "user")
        .order_by("created_at", "id")
    )


def account_links_history(*, player_id: int | None = None):
    """Every link decided or ended (newest first), or one player's."""
    links = AccountLink.objects.exclude(status=AccountLink.Status.PENDING).select_related(
        "player", "user", "decided_by", "ended_by"
    )
    return links.filter(player_id=player_id) if player_id else links


def entries_of_user(*, user):
    """Every entry of the player whose confirmed account this is, newest event first
    (``services.account_links``: holding a link never adds to this)."""
    if not user.is_authenticated:
        return Entry.objects.none()
    return (
        Entry.objects.filter(player__user=user)
        .select_related("event", "player")
        .order_by("-event__starts_on", "-event_id")
    )


def player_of_user(*, user) -> Player | None:
    """The player whose confirmed account this is, or None."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()
