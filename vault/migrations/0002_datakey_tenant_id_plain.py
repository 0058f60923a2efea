"""A data key's tenant becomes a plain number: the key store sits below tenancy and can live in a
database of its own, where no foreign key to the tenant table could exist. Ids and rows are kept."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("vault", "0001_datakey_from_memories"),
        ("memories", "0007_datakey_to_vault"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="datakey", name="datakey_unique_owner"),
        migrations.AlterField(model_name="datakey", name="tenant", field=models.BigIntegerField(db_column="tenant_id")),
        migrations.RenameField(model_name="datakey", old_name="tenant", new_name="tenant_id"),
        migrations.AlterField(model_name="datakey", name="tenant_id", field=models.BigIntegerField()),
        migrations.AddConstraint(
            model_name="datakey",
            constraint=models.UniqueConstraint(fields=("tenant_id", "owner"), name="datakey_unique_owner"),
        ),
    ]
