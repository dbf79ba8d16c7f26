"""Finding a player's entry from the private link on their scorecard."""

from tournaments.models import Entry, Player


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
