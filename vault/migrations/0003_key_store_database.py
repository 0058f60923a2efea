"""The key store gets its own database (vault/router.py): its tables are created there, not in the content
database, whose legacy ``memories_datakey`` table ``manage.py move_data_keys`` empties."""

from django.db import migrations, models


def create_key_store_tables(apps, schema_editor):
    existing = set(schema_editor.connection.introspection.table_names())
    for name in ("DataKey", "ErasureTombstone"):
        model = apps.get_model("vault", name)
        if model._meta.db_table not in existing:
            schema_editor.create_model(model)


def drop_key_store_tables(apps, schema_editor):
    schema_editor.delete_model(apps.get_model("vault", "ErasureTombstone"))
    schema_editor.delete_model(apps.get_model("vault", "DataKey"))


class Migration(migrations.Migration):
    dependencies = [("vault", "0002_datakey_tenant_id_plain")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ErasureTombstone",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("tenant_id", models.BigIntegerField()),
                        ("owner", models.CharField(max_length=128)),
                        ("erased_at", models.DateTimeField(auto_now_add=True)),
                    ],
                    options={
                        "constraints": [
                            models.UniqueConstraint(fields=("tenant_id", "owner"), name="tombstone_unique_owner")
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(create_key_store_tables, drop_key_store_tables, hints={"key_store": True}),
    ]
