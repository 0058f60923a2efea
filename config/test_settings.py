"""Settings for the test suite: the production settings, with test-only secrets from the environment."""

import base64
import os

os.environ.setdefault("MEMGOV_SECRET_KEY", "memgov-test-secret")
# A fresh master key per run: tests must never depend on a key that lives in the repository.
os.environ.setdefault("MEMGOV_MASTER_KEY", "1:" + base64.b64encode(os.urandom(32)).decode())
os.environ.setdefault("MEMGOV_AUDIT_SIGNING_KEY", base64.b64encode(os.urandom(32)).decode())
os.environ.setdefault("MEMGOV_ALLOWED_HOSTS", "testserver,127.0.0.1,localhost")

from config.settings import *  # noqa: F403
from config.settings import DATABASES, VAR_DIR

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False

for _alias, _suffix in (("default", ""), ("keys", "-keys")):
    if DATABASES[_alias]["ENGINE"] == "dbkit.sqlite3":
        # A file, not :memory:, so that threads and the raw-bytes tests see the real database file.
        # One file per test run, so that parallel runs on one machine never share a database.
        DATABASES[_alias]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}{_suffix}.sqlite3")}
    elif DATABASES[_alias]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES[_alias]["TEST"] = {"NAME": f"test_memgov_{os.getpid()}{_suffix.replace('-', '_')}"}
