"""Helpers shared by tests of several folders (import them from here, not from another
folder's conftest): database sessions, API clients, and events played through the services."""

from __future__ import annotations

from io import BytesIO

import psycopg
from django.db import connection, connections
from rest_framework.test import APIClient

from config.wsgi import application as wsgi_application  # gunicorn's, with the poll shortcut
from tests.factories import UserFactory
from tournaments.core.bracket import build_bracket
from tournaments.models import Entry, Game, Match, Playoff, PlayoffSeed, StandingsSnapshot, Table
from tournaments.selectors.standings import standings_live
from tournaments.services.clubs import club_night_create
from tournaments.services.corrections import tie_playoff_record
from tournaments.services.entries import Registration, entry_register
from tournaments.services.events import event_close_registration
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.playoffs_matches import match_game_report
from tournaments.services.results import card_line_report, game_close

# What an administrator (or a failover script) runs: every other session on the database ends.
TERMINATE_ALL = (
    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid() "
    "AND backend_type = 'client backend'"
)
# The same, returning once each of those sessions has ended (its goodbye sent, its socket
# closed): a request after it finds every kept connection ended, not one still ending.
TERMINATE_ALL_ENDED = TERMINATE_ALL.replace(
    "pg_terminate_backend(pid)", "pg_terminate_backend(pid, 5000)"
)


def postgres_connect() -> psycopg.Connection:
    """A session of its own on the test database (not Django's), in autocommit."""
    s = connection.settings_dict
    return psycopg.connect(
        dbname=s["NAME"],
        user=s["USER"],
        password=s["PASSWORD"] or None,
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        autocommit=True,
    )


def connection_terminate() -> None:
    """End this thread's Django connection from the server's side, as ``pg_terminate_backend``
    does; returns once the session is gone. Django is not told: its next query finds out."""
    pid = connection.connection.info.backend_pid
    with postgres_connect() as admin:
        (ended,) = admin.execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone()
    assert ended, f"backend {pid} did not end"


def commit_answer_lost(monkeypatch, *, saved: bool) -> None:
    """The next COMMIT of this thread's connection loses its answer with the connection: the
    server ended the session after committing (``saved``) or before."""
    wrapper = connections["default"]
    real = wrapper._commit

    def commit():
        monkeypatch.setattr(wrapper, "_commit", real)  # only this one
        if not saved:
            connection_terminate()
            return real()
        real()
        connection_terminate()
        with wrapper.wrap_database_errors:  # the answer was lost: Django sees the error
            wrapper.connection.execute("SELECT 1")
        raise AssertionError("the session was not ended")

    monkeypatch.setattr(wrapper, "_commit", commit)


def sanction(event):
    """The ACC office sanctions ``event``, as in production (``services.sanctioning``)."""
    from tournaments.services.sanctioning import event_sanction_grant

    event_sanction_grant(event=event, user=UserFactory(is_staff=True))
    event.refresh_from_db()
    return event


def link_account(player, user):
    """``user`` is ``player``'s confirmed account, as an administrator's confirmation leaves it
    (``services.account_links``: ``Player.user`` and its confirmed ``AccountLink``)."""
    from tournaments.models import AccountLink, Player

    Player.objects.filter(pk=player.pk).update(user=user)
    player.user = user
    AccountLink.objects.create(player=player, user=user, status="confirmed", method="administrator")
    return player


def client_for(user=None) -> APIClient:
    client = APIClient()
    client.default_format = "json"
    if user is not None:
        client.force_authenticate(user)
    return client


def csv_of(*rows: tuple[str, ...], header: str = "name,acc_number,club,email,phone") -> str:
    return "\n".join([header, *(",".join(row) for row in rows)]) + "\n"


def seated(pairings: dict) -> list[int]:
    """Every entry in a game's pairings, at a table or sitting out."""
    ids = [t[key] for t in pairings["tables"] for key in ("first_entry_id", "second_entry_id")]
    if pairings["sit_out"]:
        ids.append(pairings["sit_out"]["entry_id"])
    return ids


def meetings(pairings: dict) -> set[frozenset[int]]:
    return {frozenset((t["first_entry_id"], t["second_entry_id"])) for t in pairings["tables"]}


def play_night(club, director, players, played_on, capture, *, spread=None, winner=None):
    """A whole night: every table reported by both players; the lower player id wins unless
    ``winner`` (a function of the two player ids) says otherwise. Returns the event."""
    event = club_night_create(club=club, user=director, played_on=played_on)
    for player in players:
        entry_register(
            event=event,
            registration=Registration(
                name=player.name, acc_number=player.acc_number, player_id=player.pk
            ),
            check_in=True,
            user=director,
        )
    event_close_registration(event=event, user=director)
    for number in range(1, event.qualifying_games + 1):
        with capture(execute=True):
            game_pairings_request(event=event, number=number, user=director)
        with capture(execute=True):
            game_publish(game=Game.objects.get(event=event, number=number), user=director)
        with capture(execute=True):
            for table in Table.objects.filter(game__event=event, game__number=number):
                a, b = table.seats.select_related("entry").order_by("position")
                pa, pb = a.entry.player_id, b.entry.player_id
                first = (winner or min)(pa, pb)
                won, lost = (a, b) if first == pa else (b, a)
                margin = spread(number, table.number) if spread else 10 + table.number
                card_line_report(seat=won, won=True, spread=margin)
                card_line_report(seat=lost, won=False, spread=margin)
    event.refresh_from_db()
    return event


