from django.apps import AppConfig


class VaultConfig(AppConfig):
    name = "vault"
    verbose_name = "Keys"
