import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("governance", "0006_ruledecision_to_memories"),
        ("memories", "0010_extraction_provenance_citations"),
    ]

    operations = [
        migrations.CreateModel(
            name="AgentAccess",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("user_id", models.CharField(max_length=128)),
                ("blocked", models.BooleanField(default=False)),
                ("changed_by", models.CharField(max_length=160)),
                ("changed_at", models.DateTimeField()),
                (
                    "agent",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="governance.agentclient"
                    ),
                ),
                (
                    "tenant",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="governance.tenant",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("tenant", "user_id", "agent"), name="agentaccess_unique")
                ],
            },
        ),
    ]
