"""PostgreSQL refuses TRUNCATE of the audit tables too, and both databases refuse deleting a chain head."""

from django.db import migrations


def install(apps, schema_editor):
    from audit.db import install_triggers

    install_triggers(schema_editor.connection)


def noop(apps, schema_editor):
    pass  # 0002's reverse removes the triggers


class Migration(migrations.Migration):
    dependencies = [("audit", "0003_tenant_index_covered")]
    operations = [migrations.RunPython(install, noop)]
