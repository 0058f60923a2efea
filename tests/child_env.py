"""The environment a child process (a served stack, a worker, a stdio server) needs to use this test run's
databases: both URLs, the keys database's given explicitly, since the test databases' names (``…_gw1``
under xdist) aren't the names settings would derive one from the other."""

from __future__ import annotations

from django.db import connections


def database_url(alias: str = "default") -> str:
    db = connections[alias].settings_dict
    if connections[alias].vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def database_env() -> dict[str, str]:
    return {"DATABASE_URL": database_url(), "MEMGOV_KEYS_DATABASE_URL": database_url("keys")}
