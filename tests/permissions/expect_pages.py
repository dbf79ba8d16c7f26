"""What each role gets from each page: route name -> method -> ``spec.Method``.

Read with ``spec`` (the outcomes and profiles) and ``recipes`` (how each route is called).
Pages that are ``login_required`` send an anonymous visitor to the sign-in page before any
lookup; the others answer 404 for an event (or game) the visitor may not see.
"""

from __future__ import annotations

from tests.permissions import recipes as r
from tests.permissions.checks import shows_table_one, wrote_at_table_one
from tests.permissions.spec import (
    ANY_ROLE,
    B_DIRECTOR,
    B_JOB_OWNER,
    BODY_DIRECTOR,
    BODY_DIRECTOR_FLASH,
    BODY_JUDGING,
    DENIED,
    DIRECTOR,
    DRAFT,
    FLASH_ERROR,
    GET,
    HIDDEN,
    INVALID,
    JOB_OWNER,
    JUDGING,
    LOGIN,
    MIXED_DIRECTOR,
    MIXED_JUDGING,
    OFFICE,
    OK,
    OTHERS_LINK_FLASH,
    OWN_LINK,
    PLAYER_RECORD,
    PUBLIC,
    RECORD_DECIDER,
    RECORD_PROPOSER,
    SIGNED_IN,
    STAFF,
    STAFF_ONLY,
    VIEWER,
    WRITE,
    Variant,
    profile,
)

CONFIRM = {"confirm": "yes"}


def _weekend(w):
    return {"weekend_id": w.A.extra.weekend.pk}


def _request(side):
    x = lambda w: getattr(w, side).extra  # noqa: E731
    return lambda w: {"weekend_id": x(w).weekend.pk, "request_id": x(w).request.pk}


def _request_under_a(side):
    return lambda w: {"weekend_id": w.A.extra.weekend.pk, "request_id": w.B.extra.request.pk}


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


def _keep_pair(w):
    ids = list(w.A.reg.entries.order_by("pk").values_list("pk", flat=True))
    return {"entry_a": ids[1], "entry_b": ids[2]}


def _invitation(w):
    return {"token": w.A.extra.invitation.token}


ADD_EVENT = profile(LOGIN, DENIED, DENIED, DENIED, DENIED, DENIED, OK, INVALID)
MIXED_HIDDEN = profile(LOGIN, *[HIDDEN] * 7)

REPORT = {"result": "won", "margin": 12}
# The event's check-in code: any signed-in person may open it (it shows their own entry only);
# only a player entered in the event checks in with it, everyone else is told why not.
CODE_POST = profile(
    LOGIN, OK, FLASH_ERROR, FLASH_ERROR, FLASH_ERROR, FLASH_ERROR, FLASH_ERROR, FLASH_ERROR
)
WRONG_CODE = profile(LOGIN, *[HIDDEN] * 7)  # another event's code


def _absent(side):
    return lambda w: {"absent": getattr(w, side).extra.match.entry_b_id}


def _match_fix(side):
    def body(w):
        entry = getattr(w, side).extra.match.entry_b_id
        return {"g1-winner": entry, "g1-margin": 12, "g1-reason": "misread card"}

    return body


def _award(side):
    return lambda w: {"entry": getattr(w, side).extra.night_entry.pk, **r.HAND_29}


def _club_settings_b(w):
    return r.form_data(r.ClubForm, w.B.club, city="Renamed by the matrix")


