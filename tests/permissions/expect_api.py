"""What each role gets from each API endpoint: route name -> method -> ``spec.Method``.

An anonymous visitor of an endpoint that needs a sign-in is refused before any lookup (401 or
403: the API signs in by token first, then by session); ``AllowAny`` reads answer 404 for an
event the visitor may not see.
"""

from __future__ import annotations

from functools import partial

from tests.permissions import recipes as r
from tests.permissions.checks import shows_table_one, wrote_at_table_one
from tests.permissions.spec import (
    API_ADMIN,
    API_ANY_ROLE,
    API_ASK_LINK,
    API_B_DIRECTOR,
    API_B_JOB_OWNER,
    API_BODY_DIRECTOR,
    API_BODY_JUDGING,
    API_DIRECTOR,
    API_JOB_OWNER,
    API_JUDGING,
    API_MIXED_DIRECTOR,
    API_OFFICE,
    API_OTHERS_LINK,
    API_OTHERS_LINK_INVALID,
    API_OWN_LINK,
    API_PLAYER_RECORD,
    API_PUBLIC,
    API_RECORD_DECIDER,
    API_RECORD_PROPOSER,
    API_SIGNED_IN,
    API_STAFF,
    DENIED,
    DRAFT,
    GET,
    HIDDEN,
    OK,
    VIEWER,
    WRITE,
    Variant,
    profile,
)

AGET, AWRITE = partial(GET, api=True), partial(WRITE, api=True)
REPORT = {"result": "won", "margin": 12}
PUBLIC = API_PUBLIC


def _weekend(w):
    return {"weekend_id": w.A.extra.weekend.pk}


def _request(w):
    return {"request_id": w.A.extra.request.pk}


def _request_token(w):
    return {"token": w.A.extra.request.token}


def _choice_token(w):
    return {"token": w.A.extra.request.token, "choice_id": w.A.extra.choice.pk}


def _offered(w):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import RegistrationChoice

    RegistrationChoice.objects.filter(pk=w.A.extra.choice.pk).update(
        status="offered", offer_expires_at=timezone.now() + timedelta(hours=1)
    )


def _keep_pair(side):
    """Two entrants of ``side``'s registration event not kept apart yet (the world keeps the
    first two apart)."""

    def body(w):
        ids = list(getattr(w, side).reg.entries.order_by("pk").values_list("pk", flat=True))
        return {"entry_a": ids[1], "entry_b": ids[2], "note": "drive together"}

    return body


def _kept_pair(side):
    return lambda w: {**r.reg(w), "pair_id": getattr(w, side).extra.keep_apart.pk}


# The list of a weekend's requests answers an anonymous visitor 404 (it names no weekend to
# strangers), like the pages' selectors.
WEEKEND_DIRECTOR_READ = profile(HIDDEN, DENIED, DENIED, DENIED, DENIED, DENIED, OK, OK)


def _absent(side):
    return lambda w: {"absent": getattr(w, side).extra.match.entry_b_id}


def _match_fix(side):
    def body(w):
        entry = getattr(w, side).extra.match.entry_b_id
        return {"winner": entry, "margin": 12, "reason": "misread card"}

    return body


def _award(side):
    return lambda w: {"entry": getattr(w, side).extra.night_entry.pk, **r.HAND_29}


def _ruling(side="A"):
    return lambda w: {"game": 1, "table": 1, **r.ruling(w, offender=r.seat_entries(w, side)[0])}


def _entry_action(name):
    return {"POST": AWRITE(API_DIRECTOR, r.entry(name), mixed=(API_B_DIRECTOR, r.entry(name, "B")))}


