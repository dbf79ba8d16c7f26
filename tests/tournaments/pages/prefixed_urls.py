"""The site's URLs under /site/: a URL configuration of a test's own (test_pages)."""

from django.urls import include, path

urlpatterns = [path("site/", include("config.urls"))]
