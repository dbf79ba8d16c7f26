"""The site's CSP middleware (``config.csp_kept``) sends exactly the headers django-csp's own
would, for a plain response and for every kind of change a decorator makes, and follows the
settings when they change."""

from __future__ import annotations

import pytest
from csp.constants import HEADER, HEADER_REPORT_ONLY, NONCE, SELF
from csp.decorators import csp_exempt, csp_replace, csp_update
from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from config.csp_kept import CSPMiddleware

REPORT_ONLY = {"DIRECTIVES": {"default-src": [SELF], "img-src": [SELF, "data:"]}}


def _headers(middleware_class, view, path="/events/1/"):
    request = RequestFactory().get(path)
    response = middleware_class(view)(request)
    return response.get(HEADER), response.get(HEADER_REPORT_ONLY), request


def plain(request):
    return HttpResponse("page")


VIEWS = {
    "plain": plain,
    "updated": csp_update({"img-src": ["https://example.org"]})(plain),
    "replaced": csp_replace({"script-src": [SELF, "https://example.org"]})(plain),
    "exempt": csp_exempt()(plain),
}


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("report_only", [None, REPORT_ONLY])
@pytest.mark.parametrize("name", VIEWS)
def test_the_headers_are_django_csps_own(settings, name, report_only, debug):
    settings.DEBUG = debug
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = report_only
    view = VIEWS[name]
    ours, theirs = _headers(CSPMiddleware, view), _headers(LibraryCSPMiddleware, view)
    assert ours[:2] == theirs[:2]
    if name == "plain":
        assert "script-src 'self'" in ours[0]


def test_a_changed_policy_is_followed():
    before = _headers(CSPMiddleware, plain)[0]
    changed = {"DIRECTIVES": {"default-src": [SELF], "script-src": [SELF, "https://example.org"]}}
    with override_settings(CONTENT_SECURITY_POLICY=changed):
        during = _headers(CSPMiddleware, plain)[0]
        assert during == _headers(LibraryCSPMiddleware, plain)[0]
        assert "https://example.org" in during
    assert _headers(CSPMiddleware, plain)[0] == before


def test_an_excluded_prefix_gets_no_header():
    policy = {"EXCLUDE_URL_PREFIXES": ["/outside/"], "DIRECTIVES": {"default-src": [SELF]}}
    with override_settings(CONTENT_SECURITY_POLICY=policy):
        assert _headers(CSPMiddleware, plain, "/outside/page/")[0] is None
        assert _headers(CSPMiddleware, plain, "/inside/")[0] == "default-src 'self'"


def test_a_nonce_asked_for_goes_through_django_csp_and_none_after_the_header():
    policy = {"DIRECTIVES": {"default-src": [SELF], "script-src": [SELF, NONCE]}}

    def with_nonce(request):
        return HttpResponse(str(request.csp_nonce))

    with override_settings(CONTENT_SECURITY_POLICY=policy):
        header, _, request = _headers(CSPMiddleware, with_nonce)
    assert f"'nonce-{request._csp_nonce}'" in header
    header, _, request = _headers(CSPMiddleware, plain)
    with pytest.raises(Exception, match="after the CSP header has been written"):
        str(request.csp_nonce)
