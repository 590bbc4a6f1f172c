"""A season's deal secret: a solo season's chance, which nobody can foresee (it was derived from the season's id)."""

import secrets

from django.db import migrations, models

import arena.seasons.models


def give_each_its_own(apps, schema_editor):
    # AddField filled every existing row with one value of the default; each season gets its own.
    Season = apps.get_model("seasons", "Season")
    for season in Season.objects.only("pk"):
        Season.objects.filter(pk=season.pk).update(deal_secret=secrets.token_hex(32))


class Migration(migrations.Migration):
    dependencies = [("seasons", "0004_standing_roles")]

    operations = [
        migrations.AddField(
            model_name="season",
            name="deal_secret",
            field=models.CharField(
                default=arena.seasons.models.new_deal_secret,
                editable=False,
                help_text="a solo season's chance secret: every version plays the same deals, which nobody can foresee",
                max_length=64,
            ),
        ),
        migrations.RunPython(give_each_its_own, migrations.RunPython.noop),
    ]
