"""The data key model now belongs to ``vault``; its table is untouched (state only)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0006_drop_unused_fingerprint_index"),
        ("vault", "0001_datakey_from_memories"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="DataKey")], database_operations=[]
        ),
    ]
