from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0015_playoff_lengths_by_name")]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="link_emailed_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when this entry's private link was e-mailed to the player, for an "
                "entry made for them (the Consolation's)",
                null=True,
            ),
        ),
    ]
