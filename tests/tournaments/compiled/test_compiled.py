"""Queries compiled once (``selectors.compiled``) return what the ORM returns for the same
queryset, for any value asked, and on PostgreSQL run as prepared statements."""

import pytest
from django.db import connection
from django.db.models import Count
from django.db.models.signals import post_init

from tournaments.models import Entry, Player, Seat, Table
from tournaments.selectors import compiled as compiled_module
from tournaments.selectors.compiled import Compiled
from tournaments.selectors.report import player_state

pytestmark = pytest.mark.django_db

SEATS = Compiled(
    lambda entry_id: (
        Seat.objects.filter(entry_id=entry_id)
        .select_related("game__event", "table", "entry__player")
        .annotate(lines=Count("card_lines"))
        .order_by("game__number")
    ),
    int,
)
# Some columns left out (``only``), and a nullable relation that may be missing (a sit-out's
# table): the instances must be deferred and empty where the ORM's are.
PART_READ = Compiled(
    lambda event_id: (
        Seat.objects.filter(game__event_id=event_id)
        .select_related("entry__player", "table")
        .only("position", "table__number", "entry__status", "entry__player__name")
        .order_by("pk")
    ),
    int,
)
NAMES = Compiled(
    lambda token, number: (
        Seat.objects.filter(entry__report_token=token, game__number=number)
        .values_list("entry__player__name", "game__number", "table__number")
        .order_by()
    ),
    str,
    int,
)


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_model_rows_match_the_orm_with_related_objects_and_annotations(event_in_play, monkeypatch):
    made = []
    direct = compiled_module._from_db
    monkeypatch.setattr(
        compiled_module, "_from_db", lambda model, *args: made.append(model) or direct(model, *args)
    )
    event = event_in_play(10)
    for entry in Entry.objects.filter(event=event):
        made.clear()
        compiled = SEATS.rows(entry.pk)
        # Made directly (``_from_db``), not by Django: the seat and its five related objects.
        assert sorted(m.__name__ for m in made) == [
            "Entry", "Event", "Game", "Player", "Seat", "Table"
        ]  # fmt: skip
        orm = list(SEATS.build(entry.pk))
        assert len(compiled) == len(orm) == 1
        for mine, theirs in zip(compiled, orm, strict=True):
            assert _fields(mine) == _fields(theirs)
            assert _fields(mine.game.event) == _fields(theirs.game.event)
            assert _fields(mine.entry.player) == _fields(theirs.entry.player)
            assert (mine.table and _fields(mine.table)) == (theirs.table and _fields(theirs.table))
            assert mine.lines == theirs.lines
            for made_here in (mine, mine.game, mine.game.event, mine.entry, mine.entry.player):
                assert made_here._state.adding is False and made_here._state.db == "default"


def test_columns_left_out_stay_deferred_as_the_orms_and_load_when_read(event_in_play):
    event = event_in_play(9)  # an odd field: one seat sits out, with no table
    compiled, orm = PART_READ.rows(event.pk), list(PART_READ.build(event.pk))
    assert len(compiled) == len(orm) > 1
    assert any(seat.table is None for seat in compiled)
    for mine, theirs in zip(compiled, orm, strict=True):
        assert mine.get_deferred_fields() == theirs.get_deferred_fields() != set()
        assert mine.entry.get_deferred_fields() == theirs.entry.get_deferred_fields()
        assert mine.entry.player.get_deferred_fields() == theirs.entry.player.get_deferred_fields()
        assert (mine.pk, mine.position, mine.entry.status, mine.entry.player.name) == (
            theirs.pk,
            theirs.position,
            theirs.entry.status,
            theirs.entry.player.name,
        )
        assert (mine.table and mine.table.number) == (theirs.table and theirs.table.number)
        assert mine.__dict__.keys() == theirs.__dict__.keys()
        assert mine._state.adding is False and mine._state.db == "default"
        assert mine._state.fields_cache.keys() == theirs._state.fields_cache.keys()
    # A column left out is read from the database when asked for, as Django does.
    seat = compiled[0]
    assert seat.game_id == Seat.objects.get(pk=seat.pk).game_id
    assert "game_id" not in seat.get_deferred_fields()


