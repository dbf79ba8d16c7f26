"""The director's workflow through the pages: create, enter players, pair, publish, print."""

from itertools import combinations

import pytest

from tests.factories import UserFactory
from tournaments.models import Entry, Event, Game, Seat

pytestmark = pytest.mark.django_db

CSV = "name,acc_number,club\n" + "".join(
    f"Player {i:02},A{i:04},Club {i % 3}\n" for i in range(1, 9)
)
# The answers to "Which clubs are these?": the clubs are new to Pegboard.
NEW_CLUBS = {f"club_{n}": "new" for n in range(3)} | {
    f"club_name_{n}": f"Club {n}" for n in range(3)
}


@pytest.fixture
def director(client):
    user = UserFactory(username="td")
    client.force_login(user)
    return user


def _create(client, preset="grass-roots", name="Tuesday Night"):
    response = client.post("/events/new/", {"name": name, "preset": preset})
    assert response.status_code == 302, response.content.decode()
    return Event.objects.get(name=name)


def _fill_and_start(client, event, extra_walk_ins=2):
    upload = {"check_in": "on", "file": _file(CSV), **NEW_CLUBS}
    assert client.post(f"/events/{event.pk}/entries/import/", upload).status_code == 302
    for i in range(extra_walk_ins):
        form = {"name": f"Walk In {i}", "check_in": "on"}
        assert client.post(f"/events/{event.pk}/entries/add/", form).status_code == 302
    client.post(f"/events/{event.pk}/close-registration/")
    event.refresh_from_db()


def _file(text, name="players.csv"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, text.encode(), content_type="text/csv")


