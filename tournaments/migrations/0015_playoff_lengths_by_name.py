"""Playoff lengths by the round's name (every round, semi-final, final) instead of by round number.

Each event's old list (by round from round 1, the last value repeating) is read for the bracket
it meant: the bracket built, if there is one; otherwise the bracket the current field makes
(entered players during registration, checked-in players after); with no field, the list's own
length (the settings page laid a list out for the bracket it knew). Matches already built keep
their own ``best_of``.
"""

from django.db import migrations, models

from tournaments.core.bracket import bracket_size
from tournaments.core.playoff_lengths import lengths_default, lengths_from_rounds, lengths_of
from tournaments.core.standings import qualifier_count


def by_name(apps, schema_editor):
    Event = apps.get_model("tournaments", "Event")
    Playoff = apps.get_model("tournaments", "Playoff")
    for event in Event.objects.all():
        stored = event.playoff_best_of
        if isinstance(stored, dict):
            continue
        playoff = Playoff.objects.filter(event=event).first()
        if playoff is not None:
            last = playoff.matches.aggregate(last=models.Max("round"))["last"]
            rounds = last or bracket_size(max(playoff.qualifiers, 1)).bit_length() - 1
        else:
            rounds = _field_rounds(event)
        event.playoff_best_of = lengths_from_rounds(list(stored or []), rounds or None)
        event.save(update_fields=["playoff_best_of"])


def _field_rounds(event) -> int | None:
    entries = event.entries.all()
    if event.stage == "registration":
        entrants = entries.exclude(status="withdrawn").count()
    else:
        entrants = entries.filter(status="checked_in").count()
    qualifiers = qualifier_count(entrants, event.qualifier_ratio)
    return bracket_size(qualifiers).bit_length() - 1 if qualifiers else None


def by_round(apps, schema_editor):
    """Back: every round's length by round number, laid out for a bracket of two rounds."""
    Event = apps.get_model("tournaments", "Event")
    for event in Event.objects.all():
        lengths = lengths_of(event.playoff_best_of)
        every = lengths["every"]
        semi, final = lengths["semi"] or every, lengths["final"] or every
        per_round = [every] if semi == final == every else [semi, final]
        event.playoff_best_of = per_round
        event.save(update_fields=["playoff_best_of"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0014_crosscheck_judges_check_in")]

    operations = [
        migrations.RunPython(by_name, by_round),
        migrations.AlterField(
            model_name="event",
            name="playoff_best_of",
            field=models.JSONField(
                blank=True,
                default=lengths_default,
                help_text="games per playoff match by the round's name, counted from the final: "
                '{"every": 5, "semi": 7, "final": 7}; "semi" and "final" may be null (as every '
                "round)",
            ),
        ),
    ]
