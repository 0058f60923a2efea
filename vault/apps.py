from django.apps import AppConfig


class VaultConfig(AppConfig):
    name = "vault"
    verbose_name = "Keys"

    def ready(self) -> None:
        from vault import checks  # noqa: F401 — registers the legacy-keys check
