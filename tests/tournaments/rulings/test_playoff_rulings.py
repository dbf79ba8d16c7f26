"""Rulings in playoff match games: the board moves only through the engine, a ruling that ends
the game settles it (and the match score) as a reported game would, a judge never rules on a
match they play in, and only the event's judges and directors reach the form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import UserFactory
from tests.tournaments.rulings.conftest import make_judge
from tournaments.errors import ServiceError
from tournaments.models import Match, MatchGame, MatchLine, Playoff, Ruling
from tournaments.selectors.playoffs import matches_with_scores
from tournaments.services.playoffs import playoff_build
from tournaments.services.rulings_match import ruling_record_in_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def semi(qualified_event):
    """A best-of-3 semi-final in play (seed 1 has a bye to the final), with three judges."""
    event = qualified_event(12, 5, playoff_best_of={"every": 3})
    playoff_build(event_id=event.pk)
    match = Match.objects.get(playoff=Playoff.objects.get(event=event), round=1, slot=1)
    match.director = event.director  # set on the event by the fixture, not a field
    match.judges = [make_judge(event, first_name=name) for name in ("Ann", "Bea", "Cy")]
    return match


def record(match, code, *, offender=None, before=(0, 0), **kwargs):
    kwargs.setdefault("judges", match.judges[:2])
    kwargs.setdefault("entered_by", match.director)
    return ruling_record_in_match(
        match=match,
        code=code,
        offender_entry=offender or match.entry_a,
        score_before_offender=before[0],
        score_before_opponent=before[1],
        **kwargs,
    )


def verified(game) -> dict[int, tuple[int, int, int, str]]:
    lines = MatchLine.objects.filter(match_game=game, kind="verified", current=True)
    return {line.entry_id: (line.game_points, line.plus, line.minus, line.source) for line in lines}


def test_a_renege_moves_the_board_and_play_goes_on(semi):
    ruling = record(semi, "renege", before=(70, 30), reneged_cards=2)
    assert (ruling.score_after_offender, ruling.score_after_opponent) == (70, 34)
    assert not ruling.game_over and ruling.winner is None and ruling.table is None
    game = MatchGame.objects.get(match=semi)  # opened by the ruling, as a first report opens it
    assert ruling.match_game == game and (game.number, game.status) == (1, "open")
    assert verified(game) == {}
    semi.refresh_from_db()
    assert (semi.status, semi.winner_id) == ("playing", None)
    again = record(semi, "renege", offender=semi.entry_b, before=(34, 70), reneged_cards=1)
    assert again.match_game == game  # the same open game
    assert list(game.rulings.order_by("id")) == [ruling, again]


def test_a_false_claim_that_hands_the_opponent_the_game_settles_it_for_the_opponent(semi):
    a, b = semi.entry_a, semi.entry_b
    ruling = record(semi, "false_claim_of_game", before=(121, 115), true_score=100)
    assert ruling.game_over and ruling.winner == b
    game = ruling.match_game
    assert (game.status, game.winner_id) == ("verified", b.pk)
    assert verified(game) == {a.pk: (0, 0, 36, "ruling"), b.pk: (3, 36, 0, "ruling")}
    line = MatchLine.objects.get(match_game=game, entry=b, kind="verified", current=True)
    assert "False claim of game" in line.reason and a.player.name in line.reason
    assert line.entered_by == semi.director
    scores = matches_with_scores().get(pk=semi.pk)
    assert (scores.status, scores.wins_a, scores.wins_b) == ("playing", 0, 1)
    # The next ruling opens game 2; a second win for B decides the match and moves B on.
    second = record(semi, "false_claim_of_game", before=(121, 115), true_score=100)
    assert second.match_game.number == 2
    semi.refresh_from_db()
    assert (semi.status, semi.winner_id) == ("decided", b.pk)
    final = Match.objects.get(playoff=semi.playoff, round=2)
    assert b.pk in (final.entry_a_id, final.entry_b_id)
    with pytest.raises(ServiceError, match="already decided"):
        record(semi, "renege", reneged_cards=1)


def test_an_administrative_result_forfeits_the_game_to_the_opponent(semi):
    a, b = semi.entry_a, semi.entry_b
    ruling = record(semi, "late_from_lunch", offender=b, before=(40, 60))
    assert ruling.game_over and ruling.winner == a and ruling.beneficiary == a
    game = ruling.match_game
    assert (game.status, game.winner_id) == ("verified", a.pk)
    assert verified(game) == {a.pk: (2, 10, 0, "ruling"), b.pk: (0, 0, 10, "ruling")}


def test_a_judge_who_plays_in_the_match_is_refused_and_nothing_is_left(semi):
    player = semi.entry_a.player
    player.user = make_judge(semi.playoff.event)
    player.save()
    with pytest.raises(ServiceError) as error:
        record(semi, "renege", reneged_cards=1, judges=[semi.judges[0], player.user])
    assert (error.value.field, error.value.code) == ("judges", "judge_is_player")
    assert not Ruling.objects.exists() and not MatchGame.objects.exists()


def test_the_ruling_form_is_for_the_events_judges_and_directors(semi, client):
    event = semi.playoff.event
    url = reverse("match-ruling-form", args=[event.pk, semi.pk])
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(semi.director)
    detail = client.get(reverse("match-detail", args=[event.pk, semi.pk])).content.decode()
    assert url in detail and "Record a ruling" in detail
    client.force_login(semi.judges[0])
    judge_page = client.get(reverse("judge-page", args=[event.pk])).content.decode()
    assert url in judge_page, "judges reach the match's ruling form from their page"
    page = client.get(url)
    assert page.status_code == 200 and semi.entry_a.player.name in page.content.decode()
    data = {
        "code": "late_from_lunch",
        "offender": semi.entry_b_id,
        "score_before_offender": 40,
        "score_before_opponent": 60,
        "judges": [judge.pk for judge in semi.judges[:2]],
    }
    preview = client.post(url, data)
    assert preview.status_code == 200 and "Save this ruling" in preview.content.decode()
    assert not Ruling.objects.exists()
    saved = client.post(url, {**data, "confirm": "1"})
    assert saved.status_code == 302 and saved.url == reverse("ruling-list", args=[event.pk])
    ruling = Ruling.objects.get()
    assert ruling.match_game.winner_id == semi.entry_a_id
    listing = client.get(saved.url).content.decode()
    assert "playoffs" in listing
