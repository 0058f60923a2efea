from django.apps import AppConfig


class MemoriesConfig(AppConfig):
    name = "memories"
    verbose_name = "Memories"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from dbkit.sqlite_checkpoint import on_connection_created

        connection_created.connect(on_connection_created, dispatch_uid="memgov-sqlite-checkpoint")