def test_a_receiver_of_post_init_sees_every_instance_made(event_in_play):
    """Instances are made without ``Model.__init__`` only while nothing listens to its signals:
    with a receiver, they are made by Django (each sent ``post_init``)."""
    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    seen = []

    def note(sender, instance, **kwargs):
        seen.append(type(instance).__name__)

    post_init.connect(note)
    try:
        (seat,) = SEATS.rows(entry.pk)
    finally:
        post_init.disconnect(note)
    assert sorted(seen) == ["Entry", "Event", "Game", "Player", "Seat", "Table"]
    seen.clear()
    SEATS.rows(entry.pk)
    assert seen == []


@pytest.fixture
def made_its_own_way(monkeypatch):
    """``patch(model, name, value)``: the model given a way of making instances of its own,
    with ``_plain``'s answers forgotten then and after the test (once the patch is undone)."""

    def patch(model, name, value):
        monkeypatch.setattr(model, name, value)
        compiled_module._plain.cache_clear()

    compiled_module._plain.cache_clear()
    yield patch
    compiled_module._plain.cache_clear()


def test_a_related_model_with_its_own_from_db_is_made_by_it(event_in_play, made_its_own_way):
    """A model of the row with a ``from_db`` of its own, here a ``select_related`` one, gets
    its instances from it, as Django's own iteration would."""
    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    made, djangos = [], Player.from_db.__func__

    def from_db(cls, db, field_names, values):
        made.append(cls.__name__)
        return djangos(cls, db, field_names, values)

    made_its_own_way(Player, "from_db", classmethod(from_db))
    (seat,) = SEATS.rows(entry.pk)
    assert made == ["Player"] and seat.entry.player.name == entry.player.name


@pytest.mark.parametrize("name", ["__new__", "__init__", "__setattr__"])
def test_a_model_that_makes_its_instances_its_own_way_is_made_by_django(name, made_its_own_way):
    """A model (or a class of its own above it) defining how an instance is made keeps its
    rows on Django's path."""
    assert compiled_module._plain(Player)
    own = {"__new__": object.__new__, "__init__": Player.__init__}.get(name, object.__setattr__)
    made_its_own_way(Player, name, own)
    assert not compiled_module._plain(Player)


def test_values_rows_and_several_arguments(event_in_play):
    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    assert NAMES.rows(entry.report_token, 1) == list(NAMES.build(entry.report_token, 1))
    assert NAMES.rows(entry.report_token, 1)[0][0] == entry.player.name
    assert NAMES.rows(entry.report_token, 2) == []
    assert NAMES.first("no-such-link", 1) is None


def test_a_missing_or_none_value_is_refused():
    with pytest.raises(TypeError):
        NAMES.rows("a-link")
    with pytest.raises(TypeError):
        SEATS.rows(None)


def test_an_argument_that_does_not_reach_the_sql_is_refused():
    dropped = Compiled(lambda entry_id: Entry.objects.filter(pk__gt=0), int)
    with pytest.raises(ValueError, match="do not reach the SQL"):
        dropped.rows(1)


def test_the_players_state_follows_a_report(event_in_play):
    from tournaments.services.results import card_line_report

    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.select_related("entry__player", "entry__event").order_by("position")
    assert player_state(entry=a.entry).current.state == "not_reported"
    card_line_report(seat=b, won=False, spread=12)
    state = player_state(entry=a.entry)
    assert state.current.state == "your_turn" and state.current.opponent_status == "reported"
    assert state.current.opponent == b.entry.player.name
    card_line_report(seat=a, won=True, spread=12)
    state = player_state(entry=a.entry)
    assert state.current.state == "verified" and state.card[0].verified


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements: PostgreSQL")
def test_on_postgresql_they_run_as_prepared_statements(event_in_play):
    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    SEATS.rows(entry.pk)
    SEATS.rows(entry.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('"tournaments_seat"' in statement and "COUNT" in statement for statement in prepared)
