from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "Agent and person API"

    def ready(self) -> None:
        from api import schema_auth  # noqa: F401  (registers the agent key with drf-spectacular)
