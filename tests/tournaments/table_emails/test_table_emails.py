"""'Your next table' by e-mail: sent once per publication to each player in the game who gave
an address, again after a re-pairing only to those whose table or opponent changed, and a
message the mail server refused is sent when the job runs again."""

from __future__ import annotations

import smtplib

import pytest
from django.core.mail.backends.locmem import EmailBackend as LocmemBackend

from tests.config.test_settings import PRODUCTION, _load_settings
from tests.factories import EntryFactory
from tournaments import tasks
from tournaments.core import keep_apart
from tournaments.core.pairing import GamePairing
from tournaments.models import Entry, Game, Job, Player, TableEmail
from tournaments.selectors.games import game_pairings
from tournaments.services.pairings import game_pairings_request, game_publish, game_repair
from tournaments.services.table_emails import table_emails_request
from tournaments.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

SITE = "https://pegboard.example.org"


class RefusingBackend(LocmemBackend):
    """The test outbox, with a mail server that refuses the addresses in ``refused``."""

    refused: set[str] = set()

    def send_messages(self, messages):
        for message in messages:
            bad = set(message.to) & self.refused
            if bad:
                raise smtplib.SMTPRecipientsRefused({a: (550, b"mailbox unavailable") for a in bad})
        return super().send_messages(messages)


@pytest.fixture(autouse=True)
def site(settings):
    settings.SITE_URL = SITE
    settings.DEFAULT_FROM_EMAIL = "Pegboard <noreply@example.org>"
    RefusingBackend.refused = set()


@pytest.fixture
def game_two(event_in_play, django_capture_on_commit_callbacks):
    """Game 2 of a 9-player event (one sits out), paired as a draft; everyone has an address."""

    def make(players: int = 9, **settings) -> Game:
        event = event_in_play(players, **settings)
        for entry in Entry.objects.filter(event=event):  # what each gave for this event
            entry.email = f"player{entry.player_id}@example.org"
            entry.save(update_fields=["email"])
        with django_capture_on_commit_callbacks(execute=True):
            game_pairings_request(event=event, number=2, user=event.director)
        return Game.objects.get(event=event, number=2)

    return make


@pytest.fixture
def publish(django_capture_on_commit_callbacks):
    def run(game: Game) -> Job:
        with django_capture_on_commit_callbacks(execute=True):
            game_publish(game=game, user=game.event.created_by)
        return Job.objects.filter(kind="table-emails").order_by("-pk").first()

    return run


@pytest.fixture
def send_again(django_capture_on_commit_callbacks):
    def run(game: Game) -> Job:
        with django_capture_on_commit_callbacks(execute=True):
            job = table_emails_request(game=game, user=game.event.created_by)
        job.refresh_from_db()
        return job

    return run


def _seating(game: Game) -> dict[str, tuple[int | None, str]]:
    """Each player's address: their table and opponent's name (None, "": sits out)."""
    p = game_pairings(game=game)
    seats = {row.entry_id: (row.table, row.opponent) for row in p.by_name}
    entries = Entry.objects.filter(pk__in=seats).select_related("player")
    return {e.email: seats[e.pk] for e in entries if e.email}


def _by_address(outbox) -> dict[str, object]:
    assert all(len(message.to) == 1 for message in outbox)
    by_address = {message.to[0]: message for message in outbox}
    assert len(by_address) == len(outbox), "one player got two messages"
    return by_address


def test_publishing_tells_each_player_their_table_opponent_and_link(game_two, publish, mailoutbox):
    game = game_two(sit_out_game_points=3, sit_out_spread=31)
    job = publish(game)
    seating = _seating(game)
    sent = _by_address(mailoutbox)
    assert set(sent) == set(seating) and len(sent) == 9
    for address, (table, opponent) in seating.items():
        message = sent[address]
        entry = Entry.objects.get(email=address)
        assert message.from_email == "Pegboard <noreply@example.org>"
        assert f"{SITE}/r/{entry.report_token}/" in message.body
        assert entry.player.name in message.body
        if table is None:
            assert message.subject == "Game 2: you sit out"
            assert "Sitting out scores 3 game points and a spread of 31." in message.body
        else:
            assert message.subject == f"Game 2: table {table} against {opponent}"
            assert f"TABLE {table}" in message.body
            assert f"Your opponent: {opponent}" in message.body
    assert job.status == Job.Status.SUCCEEDED and job.key == f"event:{game.event_id}:game:2"
    assert job.result["sent"] == 9 and job.result["failed"] == []
    assert TableEmail.objects.filter(game=game).count() == 9


