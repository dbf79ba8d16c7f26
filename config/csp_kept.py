"""django-csp's middleware with the site's policy built once per process.

``csp.middleware.CSPMiddleware`` builds both headers from the settings at every response: two
dataclass copies and a walk of every directive, 110 us a response here, on every page a
thousand phones open in the first seconds of a round and every spectator's reload. A response
whose policy is the settings' own (no ``csp_update``/``csp_replace``/``csp_exempt`` decorator
touched it, no nonce was asked for) gets the two strings built once for those settings, and
built again when the settings are replaced (``override_settings``; nothing here edits the
policy's dict in place, which would not be seen). Any other response, and every response with
``DEBUG`` on, goes through django-csp's own ``process_response`` unchanged."""

from __future__ import annotations

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
from csp.utils import build_policy
from django.conf import settings

# What a decorator sets on a response to change or drop its policy (csp.decorators).
_CHANGES = tuple(
    f"_csp_{kind}{ro}" for kind in ("config", "update", "replace", "exempt") for ro in ("", "_ro")
)
_SETTINGS = (
    (HEADER, "CONTENT_SECURITY_POLICY", False),
    (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
)
_kept: dict[str, tuple] = {}


def _policies() -> list[tuple[str, str, tuple[str, ...]]]:
    """Each header with its policy (built once for the settings as they are) and the path
    prefixes it is not sent for."""
    made = []
    for header, name, report_only in _SETTINGS:
        config = getattr(settings, name, None)
        kept = _kept.get(name)
        if kept is None or kept[0] is not config:
            prefixes = tuple((config or {}).get("EXCLUDE_URL_PREFIXES", None) or ())
            kept = _kept[name] = (config, build_policy(report_only=report_only), prefixes)
        made.append((header, kept[1], kept[2]))
    return made


class CSPMiddleware(LibraryCSPMiddleware):
    def process_response(self, request, response):
        if (
            settings.DEBUG
            or getattr(request, "_csp_nonce", None) is not None
            or any(hasattr(response, name) for name in _CHANGES)
        ):
            return super().process_response(request, response)
        for header, policy, prefixes in _policies():
            if policy and header not in response and not request.path_info.startswith(prefixes):
                response[header] = policy
        # As django-csp does: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
