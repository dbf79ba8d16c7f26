"""The player's own answers (their private link's endpoints): never kept by a shared cache.

``PrivateAnswers`` sends every answer of a view, whatever its method or status, with
``Cache-Control: private, no-cache``, as the player's pages are sent (``views.report``): a proxy
or a shared computer's cache keeps no copy of a player's table, card or link, and a phone asks
again each time.
"""

from __future__ import annotations

CACHE_CONTROL = "private, no-cache"


class PrivateAnswers:
    """Mix into an APIView before it: ``class ReportView(PrivateAnswers, APIView)``."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Cache-Control"] = CACHE_CONTROL
        return response
