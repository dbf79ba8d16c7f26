"""Results through the pages: a player reports from their link, the director watches the
board and closes the game, a cross-checker settles a flagged table, everyone reads standings."""

import pytest

from tests.factories import UserFactory
from tests.helpers import link_account
from tournaments.models import CardLine, Event, EventRole, Table

pytestmark = pytest.mark.django_db


def _seats(event, table_number=1):
    table = Table.objects.get(game__event=event, game__number=1, number=table_number)
    return table, *table.seats.select_related("entry").order_by("position")


def _report(client, seat, result, margin, confirm=True):
    url = f"/r/{seat.entry.report_token}/"
    data = {"result": result, "margin": margin}
    if confirm:
        data["confirm"] = "1"
    return client.post(url, data)


def test_player_previews_then_saves_and_the_opponent_confirms(
    client, event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(10)
    table, a, b = _seats(event)
    page = client.get(f"/r/{a.entry.report_token}/").content.decode()
    assert "Table <strong>1</strong>" in page and b.entry.player.name in page
    preview = _report(client, a, "won", 35, confirm=False).content.decode()
    assert "A win by 35 is a skunk: 3 game points" in preview
    assert not CardLine.objects.exists()
    assert _report(client, a, "won", 35).status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        _report(client, b, "lost", 35)
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    card = client.get(f"/r/{a.entry.report_token}/").content.decode()
    assert "Both cards agree: this game is verified." in card and "verified</span>" in card
    Event.objects.filter(pk=event.pk).update(published=True)
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert a.entry.player.name in standings


def test_impossible_margins_are_refused_in_words_a_player_understands(client, event_in_play):
    event = event_in_play(10)
    _, a, _ = _seats(event)
    response = _report(client, a, "won", 122, confirm=False)
    assert response.status_code == 400
    assert "spread" in response.content.decode().lower()
    response = _report(client, a, "won", "", confirm=False)
    assert "Enter the margin" in response.content.decode()
    assert 'class="error"' in response.content.decode()
    assert not CardLine.objects.exists()
    # The next opening (the empty form, kept once per thread) shows none of those errors.
    page = client.get(f"/r/{a.entry.report_token}/").content.decode()
    assert 'class="error"' not in page
    assert 'name="margin"' in page


def test_a_revoked_link_stops_working(client, event_in_play):
    event = event_in_play(10)
    _, a, _ = _seats(event)
    old = a.entry.report_token
    client.force_login(event.director)
    client.post(f"/entries/{a.entry_id}/new-link/", {"confirm": "yes"})
    assert client.get(f"/r/{old}/").status_code == 404
    a.entry.refresh_from_db()
    assert client.get(f"/r/{a.entry.report_token}/").status_code == 200


def test_board_close_and_cross_check_through_the_pages(
    client, event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(10)
    table, a, b = _seats(event)
    _report(client, a, "won", 20)
    _report(client, b, "won", 20)  # both claim the win
    client.force_login(event.director)
    board = client.get(f"/events/{event.pk}/games/1/board/").content.decode()
    assert "Disagree" in board and "Waiting" in board
    client.post(f"/events/{event.pk}/games/1/remind/")
    assert (
        client.get(f"/r/{_seats(event, 2)[1].entry.report_token}/")
        .content.decode()
        .count("Please report game 1")
        == 1
    )
    client.post(f"/events/{event.pk}/games/1/close/", {"confirm": "yes"})
    checker = UserFactory()
    EventRole.objects.create(event=event, user=checker, role="cross_checker")
    client.force_login(checker)
    queue = client.get(f"/events/{event.pk}/cross-checks/").content.decode()
    assert "Game 1, table 1" in queue
    table_url = f"/events/{event.pk}/games/1/tables/1/"
    assert "Apply Rule 12.2" in client.get(table_url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(table_url + "cross-check/", follow=True)
    assert "Settled by Rule 12.2, cases e" in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    assert client.post(f"/events/{event.pk}/games/1/close/", {"confirm": "yes"}).status_code == 403


def test_director_enters_paper_cards_and_corrects_with_a_reason(client, event_in_play):
    event = event_in_play(10)
    table, a, b = _seats(event)
    client.force_login(event.director)
    url = f"/events/{event.pk}/games/1/tables/1/"
    client.post(url + "paper/", {"position": 1, "result": "won", "margin": 12})
    client.post(url + "paper/", {"position": 2, "result": "lost", "margin": 12})
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    assert CardLine.objects.filter(seat=a, kind="reported", source="director").exists()
    bad = client.post(
        url + "correct/",
        {
            "reason": "",
            "game_points_1": 2,
            "plus_1": 12,
            "minus_1": 0,
            "game_points_2": 0,
            "plus_2": 0,
            "minus_2": 12,
        },
    )
    assert bad.status_code == 400
    fix = {
        "reason": "Wrong spread copied",
        "game_points_1": 2,
        "plus_1": 14,
        "minus_1": 0,
        "game_points_2": 0,
        "plus_2": 0,
        "minus_2": 14,
    }
    assert client.post(url + "correct/", fix).status_code == 302
    history = client.get(url).content.decode()
    assert "Wrong spread copied" in history and "(replaced)" in history


def test_staff_pages_refuse_other_directors_and_visitors(client, event_in_play):
    event = event_in_play(10)
    urls = [
        f"/events/{event.pk}/games/1/board/",
        f"/events/{event.pk}/games/1/tables/1/",
        f"/events/{event.pk}/cross-checks/",
        f"/events/{event.pk}/scorecards/",
    ]
    client.force_login(UserFactory())
    for url in urls:
        assert client.get(url).status_code == 403, url
    client.logout()
    for url in urls:
        assert client.get(url).status_code == 302, url  # to log in
    assert client.get(f"/events/{event.pk}/standings/").status_code == 404  # not published


def test_scorecards_carry_a_qr_code_to_each_players_page(client, event_in_play):
    event = event_in_play(10)
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/scorecards/").content.decode()
    assert page.count("<svg") == 10
    token = event.entries.first().report_token
    assert f"/r/{token}/" in page


def test_a_player_with_an_account_reaches_their_page_without_the_link(client, event_in_play):
    event = event_in_play(10)
    entry = event.entries.first()
    user = UserFactory()
    link_account(entry.player, user)
    client.force_login(user)
    page = client.get("/me/").content.decode()
    assert f'href="/r/{entry.report_token}/"' in page and event.name in page
    client.force_login(UserFactory())
    assert "not linked" in client.get("/me/").content.decode()


def test_a_reminder_says_what_it_did(client, event_in_play):
    """Issue 22: "Reminded 12 player(s)" when only their pages changed and no e-mail went."""
    event = event_in_play(10)
    table, a, b = _seats(event)
    _report(client, a, "won", 20)
    _report(client, b, "lost", 20)  # table 1 is verified: 8 players have not reported
    client.force_login(event.director)
    board = client.get(f"/events/{event.pk}/games/1/board/").content.decode()
    assert "no e-mail or text is sent" in board
    answer = client.post(f"/events/{event.pk}/games/1/remind/", follow=True).content.decode()
    assert "Reminded" not in answer and "player(s)" not in answer
    assert "now shows on the private page of 8 players who have not reported" in answer
    assert "No e-mail or text was sent" in answer


def test_the_kept_form_fields_are_made_again_when_a_template_changes(settings):
    """The empty form's fields are rendered once per process; a template edited under
    runserver (the reloader's file_changed) or other template settings make them again."""
    from pathlib import Path

    from django.utils.autoreload import file_changed

    from tournaments.views import report

    first = report.unbound_report_fields()
    assert report.unbound_report_fields() is first  # kept
    file_changed.send(sender=None, file_path=Path("templates/tournaments/player/_keypad.html"))
    assert report.unbound_report_fields() is not first
    kept = report.unbound_report_fields()
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "OPTIONS": {**settings.TEMPLATES[0]["OPTIONS"]}}
    ]
    assert report.unbound_report_fields() is not kept


def test_a_page_opened_after_another_players_carries_only_its_own_link(client, event_in_play):
    """What the opening keeps per process (the offline element, the form, the scripts) never
    carries one player's private link into another's page."""
    event = event_in_play(10)
    _, a, b = _seats(event)
    first = client.get(f"/r/{a.entry.report_token}/").content.decode()
    second = client.get(f"/r/{b.entry.report_token}/").content.decode()
    assert a.entry.report_token in first and b.entry.report_token not in first
    assert b.entry.report_token in second and a.entry.report_token not in second
