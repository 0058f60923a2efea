"""Policy reasons are what an admin typed: store them encrypted with the tenant's shared key, like
every other reason. Existing reasons are sealed here with the data keys of the running installation
(the master key comes from the environment, as for the app). Migrating back leaves reasons empty."""

from django.db import migrations

import vault.fields

FIELD = "reason"  # the final attname, which the associated data names


def _aad(row) -> bytes:
    from vault.envelope import associated_data

    return associated_data(
        model="governance.policyversion", tenant_id=row.tenant_id, record_id=str(row.pk), field=FIELD
    )


def seal_reasons(apps, schema_editor) -> None:
    from vault.datakeys import data_key_for
    from vault.envelope import seal

    PolicyVersion = apps.get_model("governance", "PolicyVersion")
    for row in PolicyVersion.objects.exclude(reason="").only("pk", "tenant_id", "reason").iterator():
        key_id, key = data_key_for(tenant_id=row.tenant_id, owner="")
        PolicyVersion.objects.filter(pk=row.pk).update(
            reason_sealed=seal(row.reason, key_id=key_id, key=key, aad=_aad(row))
        )


class Migration(migrations.Migration):
    dependencies = [
        ("governance", "0004_invitations"),
        ("memories", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="policyversion",
            name="reason_sealed",
            field=vault.fields.EncryptedTextField(blank=True, null=True),
        ),
        migrations.RunPython(seal_reasons, migrations.RunPython.noop),
        migrations.RemoveField(model_name="policyversion", name="reason"),
        migrations.RenameField(model_name="policyversion", old_name="reason_sealed", new_name="reason"),
    ]
