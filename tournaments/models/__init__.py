"""Pegboard's tables, split by resource."""

from tournaments.models.account_links import AccountLink
from tournaments.models.audit import AuditEntry
from tournaments.models.clubs import Club, ClubAuditEntry, ClubAward, ClubRole, NightCard
from tournaments.models.events import ENTRANT_NAME, Entry, Event, EventRole, Team
from tournaments.models.games import Game, Seat, Table
from tournaments.models.idempotency import KeptAnswer
from tournaments.models.invitations import Invitation
from tournaments.models.jobs import Job
from tournaments.models.keep_apart import KeepApart
from tournaments.models.ledger import Finalisation, MrpAward
from tournaments.models.notifications import TableEmail
from tournaments.models.players import Player, PlayerMerge
from tournaments.models.playoffs import Match, MatchGame, MatchLine, Playoff, PlayoffSeed
from tournaments.models.ratings import PlayerRating, RatingPoint
from tournaments.models.record_changes import RecordChange
from tournaments.models.results import CardLine, Notice, StandingsSnapshot, TiePlayoff
from tournaments.models.rulings import JudgeCall, Ruling
from tournaments.models.weekends import RegistrationChoice, RegistrationRequest, Weekend

__all__ = [
    "ENTRANT_NAME",
    "AccountLink",
    "RecordChange",
    "AuditEntry",
    "ClubAuditEntry",
    "ClubAward",
    "ClubRole",
    "NightCard",
    "PlayerRating",
    "RatingPoint",
    "PlayoffSeed",
    "Playoff",
    "MatchLine",
    "MatchGame",
    "Match",
    "CardLine",
    "Club",
    "Entry",
    "Finalisation",
    "MrpAward",
    "PlayerMerge",
    "Event",
    "EventRole",
    "Game",
    "Invitation",
    "Job",
    "KeepApart",
    "JudgeCall",
    "KeptAnswer",
    "Notice",
    "Player",
    "Ruling",
    "RegistrationChoice",
    "RegistrationRequest",
    "Weekend",
    "Seat",
    "StandingsSnapshot",
    "Table",
    "TableEmail",
    "Team",
    "TiePlayoff",
]
