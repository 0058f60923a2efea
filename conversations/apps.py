from django.apps import AppConfig


class ConversationsConfig(AppConfig):
    name = "conversations"
    label = "conversations"  # not "sessions": that is django.contrib.sessions' label
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = "Sessions and history"