def _rows(entries, qualifiers):
    return [
        {
            "rank": rank,
            "entry_id": e.pk,
            "game_points": 21 - rank,
            "games_won": 0,
            "games_played": 12,
            "net_spread": 0,
            "plus_spread": 0,
            "minus_spread": 0,
            "tied": False,
            "playoff_needed": False,
            "qualifies": rank <= qualifiers,
        }
        for rank, e in enumerate(entries, start=1)
    ]


def make_playoff(event, entries, qualifiers, winners_by_seed):
    """Seeds, and Match rows as the playoff would store them, with ``winners_by_seed``
    ({(round, slot): seed}) decided."""
    StandingsSnapshot.objects.create(
        event=event,
        rows=_rows(entries, qualifiers),
        qualifiers=qualifiers,
        high_non_qualifier=entries[qualifiers] if len(entries) > qualifiers else None,
    )
    playoff = Playoff.objects.create(
        event=event,
        entrants=len(entries),
        qualifiers=qualifiers,
        high_non_qualifier=entries[qualifiers] if len(entries) > qualifiers else None,
    )
    for seed, entry in enumerate(entries[:qualifiers], start=1):
        PlayoffSeed.objects.create(playoff=playoff, seed=seed, entry=entry, qualifying_rank=seed)
    ids = [e.pk for e in entries[:qualifiers]]
    results = {key: ids[seed - 1] for key, seed in winners_by_seed.items()}
    bracket = build_bracket(ids, results)
    for matches in bracket.matches:
        for m in matches:
            decided = m.winner is not None
            Match.objects.create(
                playoff=playoff,
                round=m.round,
                slot=m.slot,
                best_of=5,
                seed_a=m.seed_a,
                seed_b=m.seed_b,
                entry_a_id=m.player_a,
                entry_b_id=m.player_b,
                bye=m.bye,
                winner_id=m.winner,
                status="decided" if decided else "waiting",
            )
    return playoff


FINISHED = {(1, 1): 4, (2, 0): 1, (2, 1): 3, (3, 0): 3}


def play_playoffs(event, spread: int = 9) -> None:
    """Every match, each game won by entry_a (the better seed, or the winner moving up)."""
    for _ in range(200):
        match = Match.objects.filter(playoff__event=event, status__in=["ready", "playing"]).first()
        if match is None:
            return
        match_game_report(match=match, entry=match.entry_a, won=True, spread=spread)
        match_game_report(match=match, entry=match.entry_b, won=False, spread=spread)
    raise AssertionError("the playoffs did not finish")


def play_game(event, number, *, strength):
    """Every table of game ``number``: the stronger player (lower ``strength``) wins."""
    for table in Table.objects.filter(game__event=event, game__number=number):
        a, b = table.seats.order_by("position")
        winner, loser = sorted((a, b), key=lambda seat: strength[seat.entry_id])
        # Plain wins (2 game points), but for the strongest player in odd games: 31, a skunk (3).
        spread = 30 - strength[winner.entry_id] * 2 + number % 2
        card_line_report(seat=winner, won=True, spread=spread)
        card_line_report(seat=loser, won=False, spread=spread)
    game_close(game=Game.objects.get(event=event, number=number), user=event.director)


def break_cut_ties(event):
    """Tie playoffs won by the stronger player until no tie straddles the cut."""
    for _ in range(20):
        standings = standings_live(event=event)
        if not standings.cut_tie:
            return
        first, second = sorted(standings.cut_tie)[:2]
        winner, loser = Entry.objects.get(pk=first), Entry.objects.get(pk=second)
        tie_playoff_record(event=event, winner=winner, loser=loser, user=event.director)
    raise AssertionError("the cut tie would not break")


def wsgi_get(path, query="part=live", etag=None, host="testserver", https=True):
    """A GET through the WSGI entry point gunicorn serves: (status, headers, body)."""
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return wsgi_call("GET", path, query=query, host=host, https=https, headers=headers)


def wsgi_call(
    method, path, *, query="", body=b"", host="testserver", https=True, headers=None, app=None
):
    """A request through the WSGI entry point gunicorn serves (``config.wsgi``), or ``app``:
    (status, headers, body). ``headers`` are WSGI keys (``HTTP_ACCEPT``, ``CONTENT_TYPE``...)."""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": host,
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.url_scheme": "http",
        "wsgi.input": BytesIO(body),
        "wsgi.errors": BytesIO(),
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        **(headers or {}),
    }
    if https:
        environ["HTTP_X_FORWARDED_PROTO"] = "https"
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"], answer["headers"] = int(status.split()[0]), dict(headers)

    body = b"".join((app or wsgi_application)(environ, start_response))
    return answer["status"], answer["headers"], body
