"""The data key model moves from ``memories`` to ``vault`` (the key store both apps sit on). The table
and its rows stay as they are: this changes Django's state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("governance", "0001_initial"),
        ("memories", "0006_drop_unused_fingerprint_index"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="DataKey",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("owner", models.CharField(blank=True, max_length=128)),
                        ("wrapped_key", models.BinaryField()),
                        ("master_key_version", models.PositiveIntegerField()),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "tenant",
                            models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, to="governance.tenant"),
                        ),
                    ],
                    options={
                        "db_table": "memories_datakey",
                        "constraints": [
                            models.UniqueConstraint(fields=("tenant", "owner"), name="datakey_unique_owner")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