def test_names_are_written_as_they_are_not_as_html(game_two, publish, mailoutbox):
    game = game_two()
    Player.objects.filter(entries__event=game.event).update(name="Mae O'Brien & Co")
    publish(game)
    assert "O'Brien & Co" in mailoutbox[0].subject + mailoutbox[0].body
    assert "&#x27;" not in mailoutbox[0].body and "&amp;" not in mailoutbox[0].body


def test_running_the_job_again_sends_nothing(game_two, publish, send_again, mailoutbox):
    game = game_two()
    job = publish(game)
    assert len(mailoutbox) == 9
    tasks.send_table_emails(job_id=job.pk, event_id=game.event_id, number=2)  # delivered twice
    again = send_again(game)  # a second job for the same publication
    assert again.pk != job.pk and again.status == Job.Status.SUCCEEDED
    assert again.result["sent"] == 0 and again.result["already_sent"] == 9
    assert len(mailoutbox) == 9 and TableEmail.objects.count() == 9


def _swap(pairing: GamePairing, a: int, b: int) -> GamePairing:
    """The same tables with players ``a`` and ``b`` changing places (either may sit out)."""

    def moved(x):
        return b if x == a else a if x == b else x

    tables = tuple((moved(x), moved(y)) for x, y in pairing.tables)
    return GamePairing(tables=tables, sit_out=moved(pairing.sit_out))


def _repair_to(game: Game, pairing: GamePairing, monkeypatch, capture) -> Game:
    """Re-pair the game as the director does; the pairing core (through the keep-apart rule,
    ``core.keep_apart``) answers with ``pairing``."""
    monkeypatch.setattr(keep_apart, "pair_game", lambda **kwargs: pairing)
    with capture(execute=True):
        game_repair(game=game, user=game.event.created_by)
    game.refresh_from_db()
    assert game.status == Game.Status.PAIRED
    return game


def _pairing_of(game: Game) -> GamePairing:
    p = game_pairings(game=game)
    tables = tuple((t.first_entry_id, t.second_entry_id) for t in p.tables)
    return GamePairing(tables=tables, sit_out=p.sit_out.entry_id if p.sit_out else None)


def test_a_republished_game_tells_only_players_whose_table_or_opponent_changed(
    game_two, publish, mailoutbox, monkeypatch, django_capture_on_commit_callbacks
):
    game = game_two()
    publish(game)
    first = _pairing_of(game)
    (a, b), (c, d), (e, f), (g, h) = first.tables
    # Table 1 and 2 swap a player; h and the sit-out change places; e and f stay at table 3.
    second = _swap(_swap(first, b, d), h, first.sit_out)
    mailoutbox.clear()
    game = _repair_to(game, second, monkeypatch, django_capture_on_commit_callbacks)
    assert mailoutbox == []  # a draft is not announced
    job = publish(game)

    changed = Entry.objects.filter(pk__in=[a, b, c, d, g, h, first.sit_out])
    sent = _by_address(mailoutbox)
    assert set(sent) == {entry.email for entry in changed}
    seating = _seating(game)
    for address, message in sent.items():
        table, opponent = seating[address]
        assert "The tables for game 2 have changed." in message.body
        assert message.subject == (
            f"Game 2: table {table} against {opponent}" if table else "Game 2: you sit out"
        )
    assert job.result == {"sent": 7, "already_sent": 0, "unchanged": 2, "failed": []}

    # Back to the first tables: each of the seven was last told the second ones, so hears again.
    mailoutbox.clear()
    game = _repair_to(game, first, monkeypatch, django_capture_on_commit_callbacks)
    publish(game)
    assert set(_by_address(mailoutbox)) == set(sent)
    assert TableEmail.objects.filter(game=game).count() == 9 + 7 + 7


