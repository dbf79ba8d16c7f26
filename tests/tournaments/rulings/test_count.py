"""The count checker, on its page and in the API: the engine's count of a hand (the 29 hand),
of a whole play (the domain page's example), and clear errors that name the bad card."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.helpers import client_for

PLAY = {"pone": "KC 8C 4C 5C", "dealer": "5D 8D 6D 3D", "plays": "KC 5D 8C 8D 4C 6D 5C 3D"}


def test_the_count_checker_page_counts_the_29_hand():
    response = Client().get("/count/", {"check": "hand", "hand": "5h 5d 5s jc", "starter": "5C"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<strong>29</strong> for 5H 5D 5S JC with 5C" in html
    assert "four of a kind is twenty-eight, and nobs is twenty-nine" in html
    assert "fifteen 5H JC for 2" in html and "nobs JC 5C for 1" in html


def test_the_empty_page_shows_examples_as_placeholders():
    html = Client().get("/count/").content.decode()
    assert 'placeholder="5H 5D 5S JC"' in html and 'placeholder="5C"' in html
    assert 'placeholder="KC 5D 8C 8D 4C 6D 5C 3D"' in html
    assert "error" not in html.split("<main", 1)[1]


def test_the_crib_box_applies_the_crib_flush_rule():
    hand = {"check": "hand", "hand": "2H 4H 6H 8H", "starter": "KC"}
    assert "<strong>4</strong>" in Client().get("/count/", hand).content.decode()
    crib = Client().get("/count/", {**hand, "crib": "on"}).content.decode()
    assert "<strong>0</strong>" in crib and "(crib)" in crib


def test_the_page_checks_the_pegging():
    html = Client().get("/count/", {"check": "play", **PLAY}).content.decode()
    assert "thirty-one for 2, a pair for 2" in html
    assert "a run of 4 for 4, last card for 1" in html
    assert "Pone pegs <strong>5</strong>, dealer pegs <strong>11</strong>" in html


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        (
            {"check": "hand", "hand": "5H 5D 5S ZC", "starter": "5C"},
            "hand",
            "not a card: &#x27;ZC&#x27;",
        ),
        (
            {"check": "hand", "hand": "5H 5D 5S JC", "starter": "5H"},
            "starter",
            "5H is the starter and in the hand",
        ),
        (
            {"check": "hand", "hand": "5H 5D 5S", "starter": "5C"},
            "hand",
            "a hand has 4 cards, not 3",
        ),
        ({"check": "play", **PLAY, "plays": "KC 5D 8C 8D 4C 5C 6D 3D"}, "plays", "5C: renege"),
        ({"check": "play", **PLAY, "dealer": "5D 8D 6D"}, "dealer", "hand has 3 cards"),
        ({"check": "play", **PLAY, "pone": "KC 8C 4C 1C"}, "pone", "not a card: &#x27;1C&#x27;"),
    ],
)
def test_bad_cards_are_clear_errors_on_the_field(query, field, message):
    response = Client().get("/count/", query)
    assert response.status_code == 400
    html = response.content.decode()
    error = html.split(f'id="id_{field}_error">', 1)[1].split("</p>", 1)[0]
    assert message in error


def test_count_hand_api_is_open_to_anyone():
    response = client_for().post(
        "/api/v1/count/hand/", {"hand": "5H 5D 5S JC", "starter": "5C"}, format="json"
    )
    assert response.status_code == 200
    data = response.json()
    assert data["total"] == 29
    assert data["categories"] == {"fifteens": 16, "pairs": 12, "runs": 0, "flush": 0, "nobs": 1}
    assert {"kind": "nobs", "cards": ["JC", "5C"], "points": 1} in data["combinations"]
    assert len(data["combinations"]) == 15
    assert data["spoken"].endswith("and nobs is twenty-nine")


def test_count_hand_api_crib_and_errors():
    api = client_for()
    crib = api.post(
        "/api/v1/count/hand/", {"hand": "2H 4H 6H 8H", "starter": "KC", "crib": True}, format="json"
    )
    assert crib.json()["total"] == 0
    bad = api.post("/api/v1/count/hand/", {"hand": "5H 5D 5S XX", "starter": "5C"}, format="json")
    assert bad.status_code == 400
    error = bad.json()["errors"][0]
    assert (error["field"], error["code"]) == ("hand", "bad_card")
    assert "'XX'" in error["message"]
    missing = api.post("/api/v1/count/hand/", {"hand": "5H 5D 5S JC"}, format="json")
    assert missing.json()["errors"][0] == {
        "field": "starter",
        "code": "required",
        "message": "This field is required.",
    }


def test_count_play_api():
    api = client_for()
    response = api.post("/api/v1/count/play/", PLAY, format="json")
    assert response.status_code == 200
    data = response.json()
    assert [p["points"] for p in data["plays"]] == [0, 2, 0, 4, 0, 0, 5, 5]
    assert [p["player"] for p in data["plays"]] == ["pone", "dealer"] * 4
    assert data["plays"][3] == {
        "card": "8D",
        "player": "dealer",
        "count": 31,
        "points": 4,
        "reasons": ["thirty-one for 2", "a pair for 2"],
    }
    assert (data["pone_points"], data["dealer_points"]) == (5, 11)
    illegal = api.post(
        "/api/v1/count/play/", {**PLAY, "plays": "KC 5D 8C 8D 4C 5C 6D 3D"}, format="json"
    )
    assert illegal.status_code == 400
    error = illegal.json()["errors"][0]
    assert (error["field"], error["code"]) == ("plays", "illegal_play")
    assert "5C: renege, the dealer could play (6D 3D) at count 4" in error["message"]