API = {
    # Results: the player's report, the board, tables, cross-checks, standings
    "api-report": {
        "GET": AGET(PUBLIC, r.token("A"), mixed=(PUBLIC, r.token("B"))),
        "POST": AWRITE(PUBLIC, r.token("A"), REPORT, ok=201, mixed=(PUBLIC, r.token("B"))),
    },
    "api-game-board": {"GET": AGET(API_STAFF, r.game(1))},
    "api-game-close": {"POST": AWRITE(API_DIRECTOR, r.game(1))},
    "api-game-remind": {"POST": AWRITE(API_DIRECTOR, r.game(1))},
    "api-table-detail": {"GET": AGET(API_STAFF, r.table, check=shows_table_one)},
    "api-table-lines": {
        "POST": AWRITE(
            API_STAFF,
            r.table,
            {"position": 1, "result": "won", "margin": 10},
            ok=201,
            check=wrote_at_table_one,
        )
    },
    "api-table-cross-check": {
        "POST": AWRITE(API_STAFF, r.table, prepare=r.flag_table_one, check=wrote_at_table_one)
    },
    "api-table-correct": {
        "POST": AWRITE(API_STAFF, r.table, r.correction_api, check=wrote_at_table_one)
    },
    "api-cross-checks": {"GET": AGET(API_STAFF, r.play)},
    "api-standings": {"GET": AGET(VIEWER, r.play)},
    "api-tie-playoffs": {
        "POST": AWRITE(
            API_DIRECTOR,
            r.play,
            r.tie,
            ok=201,
            extra={"mixed_body": Variant(API_BODY_DIRECTOR, r.play, lambda w: r.tie(w, "B"))},
        )
    },
    # Judges' calls and rulings; the count checker
    "api-ruling-list": {
        "GET": AGET(API_JUDGING, r.play),
        "POST": AWRITE(
            API_JUDGING,
            r.play,
            _ruling(),
            ok=201,
            extra={"mixed_body": Variant(API_BODY_JUDGING, r.play, _ruling("B"))},
        ),
    },
    # Judges read the calls; a director (or a player by their link) makes one.
    "api-judge-call-list": {
        "GET": AGET(API_JUDGING, r.play),
        "POST": AWRITE(API_DIRECTOR, r.play, {"game": 1, "table": 1}, ok=201),
    },
    "api-judge-call-answer": {
        "POST": AWRITE(API_JUDGING, r.judge_call("A"), mixed=(API_B_DIRECTOR, r.judge_call("B")))
    },
    "api-count-hand": {"POST": AWRITE(PUBLIC, r.none, {"hand": "5H 5D 5S JC", "starter": "5C"})},
    "api-count-play": {
        "POST": AWRITE(
            PUBLIC,
            r.none,
            {"pone": "KC 8C 4C 5C", "dealer": "5D 8D 6D 3D", "plays": "KC 5D 8C 8D 4C 6D 5C 3D"},
        )
    },
    # Playoffs
    "api-bracket": {"GET": AGET(VIEWER, r.cut)},
    "api-playoff-build": {"POST": AWRITE(API_DIRECTOR, r.cut, ok=202, prepare=r.no_bracket)},
    "api-match-report": {
        "POST": AWRITE(
            PUBLIC,
            r.token("A", "cut_entry"),
            {"result": "won", "margin": 9},
            ok=201,
            mixed=(PUBLIC, r.token("B", "cut_entry")),
        )
    },
    "api-match-clock": {
        "POST": AWRITE(
            API_DIRECTOR,
            r.match,
            _absent("A"),
            mixed=(API_MIXED_DIRECTOR, r.match_b, _absent("B")),
            extra={"mixed_body": Variant(API_BODY_DIRECTOR, r.match, _absent("B"))},
        ),
        "DELETE": AWRITE(
            API_DIRECTOR, r.match, prepare=r.start_clock, mixed=(API_MIXED_DIRECTOR, r.match_b)
        ),
    },
    "api-match-detail": {"GET": AGET(API_DIRECTOR, r.match, mixed=(API_MIXED_DIRECTOR, r.match_b))},
    "api-match-game-correct": {
        "POST": AWRITE(
            API_DIRECTOR,
            r.match_game,
            _match_fix("A"),
            mixed=(API_MIXED_DIRECTOR, r.match_game_b),
            extra={"mixed_body": Variant(API_BODY_DIRECTOR, r.match_game, _match_fix("B"))},
        )
    },
    "api-match-game-void": {
        "POST": AWRITE(
            API_DIRECTOR,
            r.match_game,
            {"reason": "dealt from the wrong deck"},
            mixed=(API_MIXED_DIRECTOR, r.match_game_b),
        )
    },
    # Final results, the Consolation, the ledger, the ACC package; players
    "api-event-results": {"GET": AGET(VIEWER, r.done)},
    "api-event-consolation": {"POST": AWRITE(API_DIRECTOR, r.cut, ok=201)},
    "api-event-finalise": {"POST": AWRITE(API_DIRECTOR, r.done, ok=202)},
    "api-event-acc-results": {"GET": AGET(API_DIRECTOR, r.done)},
    "api-event-backup": {
        "GET": AGET(
            API_DIRECTOR,
            r.play,
            extra={"with_links": Variant(API_DIRECTOR, r.query(r.play, tokens="true"))},
        )
    },
    # Any account may restore an event it sends (it directs the copy; a club's night only
    # by its club's directors: services.backup_import).
    "api-event-import": {"POST": AWRITE(API_ADMIN, r.none, r.backup_renamed, ok=201)},
    "api-player": {
        "GET": AGET(PUBLIC, r.player),
        "PATCH": AWRITE(API_PLAYER_RECORD, r.player, {"name": "Pat Renamed"}),
    },
    "api-record-changes": {"GET": AGET(API_SIGNED_IN, r.none)},
    "api-record-change-approve": {"POST": AWRITE(API_RECORD_DECIDER, r.record_change)},
    "api-record-change-decline": {
        "POST": AWRITE(API_RECORD_DECIDER, r.record_change, {"note": "No"})
    },
    "api-record-change-withdraw": {"POST": AWRITE(API_RECORD_PROPOSER, r.record_change)},
    # Linking an account to a player (issue 21)
    "api-account-links": {
        "GET": AGET(API_SIGNED_IN, r.none),
        "POST": AWRITE(
            API_ASK_LINK,
            r.none,
            lambda w: {"token": w.A.extra.reg_checked_in.report_token},
            ok=201,
        ),
    },
    "api-account-link-confirm": {
        "POST": AWRITE(API_OTHERS_LINK_INVALID, r.account_link("link_waiting"), {"code": "1"})
    },
    "api-account-link-cancel": {
        "POST": AWRITE(API_OTHERS_LINK_INVALID, r.account_link("link_waiting"))
    },
    "api-account-link-approve": {"POST": AWRITE(API_OTHERS_LINK, r.account_link("link_waiting"))},
    "api-account-link-decline": {
        "POST": AWRITE(API_OTHERS_LINK, r.account_link("link_waiting"), {"note": "Unknown"})
    },
    "api-account-link-end": {
        "POST": AWRITE(API_OWN_LINK, r.account_link("own_link"), {"note": "Not theirs"})
    },
    # Sanctioning: a director asks, the ACC office (the admin here) decides
    "api-event-sanctioning": {"GET": AGET(API_DIRECTOR, r.cut)},
    "api-event-sanctioning-request": {"POST": AWRITE(API_DIRECTOR, r.cut)},
    "api-event-sanctioning-cancel": {
        "POST": AWRITE(API_DIRECTOR, r.cut, prepare=r.sanctioning_asked)
    },
    "api-event-sanctioning-grant": {"POST": AWRITE(API_OFFICE, r.cut)},
    "api-event-sanctioning-decline": {
        "POST": AWRITE(API_OFFICE, r.cut, {"note": "No"}, prepare=r.sanctioning_asked)
    },
    "api-event-sanctioning-revoke": {"POST": AWRITE(API_OFFICE, r.done, {"note": "Wrong"})},
    "api-sanctioning-requests": {"GET": AGET(API_OFFICE, r.none)},
    "api-player-merges": {
        "POST": AWRITE(
            API_ADMIN,
            r.none,
            lambda w: {"keep": w.merge_keep.pk, "merge": w.merge_gone.pk},
            ok=201,
        )
    },
    "api-player-merge-undo": {"POST": AWRITE(API_ADMIN, r.merge)},
    "api-leaderboard-mrp": {"GET": AGET(PUBLIC, r.none)},
    # Clubs and ratings
    "api-club-list": {
        "GET": AGET(PUBLIC, r.none),
        "POST": AWRITE(API_SIGNED_IN, r.none, {"name": "A new club"}, ok=201),
    },
    "api-club-admin": {"GET": AGET(API_ADMIN, r.none)},
    "api-club-merge": {
        "POST": AWRITE(API_ADMIN, r.spare_club, lambda w: {"into": w.A.club.pk}),
    },
    "api-club-remove": {"POST": AWRITE(API_ADMIN, r.spare_club, ok=204)},
    "api-club-detail": {
        "GET": AGET(PUBLIC, r.club("A")),
        "PATCH": AWRITE(
            API_DIRECTOR, r.club("A"), {"city": "Halifax"}, mixed=(API_B_DIRECTOR, r.club("B"))
        ),
    },
    "api-club-nights": {
        "POST": AWRITE(
            API_DIRECTOR,
            r.club("A"),
            {"date": "2025-05-06"},
            ok=201,
            mixed=(API_B_DIRECTOR, r.club("B")),
        )
    },
    "api-club-standings": {"GET": AGET(PUBLIC, r.query(r.club("A"), season=2024))},
    "api-club-awards": {
        "POST": AWRITE(
            API_DIRECTOR,
            r.club("A"),
            _award("A"),
            ok=201,
            mixed=(API_B_DIRECTOR, r.club("B"), _award("B")),
            extra={"mixed_body": Variant(API_BODY_DIRECTOR, r.club("A"), _award("B"))},
        )
    },
    "api-grass-roots": {"GET": AGET(PUBLIC, lambda w: {"season": 2024})},
    # Club recognition by the ACC office (issue 27), as event sanctioning; the club's history.
    "api-club-recognition": {
        "GET": AGET(API_DIRECTOR, r.club("A"), mixed=(API_B_DIRECTOR, r.club("B")))
    },
    "api-club-recognition-request": {
        "POST": AWRITE(API_DIRECTOR, r.club("A"), mixed=(API_B_DIRECTOR, r.club("B")))
    },
    "api-club-recognition-cancel": {
        "POST": AWRITE(API_DIRECTOR, r.club("A"), prepare=r.recognition_asked)
    },
    "api-club-recognition-grant": {"POST": AWRITE(API_OFFICE, r.club("A"))},
    "api-club-recognition-decline": {
        "POST": AWRITE(API_OFFICE, r.club("A"), {"note": "No"}, prepare=r.recognition_asked)
    },
    "api-club-recognition-revoke": {
        "POST": AWRITE(API_OFFICE, r.club("A"), {"note": "Wrong"}, prepare=r.club_recognised)
    },
    "api-club-recognition-requests": {"GET": AGET(API_OFFICE, r.none)},
    "api-club-history": {
        "GET": AGET(API_DIRECTOR, r.club("A"), mixed=(API_B_DIRECTOR, r.club("B")))
    },
    "api-ratings": {"GET": AGET(PUBLIC, r.none)},
    "api-rating-predict": {
        "GET": AGET(
            PUBLIC,
            r.query(r.none, player=lambda w: w.A.player.pk, opponent=lambda w: w.B.player.pk),
        )
    },
    "api-player-rating": {"GET": AGET(PUBLIC, r.player)},
    # Sign-in, health, jobs
    "api-token": {
        "POST": AWRITE(PUBLIC, r.none, r.login_of("player")),
        "DELETE": AWRITE(API_SIGNED_IN, r.none, ok=204),  # revokes the caller's own token
    },
    "api-health": {"GET": AGET(PUBLIC, r.none)},
    "api-job-health": {"POST": AWRITE(API_ADMIN, r.none, ok=202)},
    "api-job-detail": {"GET": AGET(API_JOB_OWNER, r.job("A"), mixed=(API_B_JOB_OWNER, r.job("B")))},
    # Events, entries, roles, history, games
    "api-event-list": {
        "GET": AGET(API_SIGNED_IN, r.none),
        "POST": AWRITE(API_SIGNED_IN, r.none, {"name": "New Main", "preset": "acc-main"}, ok=201),
    },
    "api-event-detail": {
        "GET": AGET(VIEWER, r.play),
        "PATCH": AWRITE(API_DIRECTOR, r.reg, {"name": "Renamed by the matrix"}),
    },
    "api-event-close-registration": {"POST": AWRITE(API_DIRECTOR, r.reg)},
    "api-entry-list": {
        "GET": AGET(API_DIRECTOR, r.reg),
        "POST": AWRITE(API_DIRECTOR, r.reg, {"name": "Walk In", "new_player": True}, ok=201),
    },
    "api-team-list": {
        "GET": AGET(API_DIRECTOR, r.reg, prepare=r.doubles),
        "POST": AWRITE(API_DIRECTOR, r.reg, r.TEAM, ok=201, prepare=r.doubles),
    },
    "api-keep-apart-list": {
        "GET": AGET(API_DIRECTOR, r.reg),
        "POST": AWRITE(
            API_DIRECTOR,
            r.reg,
            _keep_pair("A"),
            ok=201,
            extra={"mixed_body": Variant(API_BODY_DIRECTOR, r.reg, _keep_pair("B"))},
        ),
    },
    "api-keep-apart-detail": {
        "DELETE": AWRITE(
            API_DIRECTOR, _kept_pair("A"), ok=204, mixed=(API_MIXED_DIRECTOR, _kept_pair("B"))
        )
    },
    "api-partners-draw": {"POST": AWRITE(API_DIRECTOR, r.reg, ok=201, prepare=r.doubles)},
    "api-entry-import": {
        "POST": AWRITE(API_DIRECTOR, r.reg, {"csv": "name\nZed Quimby\n"}, ok=201)
    },
    "api-entry-check-in": _entry_action("reg_registered"),
    "api-entry-check-in-undo": _entry_action("reg_checked_in"),
    "api-event-check-in-code": {
        "GET": AGET(API_DIRECTOR, r.reg),
        "POST": AWRITE(API_DIRECTOR, r.reg, ok=201),
    },
    "api-entry-withdraw": _entry_action("reg_checked_in"),
    "api-entry-rejoin": _entry_action("reg_withdrawn"),
    "api-entry-new-link": _entry_action("reg_checked_in"),
    "api-entry-link-undo": {
        "POST": AWRITE(
            API_DIRECTOR,
            r.entry("reg_checked_in"),
            prepare=r.new_link,
            mixed=(API_B_DIRECTOR, r.entry("reg_checked_in", "B")),
        )
    },
    "api-role-list": {
        "GET": AGET(API_DIRECTOR, r.play),
        "POST": AWRITE(
            API_DIRECTOR,
            r.play,
            lambda w: {"person": w.A.extra.grant_target.username, "role": "judge"},
            ok=201,
        ),
    },
    "api-role-detail": {
        "DELETE": AWRITE(
            API_DIRECTOR, r.grant("A"), ok=204, mixed=(API_MIXED_DIRECTOR, r.grant("B"))
        )
    },
    "api-event-history": {"GET": AGET(API_ANY_ROLE, r.play)},
    "api-game-list": {"GET": AGET(API_DIRECTOR, r.play)},
    "api-game-detail": {"GET": AGET(VIEWER, r.game(1), extra={"draft": Variant(DRAFT, r.game(2))})},
    "api-game-pair": {"POST": AWRITE(API_DIRECTOR, r.game(3), ok=202)},
    "api-game-publish": {"POST": AWRITE(API_DIRECTOR, r.game(2))},
    "api-game-repair": {"POST": AWRITE(API_DIRECTOR, r.game(2), ok=202)},
    # Weekends and registration requests (issue 27): see expect_pages.
    "api-weekend-list": {
        "GET": AGET(PUBLIC, r.none),
        "POST": AWRITE(
            API_SIGNED_IN, r.none, {"name": "New weekend", "starts_on": "2025-06-07"}, ok=201
        ),
    },
    "api-weekend-detail": {
        "GET": AGET(PUBLIC, _weekend),
        "PATCH": AWRITE(API_DIRECTOR, _weekend, {"venue": "The Legion hall"}),
    },
    "api-weekend-events": {
        "POST": AWRITE(API_DIRECTOR, _weekend, lambda w: {"event": w.A.play.pk})
    },
    "api-weekend-event": {
        "DELETE": AWRITE(API_DIRECTOR, lambda w: {**_weekend(w), "event_id": w.A.reg.pk})
    },
    "api-weekend-registration": {"POST": AWRITE(API_DIRECTOR, _weekend, {"open": False})},
    "api-weekend-registrations": {
        "GET": AGET(WEEKEND_DIRECTOR_READ, _weekend),
        "POST": AWRITE(
            PUBLIC, _weekend, lambda w: {"name": "Api Walk Up", "events": [w.A.reg.pk]}, ok=201
        ),
    },
    "api-weekend-capacity": {
        "POST": AWRITE(
            API_DIRECTOR, lambda w: {**_weekend(w), "event_id": w.A.reg.pk}, {"capacity": 30}
        )
    },
    "api-registration-approve": {"POST": AWRITE(API_DIRECTOR, _request)},
    "api-registration-decline": {"POST": AWRITE(API_DIRECTOR, _request, {"reason": "No room"})},
    "api-registration-change": {"POST": AWRITE(API_DIRECTOR, _request, {"note": "Which club?"})},
    "api-registration-private": {"GET": AGET(PUBLIC, _request_token)},
    "api-registration-withdraw": {"POST": AWRITE(PUBLIC, _request_token)},
    "api-registration-take": {"POST": AWRITE(PUBLIC, _choice_token, prepare=_offered)},
    "api-registration-give-up": {"POST": AWRITE(PUBLIC, _choice_token)},
}
