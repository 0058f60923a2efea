"""RuleDecision is a decision on a memory record and now belongs to ``memories``; its table, rows and
sealed reasons stay as they are (state only)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("governance", "0005_policy_reason_encrypted"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="RuleDecision")], database_operations=[]
        ),
    ]