def test_players_without_address_withdrawn_or_not_in_the_game_get_nothing(
    event_in_play, publish, mailoutbox, django_capture_on_commit_callbacks
):
    event = event_in_play(10)
    left_before = Entry.objects.filter(event=event).first()
    entry_withdraw(entry=left_before, user=event.director)  # plays no game after game 1
    EntryFactory(event=event, status=Entry.Status.REGISTERED, email="late@example.org")
    for entry in Entry.objects.filter(event=event).exclude(email="late@example.org"):
        entry.email = f"player{entry.player_id}@example.org"
        entry.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=event, number=2, user=event.director)
    game = Game.objects.get(event=event, number=2)
    seated = list(Entry.objects.filter(seats__game=game).select_related("player"))
    no_address, withdrawn = seated[0], seated[1]
    Entry.objects.filter(pk=no_address.pk).update(email="")
    entry_withdraw(entry=withdrawn, user=event.director)  # after game 2 was paired: still seated

    publish(game)

    expected = {e.email for e in seated if e not in (no_address, withdrawn)}
    assert set(_by_address(mailoutbox)) == expected and len(expected) == 7
    assert not TableEmail.objects.filter(entry__in=[left_before, no_address, withdrawn]).exists()


def test_a_game_where_nobody_gave_an_address_starts_no_job(event_in_play, mailoutbox):
    event_in_play(10)
    assert mailoutbox == []
    assert not Job.objects.filter(kind="table-emails").exists()


def test_a_refused_address_does_not_stop_the_others_and_is_sent_next_run(
    game_two, publish, send_again, mailoutbox, settings
):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    game = game_two()
    unlucky = Entry.objects.filter(seats__game=game).select_related("player").first()
    RefusingBackend.refused = {unlucky.email}

    job = publish(game)

    assert job.status == Job.Status.SUCCEEDED
    assert len(mailoutbox) == 8 and unlucky.email not in _by_address(mailoutbox)
    [failure] = job.result["failed"]
    assert failure["entry_id"] == unlucky.pk and failure["player"] == unlucky.player.name
    assert failure["error"].startswith("SMTPRecipientsRefused")
    assert job.result["sent"] == 8
    assert not TableEmail.objects.filter(entry=unlucky).exists()

    RefusingBackend.refused = set()
    mailoutbox.clear()
    again = send_again(game)
    assert [message.to for message in mailoutbox] == [[unlucky.email]]
    assert again.result["sent"] == 1 and again.result["already_sent"] == 8
    assert TableEmail.objects.filter(game=game).count() == 9


def test_when_no_message_could_be_sent_the_job_fails_and_a_retry_sends_them(
    game_two, publish, send_again, mailoutbox, settings
):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    game = game_two()
    RefusingBackend.refused = set(Entry.objects.values_list("email", flat=True))

    job = publish(game)

    assert job.status == Job.Status.FAILED
    assert job.error.startswith("None of the 9 e-mails could be sent; the first error: SMTP")
    assert mailoutbox == [] and not TableEmail.objects.exists()
    assert Game.objects.get(pk=game.pk).status == Game.Status.PUBLISHED  # publishing stands

    RefusingBackend.refused = set()
    assert send_again(game).result["sent"] == 9 and len(mailoutbox) == 9


def test_a_job_that_runs_after_a_re_pairing_sends_nothing_for_the_draft(
    game_two, mailoutbox, django_capture_on_commit_callbacks
):
    game = game_two()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        game_publish(game=game, user=game.event.created_by)  # its e-mail job is not run yet
    with django_capture_on_commit_callbacks(execute=True):
        game_repair(game=game, user=game.event.created_by)
        for callback in callbacks:
            callback()
    job = Job.objects.get(kind="table-emails")
    assert job.status == Job.Status.SUCCEEDED and job.result["not_published"]
    assert mailoutbox == []


@pytest.mark.parametrize("value", ["pegboard.example.org", "ftp://pegboard.example.org"])
def test_a_site_url_that_is_not_an_address_fails_loudly(value):
    result = _load_settings({**PRODUCTION, "SITE_URL": value})
    assert result.returncode != 0
    assert f"SITE_URL={value!r} is not an address" in result.stderr
