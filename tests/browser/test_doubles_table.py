"""A doubles table from the partners' phones: a partner reports the team's result, a partner
of the other team confirms it, and every partner's page follows; the wall names the teams."""

import pytest

from tests.browser.conftest import screenshot
from tests.factories import EventFactory, UserFactory
from tournaments.models import Event, Game, Table
from tournaments.services.entries import Registration
from tournaments.services.events import event_close_registration
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.teams import team_register

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_partners_report_and_confirm_from_their_own_phones(open_page, live_server):
    director = UserFactory()
    event = EventFactory(director=director, style="doubles", qualifying_games=3)
    for first, second in (("Ann Ash", "Bo Birch"), ("Cy Cole", "Di Dunn"), ("Ed Eyre", "Flo Fenn"),
                          ("Gus Gale", "Hal Hume")):  # fmt: skip
        team_register(
            event=event,
            players=[Registration(name=first, new_player=True),
                     Registration(name=second, new_player=True)],
            user=director,
            check_in=True,
        )  # fmt: skip
    event_close_registration(event=event, user=director)
    game_pairings_request(event=event, number=1, user=director)
    game_publish(game=Game.objects.get(event=event, number=1), user=director)
    Event.objects.filter(pk=event.pk).update(published=True)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    seats = {
        s.position: s.entry for s in table.seats.select_related("entry__team", "entry__player")
    }
    ours, theirs = seats[1].team, seats[2].team

    partner = open_page(f"{live_server.url}/r/{seats[3].report_token}/")  # opposite seat 1
    assert f"Team {ours.name}. Either of you reports" in partner.locator("body").inner_text()
    assert theirs.name in partner.locator(".current-game").inner_text()
    partner.get_by_text("I won").click()
    partner.get_by_label("By how many points (spread)?").fill("22")
    partner.get_by_role("button", name="Check my result").click()
    partner.get_by_role("button", name="Save this result").click()
    # The page's queue sends it and the live part follows the server's answer.
    waiting = f"Saved. Waiting for {theirs.name} to report."
    partner.locator(".state", has_text=waiting).wait_for(timeout=8000)
    assert partner.locator(".state").inner_text() == waiting
    screenshot(partner, "doubles-partner-waiting")

    opponent = open_page(f"{live_server.url}/r/{seats[4].report_token}/")
    assert opponent.locator(".state").inner_text() == f"{ours.name} has reported: your turn."
    opponent.get_by_text("I lost").click()
    opponent.get_by_label("By how many points (spread)?").fill("22")
    opponent.get_by_role("button", name="Check my result").click()
    opponent.get_by_role("button", name="Save this result").click()
    opponent.locator(".state", has_text="Both cards agree").wait_for(timeout=8000)
    assert "Both cards agree: this game is verified." in opponent.content()
    screenshot(opponent, "doubles-opponent-verified")

    # The other partner of the reporting team, who reported nothing, sees it verified too.
    first = open_page(f"{live_server.url}/r/{seats[1].report_token}/")
    assert "verified" in first.locator(".card-table").inner_text()

    wall = open_page(f"{live_server.url}/events/{event.pk}/wall/", width=1920, height=1080)
    assert theirs.name in wall.locator("body").inner_text()
    screenshot(wall, "doubles-wall")


def test_the_doubles_standings_on_a_phone_name_teams_and_draw_the_cut_once(open_page, live_server):
    from tournaments.models import Team
    from tournaments.services.simulation import event_simulate

    event = event_simulate(
        players=16, games=2, seed=6, director=UserFactory(), style="doubles", stop_after_game=1,
        rulings=0,
    ).event  # fmt: skip
    named = Team.objects.filter(event=event).order_by("pk").first()
    Team.objects.filter(pk=named.pk).update(name="The Pegs")
    page = open_page(f"{live_server.url}/events/{event.pk}/standings/")
    partners = " and ".join(player.name for player in named.players)
    assert f"The Pegs ({partners})" in page.locator("table.standings").inner_text()
    cut = page.locator("tr.cut-line")
    assert cut.count() == 1
    # On a phone each row is a card: the cut is one thick line under the last qualifier's
    # card, not a line under each of its figures.
    style = "(el, side) => getComputedStyle(el)[side]"
    assert cut.evaluate(style, "borderBottomWidth") == "5px"
    for cell in cut.locator("td").all():
        assert cell.evaluate(style, "borderBottomWidth") == "0px"
    screenshot(page, "doubles-standings-phone")
