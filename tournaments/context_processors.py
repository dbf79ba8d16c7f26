"""Template context every page gets."""

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.functional import SimpleLazyObject

from tournaments.selectors.jobs import broker_reachable


def queue(request) -> dict:
    """``queue_down``: signed-in staff see a banner while jobs cannot be sent (asked lazily, and
    only on pages that show it; the answer is cached for a few seconds per process)."""
    if not request.user.is_authenticated:
        return {}
    return {"queue_down": SimpleLazyObject(lambda: broker_reachable() is False)}


# The menu's links (base.html), by the names the URL configuration gives them.
MENU = (
    "home",
    "count-checker",
    "club-list",
    "weekend-list",
    "leaderboard",
    "event-list",
    "my-entries",
    "judge-events",
    "sanctioning-office",
    "account-links-admin",
    "admin:index",
    "logout",
    "login",
    "account_signup",
)
_menus: dict[tuple, dict[str, str]] = {}


# The static files every page names (base.html): ``assets.css`` is the address of
# css/pegboard.css. Each ``{% static %}`` tag went through the template engine and the app
# registry (``apps.is_installed``) at every page, 2% of a player's page opening (py-spy).
ASSETS = {"css": "css/pegboard.css", "icon": "favicon.svg", "menu_js": "js/menu.js"}


def menu(request) -> dict:
    """``menu``: the addresses of the menu every page carries, worked out once per process
    (for each URL configuration, which each request sets, and prefix) instead of 7 to 13
    ``reverse()`` calls a page: py-spy put them at 7% of a player's page opening, the
    heaviest moment of a round. ``assets``: the static files' addresses, from the storage
    (which keeps each once worked out: config/static_storage.py)."""
    # A request's URL configuration is the settings' unless it sets its own (as the request
    # handler does); the warm-up, outside a request, then fills the same key.
    here = (get_urlconf() or settings.ROOT_URLCONF, get_script_prefix())
    links = _menus.get(here)
    if links is None:
        links = _menus[here] = {_key(name): reverse(name) for name in MENU}
    url = staticfiles_storage.url
    return {"menu": links, "assets": {key: url(name) for key, name in ASSETS.items()}}


def _key(name: str) -> str:
    """A name as a template can look it up: ``admin:index`` is ``menu.admin_index``."""
    return name.replace(":", "_").replace("-", "_")
