"""A merge moves everything that names the merged record (night cards, club and MRP awards,
record changes, ratings worked out again), and merge-then-undo leaves every page and API answer
of both players as it was."""

import re
from datetime import date

import pytest
from django.test import Client

from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.helpers import client_for, play_night
from tournaments.models import (
    ClubAward,
    Entry,
    Event,
    MrpAward,
    NightCard,
    Player,
    RatingPoint,
    RecordChange,
)
from tournaments.services import players as merges
from tournaments.services.clubs import club_award_record
from tournaments.services.ledger import event_finalise_request
from tournaments.services.night_cards import night_cards_rebuild_all
from tournaments.services.players import player_merge, player_merge_undo
from tournaments.services.ratings import ratings_recompute_all
from tournaments.services.record_changes import refresh_ledgers_naming

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_records(finished_event, django_capture_on_commit_callbacks):
    """One person on two records: ``keep`` (a club regular with an account) and ``gone`` (the
    same person entered at a sanctioned weekend, and at one club night, under a second record).
    """
    capture = django_capture_on_commit_callbacks
    weekend = finished_event()
    Event.objects.filter(pk=weekend.pk).update(published=True)
    with capture(execute=True):
        event_finalise_request(event=weekend, user=weekend.director)
    award = MrpAward.objects.filter(event=weekend, current=True).order_by("-points").first()
    gone = award.player  # entered with no ACC number that weekend
    Player.objects.filter(pk=gone.pk).update(acc_number="")
    gone.refresh_from_db()
    with capture(execute=True):
        refresh_ledgers_naming([gone], "entered with no ACC number")
    director = UserFactory()
    club = ClubFactory(name="Tuesday Pegs", director=director)
    keep = PlayerFactory(name="Ann Able", user=UserFactory())
    others = [PlayerFactory(name=f"Member {i:02}") for i in range(9)]
    play_night(club, director, [keep, *others], date(2026, 9, 8), capture)
    night = play_night(club, director, [*others, gone], date(2026, 9, 15), capture)
    club_award_record(
        club=club, user=director, entry=Entry.objects.get(event=night, player=gone),
        kind="grand_slam",
    )  # fmt: skip
    RecordChange.objects.create(
        player=gone, field="name", old_value="A. Able", new_value=gone.name, status="applied"
    )
    ratings_recompute_all()
    return keep, gone, club


def _snapshot(keep: Player, gone: Player, club) -> dict[str, str]:
    """Every page and API answer that shows either player, as text (random ids left out)."""
    anyone, me = client_for(), Client()
    me.force_login(keep.user)
    urls = [
        *(f"/players/{p.pk}/" for p in (keep, gone)),
        *(f"/api/v1/players/{p.pk}/" for p in (keep, gone)),
        *(f"/players/{p.pk}/rating.svg" for p in (keep, gone)),
        *(f"/players/{p.pk}/chart.svg" for p in (keep, gone)),
        f"/clubs/{club.pk}/seasons/2026/", f"/api/v1/clubs/{club.pk}/standings/?season=2026",
        "/grass-roots/2026/", "/api/v1/grass-roots/2026/",
        "/players/", "/api/v1/leaderboards/mrp/",
        "/ratings/?provisional=1", "/api/v1/ratings/?provisional=true",
    ]  # fmt: skip
    pages = {url: anyone.get(url) for url in urls}
    pages["/me/"] = me.get("/me/")
    out = {}
    for url, answer in pages.items():
        assert answer.status_code == 200, url
        text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", answer.content.decode())
        out[url] = re.sub(r"[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", "", text)  # a chart's id
    return out


def _rows(player: Player) -> dict[str, list]:
    return {
        "entries": sorted(player.entries.values_list("pk", flat=True)),
        "night_cards": sorted(player.night_cards.values_list("event_id", flat=True)),
        "club_awards": sorted(player.club_awards.values_list("kind", flat=True)),
        "mrp_awards": sorted(
            player.mrp_awards.filter(current=True).values_list("points", flat=True)
        ),
        "record_changes": sorted(player.record_changes.values_list("pk", flat=True)),
        "rating_points": sorted(player.rating_points.values_list("event_id", flat=True)),
    }


def test_a_merge_moves_everything_and_its_undo_gives_every_page_back(
    two_records, django_capture_on_commit_callbacks
):
    keep, gone, club = two_records
    admin = UserFactory(is_staff=True)
    before = _snapshot(keep, gone, club)
    had = {"keep": _rows(keep), "gone": _rows(gone)}
    with django_capture_on_commit_callbacks(execute=True):
        merge = player_merge(keep=keep, merge=gone, user=admin)
    moved = _rows(keep)
    for name, rows in moved.items():  # the kept record holds both records' history
        if name != "rating_points":
            assert rows == sorted(had["keep"][name] + had["gone"][name]), name
    assert set(moved["rating_points"]) >= set(had["gone"]["rating_points"])
    assert not any(_rows(gone).values())
    national = client_for().get("/api/v1/grass-roots/2026/").json()["results"]
    assert [r["nights"] for r in national if r["player_id"] == keep.pk] == [2]
    night_cards_rebuild_all()  # a job rebuilds the cards while merged: they name the kept record
    with django_capture_on_commit_callbacks(execute=True):
        player_merge_undo(merge=merge, user=admin)
    keep.refresh_from_db()
    gone.refresh_from_db()
    assert {"keep": _rows(keep), "gone": _rows(gone)} == had
    after = _snapshot(keep, gone, club)
    assert [url for url in before if after[url] != before[url]] == []


def test_every_relation_to_a_player_is_handled_by_a_merge():
    related = {rel.get_accessor_name() for rel in Player._meta.related_objects}
    assert related == set(getattr(merges, "MOVES", ()))
    assert NightCard._meta.get_field("entry") and ClubAward._meta.get_field("event")
    assert RatingPoint._meta.get_field("player").remote_field.on_delete.__name__ == "CASCADE"


def test_two_records_waiting_on_the_same_change_are_not_merged():
    keep, gone = PlayerFactory(), PlayerFactory(acc_number="")
    for player in (keep, gone):
        RecordChange.objects.create(player=player, field="name", new_value="Ann")
    with pytest.raises(Exception, match=f"/players/{gone.pk}/record/"):
        player_merge(keep=keep, merge=gone, user=UserFactory(is_staff=True))