def _pair(client, event, number, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/events/{event.pk}/games/{number}/pair/")
    assert response.status_code == 302
    return Game.objects.get(event=event, number=number)


def test_a_club_night_is_set_up_and_paired_through_the_pages(
    client, director, django_capture_on_commit_callbacks
):
    event = _create(client)
    assert (event.preset, event.qualifying_games, event.kind) == ("grass-roots", 9, "club_night")
    _fill_and_start(client, event)
    assert event.stage == Event.Stage.QUALIFYING
    for number in range(1, 10):
        game = _pair(client, event, number, django_capture_on_commit_callbacks)
        assert game.status == Game.Status.PAIRED, game.job.error
        client.post(f"/events/{event.pk}/games/{number}/publish/")
    opponents = [
        frozenset(s.entry_id for s in Seat.objects.filter(table=t))
        for g in event.games.all()
        for t in g.tables.all()
    ]
    assert len(opponents) == 45 == len(set(opponents)), "10 players, 9 games: a round robin"
    page = client.get(f"/events/{event.pk}/games/9/").content.decode()
    assert "Player 01" in page and "Walk In 0" in page
    printed = client.get(f"/events/{event.pk}/games/9/print/").content.decode()
    assert printed.count('<span class="num">') == 5 + 10


def test_import_with_bad_rows_names_them_and_saves_nothing(client, director):
    event = _create(client)
    bad = "name,email\nAnn,ann@example.org\n,bob@example.org\nCy,not-an-address\nAnn,\n"
    response = client.post(f"/events/{event.pk}/entries/import/", {"file": _file(bad)})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Row 3, name: A name is required." in html
    assert "Row 4, email: &#x27;not-an-address&#x27; is not an e-mail address." in html
    assert "Row 5, name: Same player as row 2." in html
    assert not Entry.objects.filter(event=event).exists()


def test_impossible_schedule_is_explained_before_play_starts(client, director):
    event = _create(client, preset="acc-main", name="Spring Open")
    upload = {"check_in": "on", "file": _file(CSV), **NEW_CLUBS}
    client.post(f"/events/{event.pk}/entries/import/", upload)
    response = client.post(f"/events/{event.pk}/close-registration/", follow=True)
    event.refresh_from_db()
    assert event.stage == Event.Stage.REGISTRATION
    assert "22 games" in response.content.decode()


def test_settings_change_before_play_but_not_after(
    client, director, django_capture_on_commit_callbacks
):
    event = _create(client)
    form = {
        k: v
        for k, v in client.get(f"/events/{event.pk}/settings/").context["form"].initial.items()
        if v is not None
    }
    form.update(qualifying_games=8, best_of_all="3", muggins="")
    assert client.post(f"/events/{event.pk}/settings/", form).status_code == 302
    event.refresh_from_db()
    assert event.qualifying_games == 8
    _fill_and_start(client, event)
    _pair(client, event, 1, django_capture_on_commit_callbacks)
    form["qualifying_games"] = 7
    response = client.post(f"/events/{event.pk}/settings/", form)
    # A page opened before game 1 was paired still sends the fixed inputs: refused, saying so.
    assert response.status_code == 400
    assert "Game 1 was paired after this page was opened, so Qualifying games can no" in (
        response.content.decode()
    )
    event.refresh_from_db()
    assert event.qualifying_games == 8


def test_late_entry_and_withdrawal_between_games(
    client, director, django_capture_on_commit_callbacks
):
    event = _create(client)
    _fill_and_start(client, event)
    _pair(client, event, 1, django_capture_on_commit_callbacks)
    leaver = Entry.objects.get(event=event, player__name="Player 01")
    asked = client.post(f"/entries/{leaver.pk}/withdraw/")  # the first tap only asks
    assert "Yes, withdraw Player 01" in asked.content.decode()
    leaver.refresh_from_db()
    assert leaver.status == "checked_in"
    client.post(f"/entries/{leaver.pk}/withdraw/", {"confirm": "yes"})
    client.post(f"/events/{event.pk}/entries/add/", {"name": "Late Larry"})
    late = Entry.objects.get(event=event, player__name="Late Larry")
    assert (late.status, late.joined_from_game) == ("checked_in", 2)
    game2 = _pair(client, event, 2, django_capture_on_commit_callbacks)
    seated = set(game2.seats.values_list("entry_id", flat=True))
    assert late.pk in seated and leaver.pk not in seated
    assert len(seated) == 10 and game2.seats.filter(table__isnull=True).count() == 0


def test_repair_gives_a_fresh_valid_pairing(client, director, django_capture_on_commit_callbacks):
    event = _create(client)
    _fill_and_start(client, event, extra_walk_ins=1)  # 9 players: a sit-out each game
    game = _pair(client, event, 1, django_capture_on_commit_callbacks)
    old_seed = game.seed
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/events/{event.pk}/games/1/repair/", {"confirm": "yes"})
    game.refresh_from_db()
    assert game.status == Game.Status.PAIRED and game.seed != old_seed
    assert game.seats.count() == 9 and game.seats.filter(table__isnull=True).count() == 1
    assert sorted(game.tables.values_list("number", flat=True)) == [1, 2, 3, 4]


class TestWhoMaySee:
    def test_another_director_and_visitors_are_refused(
        self, client, director, django_capture_on_commit_callbacks
    ):
        event = _create(client)
        _fill_and_start(client, event)
        _pair(client, event, 1, django_capture_on_commit_callbacks)
        urls = [f"/events/{event.pk}/manage/", f"/events/{event.pk}/settings/"]
        client.force_login(UserFactory())
        for url in urls:
            assert client.get(url).status_code == 403
        assert client.post(f"/events/{event.pk}/games/2/pair/").status_code == 403
        client.logout()
        for url in urls:
            assert client.get(url).status_code == 302  # to the login page
        assert client.get(f"/events/{event.pk}/games/1/").status_code == 404

    def test_published_pairings_are_public(
        self, client, director, django_capture_on_commit_callbacks
    ):
        event = _create(client)
        _fill_and_start(client, event)
        _pair(client, event, 1, django_capture_on_commit_callbacks)
        Event.objects.filter(pk=event.pk).update(published=True)
        client.logout()
        assert client.get(f"/events/{event.pk}/games/1/").status_code == 404  # still a draft
        client.force_login(director)
        client.post(f"/events/{event.pk}/games/1/publish/")
        client.logout()
        page = client.get(f"/events/{event.pk}/games/1/")
        assert page.status_code == 200 and "Re-pair" not in page.content.decode()


def test_pairings_page_queries_do_not_grow_with_the_field(
    client, director, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    event = _create(client, preset="acc-main", name="Big")
    rows = "name\n" + "".join(f"P{i}\n" for i in range(60))
    client.post(f"/events/{event.pk}/entries/import/", {"file": _file(rows), "check_in": "on"})
    client.post(f"/events/{event.pk}/close-registration/")
    _pair(client, event, 1, django_capture_on_commit_callbacks)
    with django_assert_max_num_queries(8):
        client.get(f"/events/{event.pk}/games/1/")
    assert all(len(set(p)) == 2 for p in combinations(range(2), 2))


def test_director_gives_judge_and_cross_checker_roles(client, director):
    event = _create(client)
    UserFactory(username="judy")
    response = client.post(f"/events/{event.pk}/roles/", {"person": "judy", "role": "judge"})
    assert response.status_code == 302
    assert event.roles.filter(user__username="judy", role="judge").exists()
    missing = client.post(f"/events/{event.pk}/roles/", {"person": "nobody", "role": "judge"})
    assert missing.status_code == 400 and "has an account" in missing.content.decode()
    client.force_login(UserFactory())
    refused = client.post(f"/events/{event.pk}/roles/", {"person": "judy", "role": "director"})
    assert refused.status_code == 403


def test_no_stale_job_state_above_a_finished_pairing(
    client, director, django_capture_on_commit_callbacks
):
    """Issue 22: "Pairing game 1: waiting to start." stood above game 1's finished tables."""
    event = _create(client)
    _fill_and_start(client, event)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/events/{event.pk}/games/1/pair/")
    page = client.get(response["Location"]).content.decode()
    assert Game.objects.get(event=event, number=1).job.status == "succeeded"
    assert "By table" in page
    assert "waiting" not in page.lower()
    job = Game.objects.get(event=event, number=1).job
    job_page = client.get(f"/jobs/{job.pk}/").content.decode()
    assert "Finished" in job_page and job.message not in job_page  # "Saving the tables"


def test_the_late_entry_words_never_name_a_game_after_the_last(
    client, director, django_capture_on_commit_callbacks
):
    """Issue 22: "a new player joins from game 23" in a 22-game event."""
    event = _create(client)
    Event.objects.filter(pk=event.pk).update(qualifying_games=2)
    _fill_and_start(client, event)
    _pair(client, event, 1, django_capture_on_commit_callbacks)
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    assert "a new player joins from game 2 of 2" in page
    _pair(client, event, 2, django_capture_on_commit_callbacks)
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    assert "joins from game 3" not in page
    assert "All 2 qualifying games are paired: a player entered now plays none of them." in page
