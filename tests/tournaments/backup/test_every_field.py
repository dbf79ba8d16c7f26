"""A new model or a new field cannot be left out of the backup unnoticed: every model of the app
is either copied by a section of the format or named here with the reason it is not, and every
field of a copied model is in its section or named here as structure (the row's own id and the
parent it is nested under in the document)."""

from django.apps import apps

from tournaments import models as m
from tournaments.services import backup as fmt

SECTIONS = {
    m.Club: fmt.CLUB,
    m.Player: fmt.PLAYER,
    m.Event: fmt.EVENT,
    m.EventRole: fmt.ROLE,
    m.Entry: fmt.ENTRY,
    m.Team: fmt.TEAM,
    m.KeepApart: fmt.KEEP_APART,
    m.Game: fmt.GAME,
    m.Table: fmt.TABLE,
    m.CardLine: fmt.CARD_LINE,
    m.MatchLine: fmt.MATCH_LINE,
    m.TiePlayoff: fmt.TIE_PLAYOFF,
    m.JudgeCall: fmt.JUDGE_CALL,
    m.Ruling: fmt.RULING,
    m.Playoff: fmt.PLAYOFF,
    m.PlayoffSeed: fmt.SEED,
    m.Match: fmt.MATCH,
    m.MatchGame: fmt.MATCH_GAME,
    m.StandingsSnapshot: fmt.SNAPSHOT,
    m.Notice: fmt.NOTICE,
    m.AuditEntry: fmt.AUDIT,
    m.Finalisation: fmt.FINALISATION,
    m.MrpAward: fmt.AWARD,
    m.NightCard: fmt.NIGHT_CARD,
    m.ClubAward: fmt.CLUB_AWARD,
}
EXTRA = {
    # Tokens only when the director asks; the Consolation's link e-mail is this database's mail;
    # an entry's team is written by hand, as the team's members.
    m.Entry: {*fmt.TOKEN_FIELDS, "link_emailed_at", "team"},
    m.Seat: {"game", "entry", "table", "position"},  # a game's seats, written by hand
    m.StandingsSnapshot: {"rows", "cut_tie"},  # entry ids turned into keys by hand
    # The record's own contact and account are the person's, not the event's: a backup carries
    # the contact the player gave for this event on the entry.
    m.Player: {"merged_into", "email", "phone", "user"},
    # Recognition is the ACC office's decision in this database, not a file's: a club the
    # import makes starts unrecognised, a club found here keeps its own.
    m.Club: {
        "recognised",
        "recognition_requested_at",
        "recognition_decision",
        "recognised_at",
        "recognition_decided_at",
        "recognition_decided_by",
        "recognition_note",
    },  # fmt: skip
    # Sanctioning is the ACC office's decision in this database, not a file's.
    m.Event: {
        *fmt.SETTINGS_FIELDS,
        *fmt.MONEY,
        "parent",
        # The weekend is this database's flyer, not the event's (see NOT_COPIED), and capacity
        # only limits the weekend's registration requests, which are not copied either.
        "weekend",
        "capacity",
        "sanctioned",
        "sanction_requested_at",
        "sanction_decision",
        "sanction_decided_at",
        "sanction_decided_by",
        "sanction_note",
        # The check-in code is derived from the event's id here: a restored event has a new
        # id, so a new code, and no older code of its own to refuse.
        "check_in_code_version",
        # The blind draw's seed: the teams it made are copied, the draw is not made again.
        "partner_draw_seed",
    },  # fmt: skip
}
STRUCTURE = {"id", "event", "game", "seat", "playoff", "match", "match_game", "table"}
STRUCTURE_OF = {
    m.Game: {"job"},
    m.Playoff: {"job"},
    m.Finalisation: {"job"},
    m.StandingsSnapshot: {"job"},
    m.MrpAward: {"finalisation"},  # by number
}
NOT_COPIED = {
    m.Job: "finished background work",
    m.PlayerRating: "worked out from every rated event; the import asks for a rating run",
    m.RatingPoint: "likewise",
    m.ClubRole: "the club's staff, not the event's",
    m.ClubAuditEntry: "the club's history (its directors, settings, recognition), not the event's",
    m.PlayerMerge: "a record of the people, not of the event",
    m.TableEmail: "a record of messages sent, not of the event",
    m.KeptAnswer: "answers kept 48 hours so a resent report is not saved twice",
    m.AccountLink: "a person's account, never moved by a file (only the person or an admin)",
    m.RecordChange: "a record of the people, not of the event",
    m.Invitation: "an offer to a person's account, made and taken in this database only",
    m.Weekend: "the flyer that groups events in this database; each event is backed up alone",
    m.RegistrationRequest: "players' requests before they are entries: their entries are copied",
    m.RegistrationChoice: "likewise",
}


def test_every_model_is_copied_or_has_a_reason():
    every = set(apps.get_app_config("tournaments").get_models())
    unlisted = every - set(SECTIONS) - set(NOT_COPIED) - {m.Seat}
    assert not unlisted, f"say how the backup keeps these: {sorted(x.__name__ for x in unlisted)}"


def test_every_field_of_a_copied_model_is_in_the_document():
    for model in [*SECTIONS, m.Seat]:
        section = SECTIONS.get(model)
        covered = EXTRA.get(model, set()) | STRUCTURE | STRUCTURE_OF.get(model, set())
        if section:
            covered |= {*section.fields, *section.entries, *section.players}
            covered |= {*section.users, *section.clubs}
        names = {field.name for field in model._meta.concrete_fields}
        names |= {field.name for field in model._meta.many_to_many}
        missing = names - covered - ({"judges"} if model is m.Ruling else set())
        assert not missing, f"{model.__name__}: the backup leaves out {sorted(missing)}"
