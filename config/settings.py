"""memgov settings: everything comes from the environment (prefix MEMGOV_, plus DATABASE_URL)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import envbool, envint, envlist, envsecret, envstr

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(envstr("MEMGOV_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = envbool("MEMGOV_DEBUG", False)
# Django's debug 404/500 pages (URL patterns, tracebacks) only when asked for, even with DEBUG on.
MEMGOV_DEBUG_PAGES = DEBUG and envbool("MEMGOV_DEBUG_PAGES", False)

SECRET_KEY = envsecret("MEMGOV_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("MEMGOV_SECRET_KEY (or MEMGOV_SECRET_KEY_FILE) is required when MEMGOV_DEBUG is off")
    SECRET_KEY = "memgov-insecure-development-only"

ALLOWED_HOSTS = envlist("MEMGOV_ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "guardian",
    "axes",
    "vault",
    "governance",
    "memories",
    "conversations",
    "handoffs",
    "audit",
    "api",
    "mymemories",
    "console",
    "mcpserver",
    "monitoring",
    "evaluation",
    "demo",
]

MIDDLEWARE = [
    "config.middleware.CleanFailureMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into config/lockout.py's 429.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
_default_sqlite = f"sqlite:///{VAR_DIR / 'memgov.sqlite3'}"
_SQLITE_OPTIONS = {
    # IMMEDIATE: a writer takes the lock at BEGIN, so two writers queue on busy_timeout instead
    # of one failing with "database is locked" when it upgrades a read lock mid-transaction.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA busy_timeout=20000;"
        # A 64 MiB page cache and memory-mapped reads: inserts touch random leaves of the
        # fingerprint and audit indexes, and with SQLite's 8 MiB default each miss was a read().
        " PRAGMA cache_size=-65536; PRAGMA mmap_size=268435456;"
        # Freed pages are zeroed: a deleted key or ciphertext does not linger in the file's free pages.
        " PRAGMA secure_delete=ON;"
    ),
}
# MEMGOV_PG_PREPARE_THRESHOLD: bind parameters on the server, and prepare a statement once a connection
# has run it this many times: a context read runs the same handful of statements on every request, and
# quoting them client-side and having the server parse and plan each one again cost ~2-3 ms of a ~14 ms
# read. Behind a pooler in transaction mode that can't keep prepared statements (PgBouncer < 1.21), set
# it to -1 (parameters stay server-bound, nothing is prepared).
_prepare_threshold = envint("MEMGOV_PG_PREPARE_THRESHOLD", 5)


def _database(url: str) -> dict:
    config = dj_database_url.parse(url, conn_max_age=60)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["ENGINE"] = "dbkit.sqlite3"  # Django's, with placeholders converted once per statement
        config["OPTIONS"] = dict(_SQLITE_OPTIONS)
    elif config["ENGINE"] == "django.db.backends.postgresql":
        config.setdefault("OPTIONS", {}).update(
            server_side_binding=True, prepare_threshold=None if _prepare_threshold < 0 else _prepare_threshold
        )
    return config


def _keys_url_beside(content_url: str) -> str:
    """The key store's default: a second SQLite file beside the content one, or a second PostgreSQL
    database on the same server named ``<name>_keys``."""
    config = dj_database_url.parse(content_url)
    base, _, query = content_url.partition("?")
    name = str(config["NAME"])
    if config["ENGINE"] == "django.db.backends.sqlite3":
        stem, dot, suffix = name.rpartition(".")
        keys_name = f"{stem}-keys.{suffix}" if dot else f"{name}-keys"
    else:
        keys_name = f"{name}_keys"
    head = base[: len(base) - len(name)] if base.endswith(name) else base.rstrip("/") + "/"
    return head + keys_name + (f"?{query}" if query else "")


_content_url = envstr("DATABASE_URL", _default_sqlite)
# The data keys live in a database of their own (vault/router.py): a backup of the content holds none.
MEMGOV_KEYS_DATABASE_URL = envstr("MEMGOV_KEYS_DATABASE_URL", "") or _keys_url_beside(_content_url)
DATABASES = {"default": _database(_content_url), "keys": _database(MEMGOV_KEYS_DATABASE_URL)}
DATABASE_ROUTERS = ["vault.router.KeyStoreRouter"]

# The login role the service runs as on PostgreSQL (audit/pg_roles.py): migrate (as the owner) grants it
# its rights. Unset: no grants are managed (a single-role installation, or SQLite).
MEMGOV_PG_SERVICE_ROLE = envstr("MEMGOV_PG_SERVICE_ROLE", "")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out sign-in before the password is even checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
# Failed sign-ins (django-axes): this many from one address, or for one username, lock it for a while.
AXES_FAILURE_LIMIT = envint("MEMGOV_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("MEMGOV_LOGIN_LOCKOUT_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_LOCKOUT_CALLABLE = "config.lockout.lockout_response"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# Failed agent keys (api/auth.py): this many from one address within the window answer 429 until it passes.
MEMGOV_AGENT_AUTH_FAILURE_LIMIT = envint("MEMGOV_AGENT_AUTH_FAILURE_LIMIT", 10)
MEMGOV_AGENT_AUTH_WINDOW_SECONDS = envint("MEMGOV_AGENT_AUTH_WINDOW_SECONDS", 300)
# The counters above live in the cache: per process by default; Redis (redis://…) shares them.
_cache_url = envstr("MEMGOV_CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _cache_url}
    if _cache_url
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "memgov"}
}
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

# --- I18n ----------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = envstr("MEMGOV_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Serve assets straight from the source tree: one process, no collectstatic step to forget.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
STATIC_ROOT.mkdir(parents=True, exist_ok=True)

# --- Security --------------------------------------------------------------------------------
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = envbool("MEMGOV_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind TLS (set these in production): redirect plain HTTP to HTTPS and send HSTS. Behind a proxy that
# terminates TLS, MEMGOV_TLS_PROXY_HEADER=1 trusts its X-Forwarded-Proto (only if the proxy sets it).
SECURE_SSL_REDIRECT = envbool("MEMGOV_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$", r"^metrics$"]  # probes and scrapers on plain HTTP inside
SECURE_HSTS_SECONDS = envint("MEMGOV_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("MEMGOV_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = envbool("MEMGOV_HSTS_PRELOAD", False)
if envbool("MEMGOV_TLS_PROXY_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# --- API -------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.auth.AgentKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated", "api.scopes.AgentScopePermission"],
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.JSONParser",
        "api.parsers.FormParser",
        "api.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "memgov API",
    "DESCRIPTION": "Memory governance for AI agents: write candidates, read scoped context, audit.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Choice sets that share a field name ("type", "state", "approval_status") with another set: each named.
    "ENUM_NAME_OVERRIDES": {
        "TypeEnum": "governance.vocabulary.MEMORY_TYPE_VALUES",
        "ToolResultTypeEnum": "conversations.vocabulary.TOOL_RESULT_TYPE_VALUES",
        "SessionStateEnum": "conversations.vocabulary.SESSION_STATE_VALUES",
        "RequestedSessionStateEnum": "conversations.vocabulary.REQUESTED_STATE_VALUES",
        "ApprovalStatusEnum": "conversations.vocabulary.APPROVAL_STATUS_VALUES",
        "ApprovalOutcomeEnum": "conversations.vocabulary.APPROVAL_OUTCOME_VALUES",
    },
}

# --- memgov ----------------------------------------------------------------------------------
# The master key wraps every data key. It never lives in code, settings defaults or the database.
# The variable itself only; MEMGOV_MASTER_KEY_FILE is read by vault/keyring.py.
MEMGOV_MASTER_KEY = envstr("MEMGOV_MASTER_KEY")
MEMGOV_MASTER_KEY_FILE_PATH = envstr("MEMGOV_MASTER_KEY_FILE", "")
MEMGOV_DEV_KEY_FILE = VAR_DIR / "master.key"
MEMGOV_MAX_CONTENT_CHARS = envint("MEMGOV_MAX_CONTENT_CHARS", 2000)
# SQLite only: how often each process checkpoints the WAL in the background (0: leave it to SQLite,
# which then checkpoints inside commits). See dbkit/sqlite_checkpoint.py.
MEMGOV_SQLITE_CHECKPOINT_SECONDS = envint("MEMGOV_SQLITE_CHECKPOINT_SECONDS", 1)
MEMGOV_AUDIT_SIGNING_KEY = envsecret("MEMGOV_AUDIT_SIGNING_KEY")
# Signed chain-head checkpoints go outside the database (audit/checkpoints.py): a directory by default,
# or a sink class of your own (object storage, syslog) named by its dotted path.
MEMGOV_AUDIT_CHECKPOINT_DIR = Path(envstr("MEMGOV_AUDIT_CHECKPOINT_DIR", str(VAR_DIR / "audit-checkpoints")))
MEMGOV_AUDIT_CHECKPOINT_SINK = envstr("MEMGOV_AUDIT_CHECKPOINT_SINK", "")
# Erased subjects, kept outside both databases so a restore can be followed by apply_erasures (vault/erasure.py).
MEMGOV_ERASURE_TOMBSTONE_DIR = Path(envstr("MEMGOV_ERASURE_TOMBSTONE_DIR", str(VAR_DIR / "erasure-tombstones")))
# Who may scrape /metrics: a bearer token; unset, only direct connections from this machine.
MEMGOV_METRICS_TOKEN = envsecret("MEMGOV_METRICS_TOKEN")
# Semantic ranking (docs/retrieval.md): builtin (offline, shipped with the install), model2vec (a model
# directory), openai (an OpenAI-compatible /embeddings endpoint) or none (lexical only).
MEMGOV_EMBEDDER = envstr("MEMGOV_EMBEDDER", "builtin").strip().lower()
MEMGOV_EMBEDDER_PATH = envstr("MEMGOV_EMBEDDER_PATH", "")
MEMGOV_EMBEDDER_URL = envstr("MEMGOV_EMBEDDER_URL", "")
MEMGOV_EMBEDDER_MODEL = envstr("MEMGOV_EMBEDDER_MODEL", "")
MEMGOV_EMBEDDER_API_KEY = envsecret("MEMGOV_EMBEDDER_API_KEY")
MEMGOV_EMBEDDER_TIMEOUT = envint("MEMGOV_EMBEDDER_TIMEOUT", 10)
MEMGOV_EMBEDDER_DIMENSIONS = envint("MEMGOV_EMBEDDER_DIMENSIONS", 0)
if MEMGOV_EMBEDDER not in ("none", "builtin", "model2vec", "openai"):
    raise ImproperlyConfigured(f"MEMGOV_EMBEDDER must be none, builtin, model2vec or openai, got {MEMGOV_EMBEDDER!r}")
# Label metrics with tenant slugs (names) rather than numeric ids: off by default, a scraper needn't know them.
MEMGOV_METRICS_TENANT_NAMES = envbool("MEMGOV_METRICS_TENANT_NAMES", False)

# --- Celery ----------------------------------------------------------------------------------
CELERY_BROKER_URL = envstr("MEMGOV_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = envbool("MEMGOV_TASKS_EAGER", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": envstr("MEMGOV_LOG_LEVEL", "INFO")},
    # presidio logs every analysis call at INFO; keep its warnings only.
    # The MCP SDK logs every stateless request at INFO ("Terminating session: None"); its warnings stay.
    "loggers": {"presidio-analyzer": {"level": "WARNING"}, "mcp": {"level": "WARNING"}},
}

# --- Sessions --------------------------------------------------------------------------------
# The longest content (and state delta, as JSON) one session event may carry, in characters.
MEMGOV_SESSION_MAX_EVENT_CHARS = envint("MEMGOV_SESSION_MAX_EVENT_CHARS", 64_000)
# An optional LLM summarizer for compaction (an OpenAI-compatible chat completions URL); unset, the
# deterministic summarizer runs, offline.
MEMGOV_SUMMARIZER_URL = envstr("MEMGOV_SUMMARIZER_URL", "")
MEMGOV_SUMMARIZER_MODEL = envstr("MEMGOV_SUMMARIZER_MODEL", "")
MEMGOV_SUMMARIZER_API_KEY = envsecret("MEMGOV_SUMMARIZER_API_KEY")
MEMGOV_SUMMARIZER_TIMEOUT = envint("MEMGOV_SUMMARIZER_TIMEOUT", 30)
# Phase 1's optional LLM extractor (conversations/extraction/llm.py): off unless the URL is set.
MEMGOV_EXTRACTOR_URL = envstr("MEMGOV_EXTRACTOR_URL", "")
MEMGOV_EXTRACTOR_MODEL = envstr("MEMGOV_EXTRACTOR_MODEL", "")
MEMGOV_EXTRACTOR_API_KEY = envsecret("MEMGOV_EXTRACTOR_API_KEY")
MEMGOV_EXTRACTOR_TIMEOUT = envint("MEMGOV_EXTRACTOR_TIMEOUT", 30)
