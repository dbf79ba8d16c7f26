"""Reading the final results of an event: finish bands, MRPs and prize money, one row a player.

Terms (the rules themselves live in ``core.bracket`` and ``core.money``):
- finish band: the places the losers of one playoff round share ("1", "2", "3-4", "5-8"...).
- place: a qualifier's finish band once their playoff is over; a non-qualifier's qualifying rank.
- money settings: the event's entry fee, sanctioning fee, ``payout_percents`` (percent of the
  playoff fund per finish band, keyed "1", "2", "3-4"...) and ``qualifier_pool`` (``{}`` for no
  pool, else ``{"split": ..., "percent": ..., "graduation": ...}``), read into the core's types.
- adjustment: the director's change, in cents, to what each holder of one payout line gets
  (``Playoff.payout_adjustments``, keyed like the lines: "1", "3-4", "Q1", "Q2-8").
- doubles: the entrant is a team, so an entrant is counted, placed and paid once per team (its
  row is its first partner's entry); ``ResultRow.partners`` gives each partner's share of the
  team's payout (``core.money.partner_shares``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from tournaments.core.bracket import Bracket, band_players, build_bracket, finishes
from tournaments.core.money import (
    Fund,
    Payouts,
    QualifierPool,
    apply_adjustments,
    held_places,
    partner_shares,
    payout_schedule,
    payouts_by_player,
    place_key,
    prize_fund,
)
from tournaments.core.mrp import (
    MRP_SCHEDULE,
    MrpUnavailable,
    QualifierResult,
    mrp_awards,
    mrp_table_for,
)
from tournaments.core.standings import qualifier_count
from tournaments.models import Entry, Event, Match, MrpAward, Playoff
from tournaments.selectors import entrants
from tournaments.selectors.results import latest_standings

NO_POOL = "none"


def band_of_key(key: str) -> tuple[int, int]:
    """ "3-4" -> (3, 4), "1" -> (1, 1); a ValueError naming the key otherwise."""
    first, _, last = str(key).partition("-")
    try:
        band = (int(first), int(last or first))
    except ValueError:
        raise ValueError(f"{key!r} is not a finish band such as 1, 2 or 3-4") from None
    return band


def band_percents_of(event: Event) -> dict[tuple[int, int], object]:
    return {band_of_key(key): percent for key, percent in (event.payout_percents or {}).items()}


def pool_of(event: Event) -> QualifierPool | None:
    """The event's qualifier pool, or None when it has none."""
    pool = dict(event.qualifier_pool or {})
    split = pool.pop("split", NO_POOL)
    if split == NO_POOL:
        return None
    return QualifierPool(
        split=split,
        percent=pool.get("percent"),
        amount=pool.get("amount"),
        graduation=pool.get("graduation"),
    )


def playoff_of(event: Event) -> Playoff | None:
    return Playoff.objects.filter(event=event).first()


def bracket_of(playoff: Playoff) -> Bracket:
    """The bracket rebuilt from the seeds and the decided matches (two queries)."""
    seeds = list(playoff.seeds.order_by("seed").values_list("entry_id", flat=True))
    results = {
        (r, s): w
        for r, s, w in Match.objects.filter(
            playoff=playoff, status=Match.Status.DECIDED, bye=False, winner__isnull=False
        ).values_list("round", "slot", "winner_id")
    }
    return build_bracket(seeds, results)


@dataclass(frozen=True)
class PayoutTable:
    """The prize fund and what it pays; ``error`` explains settings the core refused."""

    fund: Fund | None
    qualifiers: int
    computed: Payouts | None  # before the director's adjustments
    payouts: Payouts | None  # after them
    adjustments: dict[str, int] = field(default_factory=dict)
    by_entry: dict[int, int] = field(default_factory=dict)
    error: str = ""
    has_playoff: bool = False


def _entrants_and_qualifiers(event: Event, playoff: Playoff | None) -> tuple[int, int]:
    if playoff is not None:
        return playoff.entrants, playoff.qualifiers
    field = event.entries.exclude(status=Entry.Status.REGISTERED)
    if event.in_teams:  # a team enters, pays and is paid once (``standings_entrants``)
        entrants = field.filter(team__isnull=False).values("team_id").distinct().count()
    else:
        entrants = field.count()
    return entrants, qualifier_count(entrants, event.qualifier_ratio)


