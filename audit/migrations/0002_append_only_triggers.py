"""The database itself refuses UPDATE and DELETE on audit events (SQLite and PostgreSQL)."""

from django.db import migrations


def install(apps, schema_editor):
    from audit.db import install_triggers

    install_triggers(schema_editor.connection)


def remove(apps, schema_editor):
    from audit.db import remove_triggers

    remove_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("audit", "0001_initial")]
    operations = [migrations.RunPython(install, remove)]
