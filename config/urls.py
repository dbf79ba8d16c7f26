"""Top-level URLs: pages, the admin, and the versioned API with its OpenAPI schema and docs."""

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView


def favicon(request):
    """Browsers ask for /favicon.ico on pages that name no icon (the admin, the API docs)."""
    return redirect(static("favicon.svg"), permanent=True)


# allauth answers its rate limits (sign-up, password reset) with this: the site's 429 page.
handler429 = "tournaments.views.errors.accounts_too_many"

urlpatterns = [
    # The API first: a player's report and poll (a thousand a minute in a burst) then resolve
    # without trying every page's route before theirs (about 100 us a report, 15 after).
    path("api/v1/", include("tournaments.api.urls")),
    path("", include("tournaments.urls")),
    path("accounts/", include("config.urls_accounts")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script); Swagger
    # UI sets inline styles as it draws, which its page alone allows.
    path(
        "api/docs/",
        csp_update({"style-src": [UNSAFE_INLINE]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
    path("favicon.ico", favicon),
]