def event_payouts(
    *, event: Event, playoff: Playoff | None = None, bracket: Bracket | None = None
) -> PayoutTable:
    """The fund, the payout lines (computed and adjusted) and, once known, each entry's money.

    Before the cut the qualifiers are estimated from the checked-in field."""
    playoff = playoff if playoff is not None else playoff_of(event)
    entrants, qualifiers = _entrants_and_qualifiers(event, playoff)
    adjustments = dict(playoff.payout_adjustments) if playoff else {}
    try:
        fund = prize_fund(
            entry_fee=event.entry_fee_cents,
            sanctioning_fee=event.sanctioning_fee_cents,
            entrants=entrants,
        )
    except ValueError as exc:
        return PayoutTable(
            None, qualifiers, None, None, adjustments, error=str(exc), has_playoff=bool(playoff)
        )
    if qualifiers < 1:
        return PayoutTable(fund, 0, None, None, adjustments, error="There is no playoff to pay.")
    try:
        computed = payout_schedule(
            fund=fund.net,
            qualifiers=qualifiers,
            band_percents=band_percents_of(event),
            pool=pool_of(event),
            qualifier_ranks=_qualifier_ranks(playoff),
        )
        payouts = apply_adjustments(computed, adjustments)
    except ValueError as exc:
        return PayoutTable(
            fund, qualifiers, None, None, adjustments, error=str(exc), has_playoff=bool(playoff)
        )
    by_entry = {}
    if playoff is not None:
        bracket = bracket if bracket is not None else bracket_of(playoff)
        by_entry = _by_entry(payouts, bracket)
    return PayoutTable(
        fund, qualifiers, computed, payouts, adjustments, by_entry, has_playoff=bool(playoff)
    )


def _qualifier_ranks(playoff: Playoff | None) -> list[int] | None:
    if playoff is None:
        return None
    return list(playoff.seeds.order_by("seed").values_list("qualifying_rank", flat=True))


def _by_entry(payouts: Payouts, bracket: Bracket) -> dict[int, int]:
    """Cents owed to each entry, from the lines whose holders are all known by now."""
    holders: dict[str, list[int]] = {}
    for entry, finish in finishes(bracket).items():
        holders.setdefault(place_key(finish.first, finish.last), []).append(entry)
    for place, entry in enumerate(bracket.qualifiers, start=1):
        for line in payouts.lines:
            if str(line.key).startswith("Q"):
                first, last = band_of_key(str(line.key)[1:])
                if first <= place <= last:
                    holders.setdefault(line.key, []).append(entry)
    known = {line.key for line in payouts.lines if len(holders.get(line.key, ())) == line.players}
    settled = Payouts(payouts.fund, tuple(ln for ln in payouts.lines if ln.key in known), 0, 0)
    paid = payouts_by_player(settled, {key: holders[key] for key in known})
    return {line.key: line.each for line in paid.lines}


@dataclass(frozen=True)
class PartnerShare:
    """One partner of a doubles team and their share of the team's payout, in cents."""

    entry_id: int
    player_id: int
    name: str
    acc_number: str
    payout_cents: int


@dataclass(frozen=True)
class ResultRow:
    entry_id: int
    name: str
    acc_number: str
    qualifying_rank: int | None
    seed: int | None
    band: str  # payout line key of a finished qualifier ("5-8" with 6 qualifiers), else ""
    place: str  # the places the player really shares: the band, cut at the qualifiers
    mrp: int | None
    payout_cents: int
    game_points: int = 0
    net_spread: int = 0
    mrp_qualifying: int | None = None
    mrp_playoff: int | None = None
    player_id: int | None = None
    team_id: int | None = None  # a doubles team's row: the team, paid once for both partners
    partners: tuple[PartnerShare, ...] = ()

    @property
    def finish(self) -> str:
        """A qualifier's playoff finish as people read it ("5-6"), "" while playing or for a
        non-qualifier: the one place figure of the sheet, the CSVs and the API."""
        return self.place if self.seed is not None else ""

    @property
    def partner_names(self) -> str:
        """A doubles team's partners as "Ann and Bob"; "" in singles."""
        return " and ".join(partner.name for partner in self.partners)

    @property
    def named_by_partners(self) -> bool:
        """A doubles team whose name already says who plays ("Ann & Bob", the default)."""
        names = [partner.name for partner in self.partners]
        return bool(names) and self.name == entrants.team_default_name(names)

    @property
    def member(self) -> bool:
        """Has an ACC number: MRPs reach the ACC only for members."""
        return bool(self.acc_number)


@dataclass(frozen=True)
class FinalResults:
    event: Event
    playoff: Playoff | None
    complete: bool
    bands: list[tuple[str, int]]  # (band, players in it), best first
    rows: list[ResultRow]
    winner: ResultRow | None
    runner_up: ResultRow | None
    high_non_qualifier: ResultRow | None
    mrp_schedule: str | None
    mrp_note: str
    money: PayoutTable | None
    finalised: bool = False  # MRPs are read from the ledger


def mrp_kind(event: Event) -> tuple[str | None, str]:
    """The MRP table the event earns from, or None with the reason it earns none."""
    if not event.sanctioned:
        return None, "No MRPs: this event is not ACC-sanctioned."
    try:
        mrp_table_for(event.kind, event.qualifying_games)
    except MrpUnavailable as exc:
        return None, f"No MRPs: {exc}."
    return event.kind, ""


def qualifier_results(
    *, playoff: Playoff, bracket: Bracket, game_points: dict[int, int]
) -> list[QualifierResult]:
    """Each qualifier's rank, game points and playoff finish so far, in seed order."""
    done = finishes(bracket)
    results = []
    for entry, rank in playoff.seeds.order_by("seed").values_list("entry_id", "qualifying_rank"):
        finish = done.get(entry)
        won = finish.rounds_won if finish else None
        lost = None if finish is None or finish.first == 1 else finish.rounds_won + 1
        results.append(QualifierResult(entry, rank, game_points.get(entry, 0), won, lost))
    return results


