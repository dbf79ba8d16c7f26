"""Restoring an event's field from its backup, once its entries are made (``backup_import``):
a doubles event's teams, and the pairs of entries kept apart in qualifying. Every value is read
through ``backup_checks`` as the API reads a director's (``services.keep_apart``: both entries
of this event, two different ones, a pair once)."""

from __future__ import annotations

from tournaments.models import Entry, KeepApart, Team
from tournaments.services import backup as fmt
from tournaments.services import backup_checks as checks
from tournaments.services.backup_checks import BackupRefusal
from tournaments.services.backup_import_rows import PlayRows, rows_create


class FieldRows(PlayRows):
    def teams(self) -> None:
        """A doubles event's teams: two entries of this backup each, in one team at most."""
        made, seen = [], {}
        for i, data in enumerate(checks.rows(self.data["teams"], "teams")):
            where = f"teams[{i}]"
            team = self.build(Team, data, fmt.TEAM, where, extra=("members",), event=self.event)
            keys = checks.rows(data["members"], f"{where}.members")
            if len(keys) != 2 or keys[0] == keys[1] or not all(k in self.entries for k in keys):
                raise BackupRefusal(
                    f"{where}.members", "expected the keys of two entries of this backup.", "team"
                )
            for key in keys:
                if key in seen:
                    raise BackupRefusal(f"{where}.members", f"{key} is in {seen[key]} too.", "team")
                seen[key] = where
            made.append((team, keys))
        if made and not self.event.in_teams:
            raise BackupRefusal("teams", "a singles event has no teams.", "team")
        rows_create(Team, [team for team, _ in made])
        for team, keys in made:
            Entry.objects.filter(pk__in=[self.entries[k].pk for k in keys]).update(team=team)
            for key in keys:
                self.entries[key].team = team

    def keep_apart(self) -> None:
        """Pairs kept apart: two different entries of this backup each, a pair once. The
        document may name them in either order; they are kept with the lower id first."""
        pairs = []
        for i, data in enumerate(checks.rows(self.data["keep_apart"], "keep_apart")):
            where = f"keep_apart[{i}]"
            checks.row(data, where, fmt.KEEP_APART.names)
            a, b = (
                checks.ref(self.entries, data[name], f"{where}.{name}", "entry", required=True)
                for name in ("entry_a", "entry_b")
            )
            if a.pk == b.pk:
                raise BackupRefusal(
                    f"{where}.entry_b", "is the same entry as entry_a: a pair is two players.",
                    "same_player",
                )  # fmt: skip
            if a.pk > b.pk:
                data = {**data, "entry_a": data["entry_b"], "entry_b": data["entry_a"]}
            pairs.append((self.build(KeepApart, data, fmt.KEEP_APART, where, event=self.event),
                          where))  # fmt: skip
        checks.unique(
            (((p.entry_a.pk, p.entry_b.pk), f"{w}.entry_b") for p, w in pairs), "This pair"
        )
        rows_create(KeepApart, [pair for pair, _ in pairs])