PAGES = {
    # Judges
    "judge-events": {"GET": GET(SIGNED_IN, r.none)},
    "judge-page": {"GET": GET(JUDGING, r.play)},
    "judge-call-answer": {
        "POST": WRITE(JUDGING, r.judge_call("A"), mixed=(B_DIRECTOR, r.judge_call("B")))
    },
    "ruling-form": {
        "GET": GET(JUDGING, r.table),
        "POST": WRITE(
            JUDGING,
            r.table,
            r.ruling_page,
            mixed=(
                BODY_JUDGING,
                r.table,
                lambda w: r.ruling_page(w, offender=r.seat_entries(w, "B")[0]),
            ),
        ),
    },
    "match-ruling-form": {
        "GET": GET(JUDGING, r.match, mixed=(MIXED_JUDGING, r.match_b)),
        "POST": WRITE(JUDGING, r.match, r.match_ruling_page, mixed=(MIXED_JUDGING, r.match_b)),
    },
    "ruling-list": {"GET": GET(JUDGING, r.play)},
    "player-call-judge": {"POST": WRITE(PUBLIC, r.token("A"), mixed=(PUBLIC, r.token("B")))},
    "count-checker": {"GET": GET(PUBLIC, r.none)},
    # Playoffs
    "playoff-bracket": {"GET": GET(VIEWER, r.cut)},
    "playoff-build": {"POST": WRITE(DIRECTOR, r.cut, prepare=r.no_bracket)},
    "match-detail": {"GET": GET(DIRECTOR, r.match, mixed=(MIXED_DIRECTOR, r.match_b))},
    "match-clock": {
        "POST": WRITE(
            DIRECTOR,
            r.match,
            _absent("A"),
            mixed=(MIXED_DIRECTOR, r.match_b, _absent("B")),
            extra={"mixed_body": Variant(BODY_DIRECTOR, r.match, _absent("B"))},
        )
    },
    "match-clock-stop": {
        "POST": WRITE(DIRECTOR, r.match, prepare=r.start_clock, mixed=(MIXED_DIRECTOR, r.match_b))
    },
    "match-game-void": {
        "POST": WRITE(
            DIRECTOR,
            r.match_game,
            {"v1-reason": "dealt from the wrong deck"},
            mixed=(MIXED_DIRECTOR, r.match_game_b),
        )
    },
    "match-game-correct": {
        "POST": WRITE(
            DIRECTOR,
            r.match_game,
            _match_fix("A"),
            mixed=(MIXED_DIRECTOR, r.match_game_b),
            extra={"mixed_body": Variant(BODY_DIRECTOR, r.match_game, _match_fix("B"))},
        )
    },
    "player-match-report": {
        "POST": WRITE(
            PUBLIC,
            r.token("A", "cut_entry"),
            {"result": "won", "margin": 9, "confirm": "1"},  # saves (without: a preview)
            mixed=(PUBLIC, r.token("B", "cut_entry")),
        )
    },
    # Final results, money, the Consolation, the ledger and the ACC package
    "event-results": {"GET": GET(VIEWER, r.done)},
    "event-results-csv": {"GET": GET(VIEWER, r.done)},
    "event-payouts-csv": {"GET": GET(VIEWER, r.done)},
    "event-money": {"GET": GET(DIRECTOR, r.cut), "POST": WRITE(DIRECTOR, r.cut, r.money)},
    "event-money-adjust": {"POST": WRITE(DIRECTOR, r.cut, {"clear": "1"})},
    "event-consolation": {"POST": WRITE(DIRECTOR, r.cut)},
    "event-finalise": {"POST": WRITE(DIRECTOR, r.done)},
    "event-acc-results-csv": {"GET": GET(DIRECTOR, r.done)},
    "event-acc-results": {"GET": GET(DIRECTOR, r.done)},
    "event-backup": {
        "GET": GET(
            DIRECTOR, r.play, extra={"with_links": Variant(DIRECTOR, r.query(r.play, tokens=1))}
        )
    },
    # Players across events
    "leaderboard": {"GET": GET(PUBLIC, r.none)},
    "player-merges": {
        "GET": GET(STAFF_ONLY, r.none),
        "POST": WRITE(
            STAFF_ONLY, r.none, lambda w: {"keep": w.merge_keep.pk, "merge": w.merge_gone.pk}
        ),
    },
    "player-merge-undo": {"POST": WRITE(STAFF_ONLY, r.merge)},
    "player-detail": {"GET": GET(PUBLIC, r.player)},
    "player-chart": {"GET": GET(PUBLIC, r.player)},
    "player-record": {"POST": WRITE(PLAYER_RECORD, r.player, r.record_rename)},
    "record-change-approve": {"POST": WRITE(RECORD_DECIDER, r.record_change)},
    "record-change-decline": {"POST": WRITE(RECORD_DECIDER, r.record_change, {"note": "No"})},
    "record-change-withdraw": {"POST": WRITE(RECORD_PROPOSER, r.record_change)},
    # Linking an account to a player (issue 21)
    "account-link": {
        "GET": GET(OWN_LINK, r.account_link("own_link")),
        "POST": WRITE(OTHERS_LINK_FLASH, r.account_link("link_waiting"), {"cancel": "1"}),
    },
    "account-link-end": {
        "POST": WRITE(OWN_LINK, r.account_link("own_link"), {"confirm": "yes", "note": "Wrong"})
    },
    "account-links-admin": {
        "GET": GET(STAFF_ONLY, r.none),
        "POST": WRITE(STAFF_ONLY, r.none, r.link_by_admin),
    },
    "account-link-approve": {"POST": WRITE(STAFF_ONLY, r.account_link("link_waiting"))},
    "account-link-decline": {
        "POST": WRITE(STAFF_ONLY, r.account_link("link_waiting"), {"note": "Unknown to us"})
    },
    # Sanctioning: a director asks, the ACC office (the admin here) decides
    "event-sanctioning": {"POST": WRITE(DIRECTOR, r.cut, {"action": "ask"})},
    "sanctioning-office": {"GET": GET(OFFICE, r.none)},
    "sanctioning-grant": {"POST": WRITE(OFFICE, r.cut)},
    "sanctioning-decline": {
        "POST": WRITE(OFFICE, r.cut, {"note": "Not on the calendar"}, prepare=r.sanctioning_asked)
    },
    "sanctioning-revoke": {"POST": WRITE(OFFICE, r.done, {"note": "Not an ACC event"})},
    # Clubs and ratings (the director directs club A; the other director club B)
    "club-list": {"GET": GET(PUBLIC, r.none)},
    "club-new": {
        "GET": GET(SIGNED_IN, r.none),
        "POST": WRITE(SIGNED_IN, r.none, {"name": "A new club", "city": "Halifax"}),
    },
    "club-detail": {"GET": GET(PUBLIC, r.club("A"))},
    "clubs-admin": {
        "GET": GET(STAFF_ONLY, r.none),
        "POST": WRITE(STAFF_ONLY, r.none, r.spare_into_a),
    },
    "club-remove": {"POST": WRITE(STAFF_ONLY, r.spare_club)},
    "club-settings": {
        "GET": GET(DIRECTOR, r.club("A"), mixed=(B_DIRECTOR, r.club("B"))),
        "POST": WRITE(
            DIRECTOR,
            r.club("A"),
            r.club_settings,
            mixed=(B_DIRECTOR, r.club("B"), _club_settings_b),
        ),
    },
    "club-night-new": {
        "POST": WRITE(
            DIRECTOR, r.club("A"), {"played_on": "2025-05-06"}, mixed=(B_DIRECTOR, r.club("B"))
        )
    },
    "club-director-new": {
        "POST": WRITE(
            DIRECTOR,
            r.club("A"),
            lambda w: {"person": w.A.judges[1].username},
            mixed=(B_DIRECTOR, r.club("B")),
        )
    },
    "club-director-remove": {
        "POST": WRITE(
            DIRECTOR,
            r.club_director("A"),
            prepare=r.second_club_director,
            mixed=(B_DIRECTOR, r.club_director("B")),
        )
    },
    "club-award-new": {
        "POST": WRITE(
            DIRECTOR,
            r.club("A"),
            _award("A"),
            mixed=(B_DIRECTOR, r.club("B"), _award("B")),
            extra={"mixed_body": Variant(BODY_DIRECTOR, r.club("A"), _award("B"))},
        )
    },
    "club-season": {"GET": GET(PUBLIC, r.club_season)},
    "club-ratings": {"GET": GET(PUBLIC, r.club("A"))},
    "grass-roots": {"GET": GET(PUBLIC, lambda w: {"season": 2024})},
    # Club recognition by the ACC office (issue 27), as event sanctioning; the club's history.
    "club-history": {"GET": GET(DIRECTOR, r.club("A"), mixed=(B_DIRECTOR, r.club("B")))},
    "club-recognition": {
        "POST": WRITE(DIRECTOR, r.club("A"), {"action": "ask"}, mixed=(B_DIRECTOR, r.club("B")))
    },
    "club-recognition-grant": {"POST": WRITE(OFFICE, r.club("A"))},
    "club-recognition-decline": {
        "POST": WRITE(OFFICE, r.club("A"), {"note": "No charter"}, prepare=r.recognition_asked)
    },
    "club-recognition-revoke": {
        "POST": WRITE(OFFICE, r.club("A"), {"note": "Lapsed"}, prepare=r.club_recognised)
    },
    "ratings": {"GET": GET(PUBLIC, r.none)},
    "rating-chance": {
        "GET": GET(
            PUBLIC,
            r.query(r.none, player=lambda w: w.A.player.pk, opponent=lambda w: w.B.player.pk),
        )
    },
    "player-rating-chart": {"GET": GET(PUBLIC, r.player)},
    # Home, jobs, the player's page and their events
    "home": {"GET": GET(PUBLIC, r.none)},
    "/favicon.ico": {"GET": GET(PUBLIC, r.none, ok=301)},
    "job-detail": {"GET": GET(JOB_OWNER, r.job("A"), mixed=(B_JOB_OWNER, r.job("B")))},
    "player-page": {
        "GET": GET(PUBLIC, r.token("A"), mixed=(PUBLIC, r.token("B"))),
        "POST": WRITE(
            PUBLIC,
            r.token("A"),
            {**REPORT, "confirm": "1"},
            mixed=(PUBLIC, r.token("B")),
            # The private link is the player's credential: whoever holds it may check them in.
            extra={"check_in": Variant(PUBLIC, r.token("A", "reg_registered"), {"check_in": "1"})},
        ),
    },
    # The players' pages' service worker: the same script for everyone, no private data.
    "player-worker": {"GET": GET(PUBLIC, r.none)},
    "my-entries": {"GET": GET(SIGNED_IN, r.none)},
    # An event's director
    "event-list": {"GET": GET(SIGNED_IN, r.none)},
    "event-create": {
        "GET": GET(SIGNED_IN, r.none),
        "POST": WRITE(SIGNED_IN, r.none, {"name": "New Main", "preset": "acc-main"}),
    },
    "event-public": {"GET": GET(VIEWER, r.play)},
    "event-wall": {"GET": GET(VIEWER, r.play)},
    "event-manage": {"GET": GET(DIRECTOR, r.play)},
    "event-settings": {
        "GET": GET(DIRECTOR, r.reg),
        "POST": WRITE(DIRECTOR, r.reg, r.event_settings),
    },
    "entry-add": {"POST": WRITE(DIRECTOR, r.reg, {"name": "Walk In", "player_choice": "new"})},
    "role-grant": {
        "POST": WRITE(
            DIRECTOR, r.play, lambda w: {"person": w.A.extra.grant_target.username, "role": "judge"}
        )
    },
    "role-revoke": {"POST": WRITE(DIRECTOR, r.grant("A"), mixed=(MIXED_DIRECTOR, r.grant("B")))},
    "event-history": {"GET": GET(ANY_ROLE, r.play)},
    "team-add": {
        "POST": WRITE(
            DIRECTOR,
            r.reg,
            {"name_1": "Tess Able", "name_2": "Ugo Bell", "new_players": "on"},
            prepare=r.doubles,
        )  # fmt: skip
    },
    "team-pair-up": {
        "POST": WRITE(
            DIRECTOR,
            r.reg,
            lambda w: {"first": w.A.extra.reg_checked_in.pk, "second": w.A.extra.reg_registered.pk},
            prepare=r.doubles,
        )
    },
    "team-draw": {"POST": WRITE(DIRECTOR, r.reg, prepare=r.doubles)},
    "entries-import": {"POST": WRITE(DIRECTOR, r.reg, {"text": "name\nZed Quimby\n"})},
    "event-close-registration": {"POST": WRITE(DIRECTOR, r.reg)},
    "event-check-in": {"GET": GET(DIRECTOR, r.reg)},
    "event-check-in-everyone": {
        "GET": GET(DIRECTOR, r.reg),
        "POST": WRITE(
            DIRECTOR,
            r.reg,
            r.check_in_entries("A"),
            extra={"mixed_body": Variant(BODY_DIRECTOR_FLASH, r.reg, r.check_in_entries("B"))},
        ),
    },
    "check-in-undo": {
        "POST": WRITE(
            DIRECTOR,
            r.reg,
            r.check_in_undo_entries("A"),
            extra={"mixed_body": Variant(BODY_DIRECTOR_FLASH, r.reg, r.check_in_undo_entries("B"))},
        ),
    },
    "check-in-new-code": {"POST": WRITE(DIRECTOR, r.reg)},
    "event-check-in-code": {
        "GET": GET(SIGNED_IN, r.check_in_code("A"), mixed=(WRONG_CODE, r.check_in_code("B"))),
        "POST": WRITE(
            CODE_POST,
            r.check_in_code("A"),
            mixed=(WRONG_CODE, r.check_in_code("B")),
            prepare=r.players_not_checked_in,
        ),
    },
    "entry-check-in": {
        "POST": WRITE(
            DIRECTOR,
            r.entry("reg_registered"),
            mixed=(B_DIRECTOR, r.entry("reg_registered", "B")),
        )
    },
    "entry-withdraw": {
        "GET": GET(
            DIRECTOR, r.entry("reg_checked_in"), mixed=(B_DIRECTOR, r.entry("reg_checked_in", "B"))
        ),
        "POST": WRITE(
            DIRECTOR,
            r.entry("reg_checked_in"),
            CONFIRM,
            mixed=(B_DIRECTOR, r.entry("reg_checked_in", "B")),
        ),
    },
    "entry-rejoin": {
        "POST": WRITE(
            DIRECTOR, r.entry("reg_withdrawn"), mixed=(B_DIRECTOR, r.entry("reg_withdrawn", "B"))
        )
    },
    "entry-revoke-link": {
        "GET": GET(
            DIRECTOR, r.entry("reg_checked_in"), mixed=(B_DIRECTOR, r.entry("reg_checked_in", "B"))
        ),
        "POST": WRITE(
            DIRECTOR,
            r.entry("reg_checked_in"),
            CONFIRM,
            mixed=(B_DIRECTOR, r.entry("reg_checked_in", "B")),
        ),
    },
    "entry-link-undo": {
        "POST": WRITE(
            DIRECTOR,
            r.entry("reg_checked_in"),
            prepare=r.new_link,
            mixed=(B_DIRECTOR, r.entry("reg_checked_in", "B")),
        )
    },
    # Games and their tables (game and table numbers are the same in A and B)
    "game-detail": {"GET": GET(VIEWER, r.game(1), extra={"draft": Variant(DRAFT, r.game(2))})},
    "game-print": {"GET": GET(VIEWER, r.game(1), extra={"draft": Variant(DRAFT, r.game(2))})},
    "game-pair": {"POST": WRITE(DIRECTOR, r.game(3))},
    "game-publish": {"POST": WRITE(DIRECTOR, r.game(2))},
    "game-repair": {"GET": GET(DIRECTOR, r.game(2)), "POST": WRITE(DIRECTOR, r.game(2), CONFIRM)},
    "game-board": {"GET": GET(STAFF, r.game(1))},
    "game-close": {"GET": GET(DIRECTOR, r.game(1)), "POST": WRITE(DIRECTOR, r.game(1), CONFIRM)},
    "game-remind": {"POST": WRITE(DIRECTOR, r.game(1))},
    "table-detail": {"GET": GET(STAFF, r.table, check=shows_table_one)},
    "table-paper-line": {
        "POST": WRITE(
            STAFF,
            r.table,
            {"position": 1, "result": "won", "margin": 10},
            check=wrote_at_table_one,
        )
    },
    "table-cross-check": {
        "POST": WRITE(STAFF, r.table, prepare=r.flag_table_one, check=wrote_at_table_one)
    },
    "table-correct": {"POST": WRITE(STAFF, r.table, r.correction_page, check=wrote_at_table_one)},
    "cross-checks": {"GET": GET(STAFF, r.play)},
    "standings": {"GET": GET(VIEWER, r.play)},
    "tie-playoff": {
        "POST": WRITE(
            DIRECTOR, r.play, r.tie, mixed=(BODY_DIRECTOR_FLASH, r.play, lambda w: r.tie(w, "B"))
        )
    },
    "scorecards": {"GET": GET(DIRECTOR, r.play)},
    # Weekends, registration requests and invitations (issue 27): the weekend lists A's
    # registration event; a request waits in it; an invitation to judge and one to direct the
    # club wait. A request's page and an invitation's link are their own credential.
    "weekend-list": {"GET": GET(PUBLIC, r.none)},
    "weekend-new": {
        "GET": GET(SIGNED_IN, r.none),
        "POST": WRITE(SIGNED_IN, r.none, {"name": "New weekend", "starts_on": "2025-06-07"}),
    },
    "weekend-detail": {"GET": GET(PUBLIC, _weekend)},
    "weekend-manage": {
        "GET": GET(DIRECTOR, _weekend),
        "POST": WRITE(
            DIRECTOR, _weekend, {"details-name": "Renamed", "details-starts_on": "2025-06-07"}
        ),
    },
    # The form offers the events the person directs by role: an administrator has none there.
    "weekend-event-new": {
        "POST": WRITE(ADD_EVENT, _weekend, lambda w: {"event": w.A.play.pk}),
    },
    "weekend-event-remove": {
        "POST": WRITE(DIRECTOR, lambda w: {**_weekend(w), "event_id": w.A.reg.pk})
    },
    "weekend-capacity": {
        "POST": WRITE(DIRECTOR, lambda w: {**_weekend(w), "event_id": w.A.reg.pk}, {"capacity": 30})
    },
    "weekend-registration-open": {"POST": WRITE(DIRECTOR, _weekend, CONFIRM)},
    "weekend-registration-close": {"POST": WRITE(DIRECTOR, _weekend, CONFIRM)},
    "weekend-register": {
        "GET": GET(PUBLIC, _weekend),
        "POST": WRITE(PUBLIC, _weekend, lambda w: {"name": "Walk Up", "events": [w.A.reg.pk]}),
    },
    "registration-approve": {
        "POST": WRITE(DIRECTOR, _request("A"), mixed=(MIXED_HIDDEN, _request_under_a("B")))
    },
    "registration-decline": {"POST": WRITE(DIRECTOR, _request("A"), {"note": "No room"})},
    "registration-change-ask": {"POST": WRITE(DIRECTOR, _request("A"), {"note": "Which club?"})},
    "registration-status": {"GET": GET(PUBLIC, _request_token)},
    "registration-change": {
        "POST": WRITE(
            PUBLIC,
            _request_token,
            lambda w: {"name": "Asker A", "acc_number": "REQ-a", "events": [w.A.reg.pk]},
        )
    },
    "registration-withdraw": {"POST": WRITE(PUBLIC, _request_token)},
    "registration-take": {"POST": WRITE(PUBLIC, _choice_token, prepare=_offered)},
    "registration-give-up": {"POST": WRITE(PUBLIC, _choice_token)},
    "invitation": {"GET": GET(PUBLIC, _invitation), "POST": WRITE(SIGNED_IN, _invitation)},
    "invitation-send": {
        "POST": WRITE(DIRECTOR, r.reg, {"email": "new-judge@example.org", "role": "judge"})
    },
    "invitation-withdraw": {
        "POST": WRITE(DIRECTOR, lambda w: {**r.reg(w), "invitation_id": w.A.extra.invitation.pk})
    },
    "club-invitation-send": {
        "POST": WRITE(DIRECTOR, r.club("A"), {"email": "new-director@example.org"})
    },
    "club-invitation-withdraw": {
        "POST": WRITE(
            DIRECTOR,
            lambda w: {"club_id": w.A.club.pk, "invitation_id": w.A.extra.club_invitation.pk},
        )
    },
    "keep-apart-add": {"POST": WRITE(DIRECTOR, r.reg, _keep_pair)},
    "keep-apart-remove": {
        "POST": WRITE(DIRECTOR, lambda w: {**r.reg(w), "pair_id": w.A.extra.keep_apart.pk})
    },
}
