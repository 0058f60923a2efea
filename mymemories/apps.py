from django.apps import AppConfig


class MyMemoriesConfig(AppConfig):
    name = "mymemories"
    verbose_name = "My memories"
