"""Finding a player's entry from the private link on their scorecard."""

from django.http import Http404
from django.utils import timezone

from tournaments.models import Entry, Player


def entry_get_by_token(*, token: str) -> Entry:
    """The entry whose private link this is; a revoked or mistyped link is a 404.

    The first use of a link that replaced another is noted (one update, only then): from that
    moment the director can no longer undo the new link (``services.links``)."""
    entry = (
        Entry.objects.select_related("player", "event").filter(report_token=token).first()
        if token
        else None
    )
    if entry is None:
        raise Http404("This link is not valid. Ask the director for your scorecard link.")
    if entry.previous_report_token and entry.token_used_at is None:
        entry.token_used_at = timezone.now()
        Entry.objects.filter(pk=entry.pk, token_used_at__isnull=True).update(
            token_used_at=entry.token_used_at
        )
    return entry


def entries_of_user(*, user):
    """Every entry of the player linked to a signed-in account, newest event first."""
    if not user.is_authenticated:
        return Entry.objects.none()
    return (
        Entry.objects.filter(player__user=user)
        .select_related("event", "player")
        .order_by("-event__starts_on", "-event_id")
    )


def player_can_link(*, entry, user) -> bool:
    """Whether ``user`` may link their account to the entry's player: neither is linked yet."""
    return (
        user.is_authenticated
        and entry.player.user_id is None
        and not Player.objects.filter(user=user).exists()
    )
