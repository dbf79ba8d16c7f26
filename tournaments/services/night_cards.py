"""A club night's cards: written the moment its last game is verified, with no extra step.

The standings job calls ``night_cards_write`` after every change to a club night's verified
lines. When every game of the night is paired, published and verified at every table, each
player's card (``NightCard``) is written from their verified lines (a sit-out's line counts,
as on the paper card), with the Grass Roots points of the club's rule, and the night is
finished. Written again after a later correction: the cards are replaced, so the season
standings follow. Running it twice writes the same cards. A night played in pairs gives each
partner a card with the team's results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from django.db import transaction
from django.db.models import Count, Q, Sum

from tournaments.core.seasons import RULES, season_of
from tournaments.models import CardLine, Entry, Event, Game, NightCard, Table
from tournaments.services.jobs import job_enqueue


def night_complete(event: Event) -> bool:
    """Every game of the night is in play or closed, and every table of it verified."""
    return bool(_complete_nights(Event.objects.filter(pk=event.pk)))


def _totals(event_ids: list[int]):
    """Each player's card totals at these nights, from their verified lines (one query)."""
    lines = CardLine.objects.filter(
        seat__game__event_id__in=event_ids, kind=CardLine.Kind.VERIFIED, current=True
    )
    return (
        lines.values("seat__game__event_id", "seat__entry_id", "seat__entry__player_id")
        .annotate(
            gp=Sum("game_points"),
            won=Count("id", filter=Q(game_points__gt=0)),
            played=Count("id"),
            net=Sum("plus") - Sum("minus"),
        )
        .order_by()
    )


def _with_partners(rows) -> Iterator[dict]:
    """Each card's row; in a night played in pairs, the same row again for the partner: a team
    keeps its card on its first partner's seat (``core.pairing_teams``), and each partner's
    night card gets the team's game points."""
    rows = list(rows)
    entries = [row["seat__entry_id"] for row in rows]
    team_of = dict(
        Entry.objects.filter(pk__in=entries, team__isnull=False).values_list("pk", "team_id")
    )
    partners = defaultdict(list)
    others = Entry.objects.filter(team_id__in=set(team_of.values())).exclude(pk__in=entries)
    for pk, team, player in others.values_list("pk", "team_id", "player_id"):
        partners[team].append((pk, player))
    for row in rows:
        yield row
        for pk, player in partners.get(team_of.get(row["seat__entry_id"]), []):
            yield {**row, "seat__entry_id": pk, "seat__entry__player_id": player}


def night_cards_write(*, event: Event) -> int:
    """Write the night's cards if it is complete (see the module); returns how many."""
    if event.kind != Event.Kind.CLUB_NIGHT or event.club_id is None or not night_complete(event):
        return 0
    totals = _with_partners(_totals([event.pk]))
    NightCard.objects.filter(event=event).delete()  # replaced whole: a correction may move any
    if event.stage != Event.Stage.FINISHED:
        event.stage = Event.Stage.FINISHED
        event.save(update_fields=["stage"])
    cards = [_card(event, row) for row in totals]
    return len(NightCard.objects.bulk_create([card for card in cards if card is not None]))


def _complete_nights(events) -> list[Event]:
    """Those of ``events`` (club nights) whose games are all played and every table verified,
    in two queries: the one statement of the rule, for one night or every night."""
    published = Q(games__status__in=[Game.Status.PUBLISHED, Game.Status.CLOSED])
    nights = {
        e.pk: e
        for e in events.select_related("club").annotate(played=Count("games", filter=published))
    }
    open_tables = set(
        Table.objects.filter(game__event_id__in=list(nights))
        .exclude(status=Table.Status.VERIFIED)
        .values_list("game__event_id", flat=True)
        .distinct()
    )
    return [
        e for pk, e in nights.items() if e.played >= e.qualifying_games and pk not in open_tables
    ]


def night_cards_rebuild_all(*, progress=None, job=None) -> dict:
    """Every club night's cards from the stored lines (the points job from scratch): the
    same cards ``night_cards_write`` gives night by night, written in bulk."""
    club_nights = Event.objects.filter(kind=Event.Kind.CLUB_NIGHT, club__isnull=False)
    nights = {e.pk: e for e in _complete_nights(club_nights)}
    totals = _with_partners(_totals(list(nights)).iterator(chunk_size=20_000))
    cards = []
    for row in totals:
        event = nights[row["seat__game__event_id"]]
        card = _card(event, row)
        if card is not None:
            cards.append(card)
    with transaction.atomic():
        NightCard.objects.all().delete()  # derived data: rebuilt whole from the lines
        NightCard.objects.bulk_create(cards, batch_size=10_000)
        Event.objects.filter(pk__in=list(nights)).exclude(stage=Event.Stage.FINISHED).update(
            stage=Event.Stage.FINISHED
        )
    return {"nights": len(nights), "cards": len(cards)}


def _card(event: Event, row: dict) -> NightCard | None:
    club = event.club
    played_on = event.starts_on or event.created_at.date()
    season = season_of(played_on, club.season_start_month, club.season_end_month)
    if season is None:
        return None
    rule = RULES[club.grass_roots_rule]
    return NightCard(
        event=event, club=club, entry_id=row["seat__entry_id"],
        player_id=row["seat__entry__player_id"], season=season, played_on=played_on,
        game_points=row["gp"], games_won=row["won"], games_played=row["played"],
        net_spread=row["net"], grass_roots_points=rule.points(row["gp"]), rule=rule.code,
    )  # fmt: skip


def night_cards_rebuild_request(*, user=None):
    """Every club night's cards again from the lines, by a job (after a rule change, say)."""
    return job_enqueue(
        kind="points-all", key="all", task="tournaments.tasks.rebuild_night_cards", created_by=user
    )
