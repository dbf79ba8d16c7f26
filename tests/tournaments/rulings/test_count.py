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


# Three and four players (the domain page's three-seat example, played to the end).
THREE = {
    "pone": "KC 5C 9C 8C",
    "second": "5D 9D 8D 7D",
    "dealer": "10H 9H 8H 7H",
    "plays": "KC 5D 10H 5C 9D 9H 9C 8D 8H 8C 7D 7H",
}
FOUR = {
    "pone": "4C 9C KC AC",
    "second": "2D 9D KD QD",
    "third": "3H 9H KH JH",
    "dealer": "5S 9S KS 10S",
    "plays": "4C 2D 3H 5S 9C AC 9D 9H 9S KC KD KH KS QD JH 10S",
}


def test_the_page_checks_a_three_handed_play():
    response = Client().get("/count/", {"check": "play", **THREE})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<strong>5D</strong> by the second player, count 15:" in html
    assert (
        "<strong>5C</strong> by the pone, count 30:\n            <strong>1</strong> (go for 1)"
        in html
    )
    assert (
        "Pone pegs <strong>14</strong>, second player pegs <strong>4</strong>, "
        "dealer pegs <strong>5</strong>." in html
    )
    assert "Partners" not in html


def test_the_page_checks_a_four_handed_play_with_partners():
    html = Client().get("/count/", {"check": "play", **FOUR}).content.decode()
    assert "<strong>JH</strong> by the third player, count 30:" in html
    assert (
        "Pone pegs <strong>1</strong>, second player pegs <strong>2</strong>, third player "
        "pegs <strong>16</strong>, dealer pegs <strong>12</strong>." in html
    )
    assert (
        "Partners: pone and third player peg <strong>17</strong>; second player and dealer "
        "peg <strong>14</strong>." in html
    )


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        (
            {**THREE, "plays": "KC 5D 10H 7D 5C 9D 9H 9C 8D 8H 8C 7H"},
            "plays",
            "7D: the second player had to say go (no card fits under 31); the pone could play "
            "(5C) at count 25",
        ),
        ({**THREE, "second": "5D 9D 8D"}, "second", "this hand has 3 cards, not 4"),
        ({**THREE, "dealer": "10H 9H 8H 5D"}, "dealer", "5D is in more than one hand"),
        ({**THREE, "plays": THREE["plays"][:-3]}, "plays", "all 12 must be laid"),
        ({**FOUR, "second": ""}, "second", "Fill in the second player&#x27;s cards too"),
    ],
)
def test_three_and_four_hand_errors_are_on_the_box(query, field, message):
    response = Client().get("/count/", {"check": "play", **query})
    assert response.status_code == 400
    html = response.content.decode()
    error = html.split(f'id="id_{field}_error">', 1)[1].split("</p>", 1)[0]
    assert message in error


def test_count_play_api_takes_three_or_four_hands():
    api = client_for()
    hands = [THREE["pone"], THREE["second"], THREE["dealer"]]
    three = api.post("/api/v1/count/play/", {"hands": hands, "plays": THREE["plays"]}, "json")
    assert three.status_code == 200
    data = three.json()
    assert (data["points"], data["team_points"]) == ([14, 4, 5], None)
    assert data["plays"][3] == {
        "card": "5C",
        "seat": 0,
        "player": "seat 0",
        "count": 30,
        "points": 1,
        "reasons": ["go for 1"],
    }
    hands = [FOUR[field] for field in ("pone", "second", "third", "dealer")]
    four = api.post("/api/v1/count/play/", {"hands": hands, "plays": FOUR["plays"]}, "json")
    assert (four.json()["points"], four.json()["team_points"]) == ([1, 2, 16, 12], [17, 14])


@pytest.mark.parametrize(
    ("body", "field", "code", "message"),
    [
        (
            {"hands": ["KC 5C 9C 8C", "5D 9D 8D 7D", "10H 9H 8H 7H"], "plays": "KC 5D 10H 7D"},
            "plays",
            "illegal_play",
            "the play has 4 cards; all 12 must be laid",
        ),
        (
            {
                "hands": ["KC 5C 9C 8C", "5D 9D 8D 7D", "10H 9H 8H 7H"],
                "plays": "KC 5D 10H 7D 5C 9D 9H 9C 8D 8H 8C 7H",
            },
            "plays",
            "illegal_play",
            "7D: seat 1 had to say go",
        ),  # fmt: skip
        ({"hands": ["KC 5C 9C 8C", "5D 9D 8D XD"], "plays": "KC"}, "hands.1", "bad_card", "XD"),
        ({**PLAY, "hands": ["KC 5C 9C 8C", "5D 9D 8D 7D"]}, "hands", "invalid", "either"),
        ({"hands": ["AC 2C 3C 4C"] * 5, "plays": "AC"}, "hands", "max_length", "4"),
    ],
)
def test_count_play_api_with_hands_refuses_clearly(body, field, code, message):
    response = client_for().post("/api/v1/count/play/", body, format="json")
    assert response.status_code == 400
    error = response.json()["errors"][0]
    assert (error["field"], error["code"]) == (field, code)
    assert message in error["message"]
