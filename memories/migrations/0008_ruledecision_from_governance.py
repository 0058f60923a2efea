"""RuleDecision moves here from ``governance`` (state only: the table ``governance_ruledecision`` and its
rows are untouched)."""

import django.db.models.deletion
from django.db import migrations, models

import dbkit.ids
import vault.fields


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0007_datakey_to_vault"),
        ("governance", "0006_ruledecision_to_memories"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RuleDecision",
                    fields=[
                        (
                            "id",
                            models.UUIDField(
                                default=dbkit.ids.new_id, editable=False, primary_key=True, serialize=False
                            ),
                        ),
                        (
                            "kind",
                            models.CharField(
                                choices=[("approve", "Approve"), ("reject", "Reject"), ("revoke", "Revoke")],
                                max_length=8,
                            ),
                        ),
                        ("actor", models.CharField(max_length=160)),
                        ("reason", vault.fields.EncryptedTextField(blank=True, null=True)),
                        ("memory_version", models.PositiveIntegerField()),
                        ("high_risk", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        (
                            "memory",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="rule_decisions",
                                to="memories.memory",
                            ),
                        ),
                        (
                            "tenant",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE, related_name="+", to="governance.tenant"
                            ),
                        ),
                    ],
                    options={
                        "db_table": "governance_ruledecision",
                        "ordering": ["created_at"],
                        "indexes": [models.Index(fields=["tenant", "memory"], name="ruledecision_memory")],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("kind", "approve")),
                                fields=("memory", "actor"),
                                name="ruledecision_one_approval_each",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
