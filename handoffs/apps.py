from django.apps import AppConfig


class HandoffsConfig(AppConfig):
    name = "handoffs"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Handoffs between agents"