def _mrp_by_entry(event: Event, kind: str | None, results) -> dict[int, tuple[int, int]]:
    """(qualifying, playoff) MRPs by entry: the ledger's once finalised, else worked out."""
    if event.finalised_at is not None:
        awards = MrpAward.objects.filter(event=event, current=True)
        return {
            a.entry_id: (a.qualifying_points, a.playoff_points)
            for a in awards.only("entry_id", "qualifying_points", "playoff_points")
        }
    if kind is None:
        return {}
    return {
        a.result.entry_id: (a.qualifying, a.playoff)
        for a in mrp_awards(kind, event.qualifying_games, results)
    }


def event_final_results(*, event: Event) -> FinalResults:
    """Every qualifier's finish, then the non-qualifiers by rank, with MRPs and payouts."""
    playoff = playoff_of(event)
    kind, note = mrp_kind(event)
    if playoff is None:
        return FinalResults(event, None, False, [], [], None, None, None, None, note, None)
    bracket = bracket_of(playoff)
    done = finishes(bracket)
    snapshot = latest_standings(event=event)
    table = {row["entry_id"]: row for row in (snapshot.rows if snapshot else [])}
    results = qualifier_results(
        playoff=playoff,
        bracket=bracket,
        game_points={e: row["game_points"] for e, row in table.items()},
    )
    mrp = _mrp_by_entry(event, kind, results)
    field = Entry.objects.filter(event=event)
    # A doubles team's row is its first partner's entry, named by the team.
    names = (entrants.entry_team_names if event.in_teams else entrants.entry_names)(entries=field)
    people = {
        pk: (names[pk], acc, player)
        for pk, acc, player in field.values_list("pk", "player__acc_number", "player_id")
    }
    money = event_payouts(event=event, playoff=playoff, bracket=bracket)
    seeds = list(playoff.seeds.order_by("seed").values_list("seed", "entry_id", "qualifying_rank"))

    def row(entry_id: int, rank: int | None, seed: int | None) -> ResultRow:
        finish = done.get(entry_id)
        band = place_key(finish.first, finish.last) if finish else ""
        held = held_places(finish.first, finish.last, playoff.qualifiers) if finish else ""
        parts = mrp.get(entry_id) if seed is not None else None
        name, acc, player = people.get(entry_id, ("?", "", None))
        standing = table.get(entry_id, {})
        return ResultRow(
            entry_id, name, acc, rank, seed, band,
            held if seed is not None else str(rank or ""),
            sum(parts) if parts else None,
            money.by_entry.get(entry_id, 0),
            standing.get("game_points", 0), standing.get("net_spread", 0),
            parts[0] if parts else None, parts[1] if parts else None, player,
        )  # fmt: skip

    qualifiers = [row(entry, rank, seed) for seed, entry, rank in seeds]
    qualifiers.sort(key=lambda r: (done[r.entry_id].first if r.band else 0, r.seed))
    seeded = {entry for _, entry, _ in seeds}
    others = [row(r["entry_id"], r["rank"], None) for r in table.values()]
    others = [r for r in others if r.entry_id not in seeded]
    if event.in_teams:
        teams = _teams_by_first_partner(event)
        qualifiers, others = _with_partners(teams, qualifiers), _with_partners(teams, others)
    by_id = {r.entry_id: r for r in qualifiers + others}
    runner_up = next((e for e, f in done.items() if f.first == 2), None)
    return FinalResults(
        event=event,
        playoff=playoff,
        complete=bracket.champion is not None,
        bands=[
            (held_places(*b, playoff.qualifiers), n)
            for b, n in band_players(playoff.qualifiers).items()
        ],
        rows=qualifiers + others,
        winner=by_id.get(bracket.champion),
        runner_up=by_id.get(runner_up),
        high_non_qualifier=by_id.get(playoff.high_non_qualifier_id),
        mrp_schedule=MRP_SCHEDULE if kind else None,
        mrp_note=note,
        money=money,
        finalised=event.finalised_at is not None,
    )


def _teams_by_first_partner(event: Event) -> dict[int, tuple[int, list[entrants.Member]]]:
    """Each team of the event by its row's entry, its first partner's (two queries)."""
    teams = {}
    for team in entrants.teams_of_event(event=event):
        members = entrants.team_members(team)
        if members:
            teams[members[0].entry_id] = (team.pk, members)
    return teams


def _with_partners(teams, rows: list[ResultRow]) -> list[ResultRow]:
    """A doubles event's rows with their team and each partner's share of its payout."""
    named = []
    for row in rows:
        team_id, members = teams.get(row.entry_id, (None, []))
        shares = partner_shares(row.payout_cents, len(members)) if members else ()
        partners = tuple(
            PartnerShare(m.entry_id, m.player_id, m.name, m.acc_number, cents)
            for m, cents in zip(members, shares, strict=True)
        )
        named.append(replace(row, team_id=team_id, partners=partners))
    return named
