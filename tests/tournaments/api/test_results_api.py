"""Results through the API: players report from their private link, directors and
cross-checkers watch the board, close the game, settle flagged tables by Rule 12.2 and correct
lines; who may call each endpoint."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.models import (
    CardLine,
    EventRole,
    Game,
    Notice,
    StandingsSnapshot,
    Table,
    TiePlayoff,
)
from tournaments.services.links import entry_token_revoke
from tournaments.services.results import card_line_report, game_close

pytestmark = pytest.mark.django_db

API = "/api/v1"


def _table(event, number=1):
    table = Table.objects.get(game__event=event, game__number=1, number=number)
    return (table, *table.seats.select_related("entry__player").order_by("position"))


def _report_url(seat) -> str:
    return f"{API}/report/{seat.entry.report_token}/"


def _game_url(event, path="") -> str:
    return f"{API}/events/{event.pk}/games/1/{path}"


def _table_url(event, path="", table=1) -> str:
    return _game_url(event, f"tables/{table}/{path}")


def _lines(seat, **filters) -> list[tuple]:
    lines = CardLine.objects.filter(seat=seat, **filters).order_by("id")
    return [(line.kind, line.game_points, line.plus, line.minus, line.current) for line in lines]


def _role(event, role: str):
    user = UserFactory()
    EventRole.objects.create(event=event, user=user, role=role)
    return user


# The player's report


def test_both_players_report_by_link_and_the_game_is_verified(
    event_in_play, anonymous, django_capture_on_commit_callbacks
):
    event = event_in_play(10)
    table, a, b = _table(event)
    state = anonymous.get(_report_url(a)).json()
    assert state["current"] == {
        "game": 1,
        "game_status": "published",
        "table": 1,
        "table_status": "open",
        "opponent": b.entry.player.name,
        "can_report": True,
        "reported": None,
        "verified": None,
        "opponent_status": "not_reported",
        "state": "not_reported",
        "words": "Nobody at your table has reported yet.",
        "settled": None,
    }

    preview = anonymous.post(_report_url(a), {"result": "won", "margin": 35, "preview": True})
    assert preview.status_code == 200
    assert preview.json()["line"] == {"game_points": 3, "plus": 35, "minus": 0}
    assert not CardLine.objects.exists()

    with django_capture_on_commit_callbacks(execute=True):
        saved = anonymous.post(_report_url(a), {"result": "won", "margin": 35})
    assert saved.status_code == 201, saved.json()
    # The answer is small (the line and the table's state); the page is the GET.
    assert saved.json() == {
        "game": 1,
        "table": 1,
        "line": {"kind": "reported", "game_points": 3, "plus": 35, "minus": 0},
        "opponent": b.entry.player.name,
        "opponent_status": "not_reported",
        "state": "waiting",
        "words": f"Saved. Waiting for {b.entry.player.name} to report.",
        "verified": False,
    }
    mine = anonymous.get(_report_url(a)).json()["current"]
    assert (mine["reported"]["game_points"], mine["reported"]["plus"]) == (3, 35)
    assert mine["reported"]["source"] == "player" and mine["verified"] is None
    assert (mine["state"], mine["opponent_status"]) == ("waiting", "not_reported")
    theirs = anonymous.get(_report_url(b)).json()["current"]
    assert (theirs["state"], theirs["opponent_status"]) == ("your_turn", "reported")
    # a's figures are unseen (names are left out: a factory's "Player 035" is not a figure).
    figures = {k: v for k, v in theirs.items() if k not in ("opponent", "words")}
    assert theirs["reported"] is None and "35" not in json.dumps(figures)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN

    with django_capture_on_commit_callbacks(execute=True):
        confirmed = anonymous.post(_report_url(b), {"result": "lost", "margin": 35})
    assert confirmed.status_code == 201
    assert confirmed.json()["line"] == {
        "kind": "reported",
        "game_points": 0,
        "plus": 0,
        "minus": 35,
    }
    assert (confirmed.json()["state"], confirmed.json()["opponent_status"]) == (
        "verified",
        "agrees",
    )
    assert confirmed.json()["verified"] is True
    assert confirmed.json()["words"] == "Both cards agree: this game is verified."
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    assert _lines(a, kind="verified") == [("verified", 3, 35, 0, True)]
    assert _lines(b, kind="verified") == [("verified", 0, 0, 35, True)]

    card = anonymous.get(_report_url(a)).json()
    assert card["current"]["can_report"] is False
    assert card["current"]["verified"]["source"] == "agreed"
    assert (card["current"]["state"], card["current"]["opponent_status"]) == ("verified", "agrees")
    assert card["card"] == [
        {
            "game": 1,
            "table": 1,
            "opponent": b.entry.player.name,
            "game_points": 3,
            "plus": 35,
            "minus": 0,
            "verified": True,
        }
    ]
    top = StandingsSnapshot.objects.filter(event=event).latest().rows[0]
    assert (top["entry_id"], top["game_points"], top["net_spread"]) == (a.entry_id, 3, 35)


@pytest.mark.parametrize(
    ("margin", "game_points", "words"),
    [(35, 3, "A win by 35 is a skunk: 3 game points"), (30, 2, "A win by 30: 2 game points")],
)
def test_the_preview_says_what_the_margin_is_worth(
    event_in_play, anonymous, margin, game_points, words
):
    event = event_in_play(10)
    _, a, _ = _table(event)
    body = anonymous.post(_report_url(a), {"result": "won", "margin": margin, "preview": True})
    assert body.json()["line"]["game_points"] == game_points
    assert body.json()["words"].startswith(words)
    assert not CardLine.objects.exists()


@pytest.mark.parametrize(
    ("margin", "code", "says"),
    [
        (0, "impossible_line", "A spread is 1 to 121"),
        (122, "impossible_line", "A spread is 1 to 121"),
        ("abc", "invalid", "valid integer"),
        (None, "null", "may not be null"),
    ],
)
@pytest.mark.parametrize("preview", [True, False])
def test_an_impossible_margin_is_refused_naming_the_field_and_nothing_is_stored(
    event_in_play, anonymous, margin, code, says, preview
):
    event = event_in_play(10)
    _, a, _ = _table(event)
    response = anonymous.post(
        _report_url(a), {"result": "won", "margin": margin, "preview": preview}
    )
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == ("margin", code)
    assert says in error["message"]
    assert not CardLine.objects.exists()


def test_a_link_reports_only_for_its_own_entry(event_in_play, anonymous):
    event = event_in_play(10)
    _, a, b = _table(event)
    _, c, _ = _table(event, number=2)
    # Naming another seat or entry in the body is refused (fields a report does not take,
    # issue 22): the link alone decides whose line.
    body = {"result": "lost", "margin": 12, "seat": b.pk, "entry": b.entry_id, "entry_id": c.pk}
    refused = anonymous.post(_report_url(a), body)
    assert refused.status_code == 400
    fields = sorted(error["field"] for error in refused.json()["errors"])
    assert fields == ["entry", "entry_id", "seat"]
    assert not CardLine.objects.exists()
    assert anonymous.post(_report_url(a), {"result": "lost", "margin": 12}).status_code == 201
    assert _lines(a) == [("reported", 0, 0, 12, True)]
    assert _lines(b) == [] and _lines(c) == []
    assert anonymous.get(_report_url(b)).json()["current"]["reported"] is None


def test_an_unknown_or_revoked_link_is_not_found(event_in_play, anonymous):
    event = event_in_play(10)
    _, a, _ = _table(event)
    old_url = _report_url(a)
    entry_token_revoke(entry=a.entry, user=event.director)
    for url in (old_url, f"{API}/report/not-a-real-link/"):
        assert anonymous.get(url).status_code == 404
        assert anonymous.post(url, {"result": "won", "margin": 5}).status_code == 404
    assert not CardLine.objects.exists()
    a.entry.refresh_from_db()
    assert anonymous.get(_report_url(a)).status_code == 200


def test_a_player_cannot_report_after_the_game_is_closed(event_in_play, anonymous):
    event = event_in_play(10)
    table, a, _ = _table(event)
    director = client_for(event.director)
    assert director.post(_game_url(event, "close/")).json() == {"flagged": 5}
    flagged = anonymous.get(_report_url(a)).json()["current"]
    assert (flagged["state"], flagged["table_status"], flagged["can_report"]) == (
        "flagged",
        "flagged",
        False,
    )
    # Nobody reported: no cards to disagree.
    assert flagged["words"] == (
        "The game was closed before both cards agreed: a cross-checker will settle your table."
    )
    state = anonymous.get(_report_url(a)).json()["current"]
    assert (state["game_status"], state["table_status"], state["can_report"]) == (
        "closed",
        "flagged",
        False,
    )
    response = anonymous.post(_report_url(a), {"result": "won", "margin": 5})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "game_closed"
    assert not CardLine.objects.exists()
    # Closing twice is refused and changes nothing.
    again = director.post(_game_url(event, "close/"))
    assert (again.status_code, again.json()["errors"][0]["code"]) == (400, "not_in_play")


def test_the_sit_out_sees_their_result_and_has_nothing_to_report(event_in_play, anonymous):
    event = event_in_play(9)
    sit_out = event.games.get(number=1).seats.get(table__isnull=True)
    url = f"{API}/report/{sit_out.entry.report_token}/"
    current = anonymous.get(url).json()["current"]
    assert (current["table"], current["opponent"], current["can_report"]) == (None, None, False)
    assert (current["verified"]["game_points"], current["verified"]["plus"]) == (2, 10)
    response = anonymous.post(url, {"result": "won", "margin": 10})
    assert (response.status_code, response.json()["errors"][0]["code"]) == (400, "sit_out")


# Directors and cross-checkers


def test_the_board_shows_each_table_state(event_in_play):
    event = event_in_play(10)
    _, a, b = _table(event, 1)
    _, c, d = _table(event, 2)
    _, e, f = _table(event, 3)
    card_line_report(seat=a, won=True, spread=20)
    card_line_report(seat=c, won=True, spread=20)
    card_line_report(seat=d, won=True, spread=25)
    card_line_report(seat=e, won=True, spread=8)
    card_line_report(seat=f, won=False, spread=8)
    board = client_for(event.director).get(_game_url(event, "board/")).json()
    tables = board["tables"]
    assert [t["state"] for t in tables] == [
        "one reported",
        "disagree",
        "verified",
        "waiting",
        "waiting",
    ]
    assert [t["status"] for t in tables] == ["open", "open", "verified", "open", "open"]
    first = tables[0]["seats"]
    assert [(s["position"], s["name"]) for s in first] == [
        (1, a.entry.player.name),
        (2, b.entry.player.name),
    ]
    assert (first[0]["reported"]["plus"], first[1]["reported"]) == (20, None)


def test_the_board_costs_the_same_queries_for_10_or_40_players(event_in_play):
    def queries_for(players: int) -> int:
        event = event_in_play(players)
        for number in range(1, players // 2 + 1):
            _, a, _ = _table(event, number)
            card_line_report(seat=a, won=True, spread=number)
        client = client_for(event.director)
        with CaptureQueriesContext(connection) as queries:
            tables = client.get(_game_url(event, "board/")).json()["tables"]
        assert len(tables) == players // 2
        assert all(t["seats"][0]["reported"] for t in tables)
        return len(queries)

    small, large = queries_for(10), queries_for(40)
    assert small == large
    assert large <= 5


def test_a_disagreement_is_flagged_at_close_and_settled_by_rule_12_2(
    event_in_play, anonymous, django_capture_on_commit_callbacks
):
    event = event_in_play(10)
    table, a, b = _table(event)
    anonymous.post(_report_url(a), {"result": "won", "margin": 20})
    anonymous.post(_report_url(b), {"result": "won", "margin": 25})  # both claim the win
    for seat in (a, b):
        mine = anonymous.get(_report_url(seat)).json()["current"]
        assert (mine["state"], mine["opponent_status"], mine["can_report"]) == (
            "disagree",
            "disagrees",
            True,
        )
        assert "disagree" in mine["words"]
    checker_user = _role(event, "cross_checker")
    checker = client_for(checker_user)
    director = client_for(event.director)
    assert director.post(_game_url(event, "close/")).json() == {"flagged": 5}
    flagged = anonymous.get(_report_url(a)).json()["current"]
    assert (flagged["state"], flagged["table_status"], flagged["can_report"]) == (
        "flagged",
        "flagged",
        False,
    )
    assert flagged["words"] == "Your cards disagree: a cross-checker will settle it."

    queue = checker.get(f"{API}/events/{event.pk}/cross-checks/").json()
    assert [(t["game"], t["number"]) for t in queue["results"]] == [(1, n) for n in range(1, 6)]

    with django_capture_on_commit_callbacks(execute=True):
        settled = checker.post(_table_url(event, "cross-check/"))
    assert settled.status_code == 200, settled.json()
    body = settled.json()
    assert body["cases"][0] == "e" and body["cases"][-1] == "g"
    assert [(line["position"], line["game_points"], line["minus"]) for line in body["lines"]] == [
        (1, 0, 20),
        (2, 0, 25),
    ]
    assert all(
        line["source"] == "rule_12_2" and "Case e: " in line["reason"] for line in body["lines"]
    )
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    after = anonymous.get(_report_url(a)).json()["current"]
    assert after["state"] == "settled" and after["words"].startswith("Settled by ACC Rule 12.2")
    assert after["settled"]["changed"] is True and "Case e: " in after["settled"]["reason"]
    assert (after["settled"]["line"]["minus"], after["settled"]["reported"]["plus"]) == (20, 20)

    detail = checker.get(_table_url(event)).json()
    assert detail["status"] == "verified"
    history = [
        (h["position"], h["kind"], h["source"], h["game_points"], h["plus"], h["minus"])
        for h in detail["history"]
    ]
    assert (1, "reported", "player", 2, 20, 0) in history  # both original cards are kept
    assert (2, "reported", "player", 2, 25, 0) in history
    assert (1, "verified", "rule_12_2", 0, 0, 20) in history
    settled_by = {h["entered_by"] for h in detail["history"] if h["kind"] == "verified"}
    assert settled_by == {checker_user.username}
    assert [s["reported"]["plus"] for s in detail["seats"]] == [20, 25]
    assert [s["verified"]["minus"] for s in detail["seats"]] == [20, 25]
    remaining = checker.get(f"{API}/events/{event.pk}/cross-checks/").json()["results"]
    assert [t["number"] for t in remaining] == [2, 3, 4, 5]

    again = checker.post(_table_url(event, "cross-check/"))
    assert (again.status_code, again.json()["errors"][0]["code"]) == (400, "state")


def test_a_correction_keeps_the_old_lines_and_records_the_reason(event_in_play):
    event = event_in_play(10)
    table, a, b = _table(event)
    card_line_report(seat=a, won=True, spread=12)
    card_line_report(seat=b, won=False, spread=12)
    # Both cards agreed, so only a director may change the verified result.
    checker = client_for(_role(event, "director"))
    swapped = [
        {"position": 1, "game_points": 0, "minus": 40},
        {"position": 2, "game_points": 3, "plus": 40},
    ]

    no_reason = checker.post(_table_url(event, "correct/"), {"lines": swapped, "reason": " "})
    assert (no_reason.status_code, no_reason.json()["errors"][0]["field"]) == (400, "reason")
    wrong = [{"position": 2, "game_points": 2, "plus": 40}]
    refused = checker.post(_table_url(event, "correct/"), {"lines": wrong, "reason": "typo"})
    assert refused.status_code == 400
    assert "skunk: 3 game points, not 2" in refused.json()["errors"][0]["message"]
    twice = checker.post(
        _table_url(event, "correct/"), {"lines": [swapped[0], swapped[0]], "reason": "x"}
    )
    assert (twice.status_code, twice.json()["errors"][0]["field"]) == (400, "lines")
    assert _lines(a, kind="verified") == [("verified", 2, 12, 0, True)]

    reason = "Cards were swapped at the table; both players agree."
    response = checker.post(_table_url(event, "correct/"), {"lines": swapped, "reason": reason})
    assert response.status_code == 200, response.json()
    assert _lines(a, kind="verified") == [
        ("verified", 2, 12, 0, False),
        ("verified", 0, 0, 40, True),
    ]
    history = [h for h in response.json()["history"] if h["kind"] == "verified"]
    assert [(h["position"], h["source"], h["current"], h["reason"]) for h in history] == [
        (1, "agreed", False, ""),
        (2, "agreed", False, ""),
        (1, "director", True, reason),
        (2, "director", True, reason),
    ]
    assert response.json()["status"] == "verified"
    refused = client_for(_role(event, "cross_checker")).post(
        _table_url(event, "correct/"), {"lines": swapped, "reason": reason}
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "director_only"


def test_staff_enter_lines_from_paper_cards_with_their_role_as_source(event_in_play):
    event = event_in_play(10)
    table, a, b = _table(event)
    director = client_for(event.director)
    checker = client_for(_role(event, "cross_checker"))
    url = _table_url(event, "lines/")
    assert director.post(url, {"position": 1, "result": "won", "margin": 12}).status_code == 201
    bad = checker.post(url, {"position": 3, "result": "lost", "margin": 12})
    assert (bad.status_code, bad.json()["errors"][0]["field"]) == (400, "position")
    impossible = checker.post(url, {"position": 2, "result": "lost", "margin": 200})
    assert (impossible.status_code, impossible.json()["errors"][0]["field"]) == (400, "margin")
    response = checker.post(url, {"position": 2, "result": "lost", "margin": 12})
    assert response.status_code == 201
    assert response.json()["status"] == "verified"
    sources = CardLine.objects.filter(kind="reported").order_by("seat__position")
    assert [(line.seat_id, line.source) for line in sources] == [
        (a.pk, "director"),
        (b.pk, "cross_checker"),
    ]


def test_remind_leaves_a_notice_for_players_who_have_not_reported(event_in_play, anonymous):
    event = event_in_play(10)
    _, a, b = _table(event)
    anonymous.post(_report_url(a), {"result": "won", "margin": 9})
    response = client_for(event.director).post(_game_url(event, "remind/"))
    assert response.json() == {"reminded": 9}
    assert not Notice.objects.filter(entry=a.entry).exists()
    notices = anonymous.get(_report_url(b)).json()["notices"]
    assert [n["message"] for n in notices] == ["Please report game 1: did you win or lose?"]


# Who may call what


def _state() -> tuple:
    return (
        list(CardLine.objects.values_list("pk", "current")),
        list(Table.objects.values_list("pk", "status")),
        list(Game.objects.values_list("pk", "status")),
        Notice.objects.count(),
        TiePlayoff.objects.count(),
    )


# (method, path, body, director's status, whether a cross-checker may call it too)
ENDPOINTS = [
    ("get", "games/1/board/", None, 200, True),
    ("post", "games/1/close/", None, 200, False),
    ("post", "games/1/remind/", None, 200, False),
    ("get", "games/1/tables/1/", None, 200, True),
    ("post", "games/1/tables/1/lines/", {"position": 1, "result": "won", "margin": 7}, 201, True),
    ("post", "games/1/tables/1/cross-check/", None, 200, True),
    (
        "post",
        "games/1/tables/1/correct/",
        {"lines": [{"position": 1, "game_points": 2, "plus": 7}], "reason": "card"},
        200,
        True,
    ),
    ("get", "cross-checks/", None, 200, True),
]


@pytest.fixture
def event_for(event_in_play):
    """An event in play where table 1's two players both claim a win; for the cross-check,
    whose table must be flagged, the game is closed."""

    def make(path: str):
        event = event_in_play(10)
        _, a, b = _table(event)
        card_line_report(seat=a, won=True, spread=20)
        card_line_report(seat=b, won=True, spread=25)
        if path.endswith("cross-check/"):
            game_close(game=Game.objects.get(event=event, number=1), user=event.director)
        return event

    return make


def _call(client, event, method, path, body):
    return getattr(client, method)(f"{API}/events/{event.pk}/{path}", body)


@pytest.mark.parametrize(("method", "path", "body", "allowed", "checker_may"), ENDPOINTS)
def test_others_are_refused_and_change_nothing(
    event_for, other_director, anonymous, method, path, body, allowed, checker_may
):
    event = event_for(path)
    judge = client_for(_role(event, "judge"))
    checker = client_for(_role(event, "cross_checker"))
    before = _state()
    refused = _call(anonymous, event, method, path, body)
    assert refused.status_code in (401, 403, 404) and "errors" in refused.json()
    assert _call(other_director, event, method, path, body).status_code == 403
    assert _call(judge, event, method, path, body).status_code == 403
    if not checker_may:
        assert _call(checker, event, method, path, body).status_code == 403
    assert _state() == before, "a refused request changed something"


@pytest.mark.parametrize("who", ["director", "cross_checker"])
@pytest.mark.parametrize(("method", "path", "body", "allowed", "checker_may"), ENDPOINTS)
def test_the_event_staff_may_call_it(event_for, who, method, path, body, allowed, checker_may):
    event = event_for(path)
    user = event.director if who == "director" else _role(event, "cross_checker")
    response = _call(client_for(user), event, method, path, body)
    expected = allowed if who == "director" or checker_may else 403
    assert response.status_code == expected, response.json()


def test_a_missing_game_or_table_is_not_found(event_in_play):
    event = event_in_play(10)
    director = client_for(event.director)
    assert director.get(f"{API}/events/{event.pk}/games/9/board/").status_code == 404
    assert director.post(f"{API}/events/{event.pk}/games/9/close/").status_code == 404
    assert director.get(_table_url(event, table=99)).status_code == 404
    assert director.get(f"{API}/events/999999/cross-checks/").status_code == 404
