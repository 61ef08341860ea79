from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", "0011_stored_functions"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="share_pick_data",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="pod",
            name="logs_public",
            field=models.BooleanField(default=False),
        ),
    ]
