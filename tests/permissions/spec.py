"""The words of the permission matrix: outcomes, role profiles, and how a route is called.

- outcome: what one role gets from one request (``Outcome``). Allowed is the route's own
  success status (``Method.ok``: 200, 201, 202, 204, or a 302 carrying no error message); a
  refusal is 403, a 404 where the selector hides the event or the object, a redirect to the
  sign-in page for an anonymous visitor of a sign-in-only page, 401/403 for one of the API.
- profile: an outcome for each of the eight roles (``world.ROLES``), in that order.
- variant: one way of calling a route: ``own`` (side A's ids and objects); ``mixed`` (B's object
  in the path: under A's event, or where the path names no event, alone); ``mixed_body`` (A's
  event with B's object named in the body); ``draft`` (a game not published yet);
  ``with_links`` (a backup with the players' private links).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tests.permissions.world import ROLES


class Outcome(enum.Enum):
    OK = "allowed"
    LOGIN = "302 to the sign-in page"
    ADMIN_LOGIN = "302 to the admin sign-in page"
    DENIED = "403"
    HIDDEN = "404"
    ANON_API = "401 or 403"
    INVALID = "400: the request names something that is not this event's"
    FLASH_ERROR = "302 with an error message: refused, nothing changed"
    PROPOSED = "202: taken as a proposal that waits for approval"


OK, LOGIN, ADMIN_LOGIN = Outcome.OK, Outcome.LOGIN, Outcome.ADMIN_LOGIN
DENIED, HIDDEN, ANON_API = Outcome.DENIED, Outcome.HIDDEN, Outcome.ANON_API
INVALID, FLASH_ERROR, PROPOSED = Outcome.INVALID, Outcome.FLASH_ERROR, Outcome.PROPOSED


def profile(
    anonymous, player, other_player, judge, cross_checker, other_director, director, admin
) -> dict[str, Outcome]:
    """One outcome per role, every role named (the order of ``world.ROLES``)."""
    outcomes = (
        anonymous,
        player,
        other_player,
        judge,
        cross_checker,
        other_director,
        director,
        admin,
    )
    return dict(zip(ROLES, outcomes, strict=True))


def as_api(outcomes: Mapping[str, Outcome]) -> dict[str, Outcome]:
    """The same profile for the API: an anonymous visitor is 401/403 instead of a redirect."""
    return {role: ANON_API if o is LOGIN else o for role, o in outcomes.items()}


# Pages. "Signed in" pages are login_required; the selectors then decide 403 or 404.
PUBLIC = profile(OK, OK, OK, OK, OK, OK, OK, OK)
SIGNED_IN = profile(LOGIN, OK, OK, OK, OK, OK, OK, OK)
DIRECTOR = profile(LOGIN, DENIED, DENIED, DENIED, DENIED, DENIED, OK, OK)
STAFF = profile(LOGIN, DENIED, DENIED, DENIED, OK, DENIED, OK, OK)  # directors, cross-checkers
JUDGING = profile(LOGIN, DENIED, DENIED, OK, DENIED, DENIED, OK, OK)  # judges, directors
ANY_ROLE = profile(LOGIN, DENIED, DENIED, OK, OK, DENIED, OK, OK)  # the event's history
# An unpublished event is hidden (404) from everyone without a role in it.
VIEWER = profile(HIDDEN, HIDDEN, HIDDEN, OK, OK, HIDDEN, OK, OK)
DRAFT = profile(HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK, OK)  # unpublished pairings
STAFF_ONLY = profile(*[ADMIN_LOGIN] * 7, OK)  # staff_member_required
JOB_OWNER = profile(LOGIN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK, OK)  # job B: see mixed
# B's object where the path names no event (an entry, a judge call, a club): B's director may.
B_DIRECTOR = profile(LOGIN, DENIED, DENIED, DENIED, DENIED, OK, DENIED, OK)
B_JOB_OWNER = profile(LOGIN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK, HIDDEN, OK)
# A's event with B's object in the path: the event check first, then the object is not there.
MIXED_DIRECTOR = profile(LOGIN, DENIED, DENIED, DENIED, DENIED, DENIED, HIDDEN, HIDDEN)
MIXED_JUDGING = profile(LOGIN, DENIED, DENIED, HIDDEN, DENIED, DENIED, HIDDEN, HIDDEN)
# A's event with B's object named in the body: those who may act get a 400 (page: the form
# refuses it, or an error message).
BODY_DIRECTOR = profile(LOGIN, DENIED, DENIED, DENIED, DENIED, DENIED, INVALID, INVALID)
BODY_DIRECTOR_FLASH = profile(LOGIN, DENIED, DENIED, DENIED, DENIED, DENIED, *[FLASH_ERROR] * 2)
BODY_JUDGING = profile(LOGIN, DENIED, DENIED, INVALID, DENIED, DENIED, INVALID, INVALID)

# Who may act for a player (issue 21). A link request is its asker's (and an administrator's):
# others are told nothing (404). A record change is seen by its proposer (A's director) and
# its deciders (the player, an administrator); a decision the person may not take is refused
# with its reason.
PLAYER_RECORD = profile(LOGIN, OK, DENIED, DENIED, DENIED, DENIED, OK, OK)
OWN_LINK = profile(LOGIN, OK, HIDDEN, HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK)
OTHERS_LINK_FLASH = profile(LOGIN, *[HIDDEN] * 6, FLASH_ERROR)
RECORD_DECIDER = profile(LOGIN, OK, HIDDEN, HIDDEN, HIDDEN, HIDDEN, FLASH_ERROR, OK)
RECORD_PROPOSER = profile(LOGIN, FLASH_ERROR, HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK, FLASH_ERROR)
OFFICE = profile(LOGIN, *[DENIED] * 6, OK)  # the ACC office: the admin here

API_PUBLIC = PUBLIC
API_SIGNED_IN = as_api(SIGNED_IN)
API_DIRECTOR = as_api(DIRECTOR)
API_STAFF = as_api(STAFF)
API_JUDGING = as_api(JUDGING)
API_ANY_ROLE = as_api(ANY_ROLE)
API_ADMIN = profile(ANON_API, *[DENIED] * 6, OK)  # IsAdminUser
API_JOB_OWNER = as_api(JOB_OWNER)
API_B_DIRECTOR = as_api(B_DIRECTOR)
API_B_JOB_OWNER = as_api(B_JOB_OWNER)
API_MIXED_DIRECTOR = as_api(MIXED_DIRECTOR)
API_MIXED_JUDGING = as_api(MIXED_JUDGING)
API_BODY_DIRECTOR = as_api(BODY_DIRECTOR)
API_BODY_JUDGING = as_api(BODY_JUDGING)
API_PLAYER_RECORD = profile(ANON_API, OK, DENIED, DENIED, DENIED, DENIED, PROPOSED, OK)
API_OWN_LINK = as_api(OWN_LINK)
API_OTHERS_LINK = profile(ANON_API, *[HIDDEN] * 6, OK)
API_OTHERS_LINK_INVALID = profile(ANON_API, *[HIDDEN] * 6, INVALID)
API_RECORD_DECIDER = profile(ANON_API, OK, HIDDEN, HIDDEN, HIDDEN, HIDDEN, INVALID, OK)
API_RECORD_PROPOSER = profile(ANON_API, INVALID, HIDDEN, HIDDEN, HIDDEN, HIDDEN, OK, INVALID)
API_OFFICE = profile(ANON_API, *[DENIED] * 6, OK)
# Asking to link needs a current link; the player and the other player are linked already.
API_ASK_LINK = profile(ANON_API, INVALID, INVALID, OK, OK, OK, OK, OK)


Recipe = Callable[[object], dict]  # world -> URL kwargs (query string under "?"), or body


@dataclass(frozen=True)
class Variant:
    expect: Mapping[str, Outcome]
    url: Recipe
    body: Recipe | dict | None = None


@dataclass(frozen=True)
class Method:
    """One HTTP method of a route: its success status, its variants, and ``prepare`` (run in
    the test's transaction before the request, for every role: it puts the data in the state
    the action needs, so that only the permission decides). ``check`` looks at an allowed
    response of the ``own`` variant (that it is about A's object, not B's)."""

    ok: int
    variants: Mapping[str, Variant]
    api: bool
    prepare: Callable[[object], None] | None = None
    check: Callable[[object, object], None] | None = None


def _variants(expect, url, body, mixed, extra) -> dict[str, Variant]:
    variants = {"own": Variant(expect, url, body)}
    if mixed is not None:
        m_expect, m_url, *m_body = mixed
        variants["mixed"] = Variant(m_expect, m_url, m_body[0] if m_body else body)
    variants.update(extra or {})
    return variants


def GET(expect, url, *, api=False, mixed=None, extra=None, check=None, ok=200, prepare=None):
    """A read. ``mixed`` is (profile, url[, body])."""
    return Method(ok, _variants(expect, url, None, mixed, extra), api, prepare, check)


def WRITE(
    expect,
    url,
    body=None,
    *,
    api=False,
    ok=None,
    mixed=None,
    extra=None,
    prepare=None,
    check=None,
):
    """A POST, PATCH or DELETE. Pages succeed with a 302 unless ``ok`` says otherwise;
    ``extra`` adds variants by name (``mixed_body``: B's object named in the body)."""
    ok = ok if ok is not None else (200 if api else 302)
    return Method(ok, _variants(expect, url, body, mixed, extra), api, prepare, check)
