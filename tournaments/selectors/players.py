"""Finding a player's entry from the private link on their scorecard."""

from tournaments.models import Entry, Player


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
