from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("conversations", "0002_extraction_provenance_citations"),
    ]

    operations = [
        migrations.AddField(
            model_name="session",
            name="save_from_seq",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
