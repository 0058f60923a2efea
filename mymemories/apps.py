from django.apps import AppConfig


class MyMemoriesConfig(AppConfig):
    name = "mymemories"
    verbose_name = "My memories"

    def ready(self) -> None:
        from axes.signals import user_locked_out

        from governance.services.security import on_login_locked_out

        # django-axes' hook, not a model signal: a sign-in lockout is recorded once, in its tenant.
        user_locked_out.connect(on_login_locked_out, dispatch_uid="memgov-login-locked-out")
