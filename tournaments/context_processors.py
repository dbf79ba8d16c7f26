"""Template context every page gets."""

from django.utils.functional import SimpleLazyObject

from tournaments.selectors.jobs import broker_reachable


def queue(request) -> dict:
    """``queue_down``: signed-in staff see a banner while jobs cannot be sent (asked lazily, and
    only on pages that show it; the answer is cached for a few seconds per process)."""
    if not request.user.is_authenticated:
        return {}
    return {"queue_down": SimpleLazyObject(lambda: broker_reachable() is False)}
