"""Golf club settings: one file, everything that differs between machines comes from the environment.

DATABASE_URL  sqlite:///db.sqlite3 by default; postgres://user@host:5432/name in production and CI.
SECRET_KEY    required when DEBUG is off.
DEBUG         "true" for local development (`make run` sets it); unset or "false" is production.
ALLOWED_HOSTS comma-separated host names.
REDIS_URL     optional shared cache (redis://127.0.0.1:6379/0); without it the database cache table,
              so rate-limit counters are shared by every process and machine either way. While
              Redis does not answer, the database cache stands in (REDIS_TIMEOUT_SECONDS,
              REDIS_RETRY_SECONDS: see README, "Configuration").
CLIENT_IP_HEADER, RATELIMIT_*, AXES_*  abuse limits (see README, "Configuration").
GOLFCLUB_SIGNUP_OPEN  whether anyone may create an account at /accounts/signup/ (default: with DEBUG).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean from the environment: 1/true/yes/on are true, anything else false."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated list from the environment, ignoring blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Production unless told otherwise: a server started without DEBUG must never show tracebacks.
DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "django_ratelimit",
    "golfclub.apps.GolfclubConfig",
    "scoring",
    "clubs",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Outermost of ours: every answer under /api/ leaves as JSON in the API's error shape.
    "golfclub.middleware.ApiErrorShapeMiddleware",
    # Before anything reads the body: an oversized request is a 413 without being read.
    "golfclub.middleware.RequestBodyLimitMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication (a logged-in user's page views are not a table's phone): notes when a
    # game's edit link was last used and what its phone still holds (scoring.phone_contact).
    "golfclub.middleware.PhoneContactMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A NUL (or other unusable text) in a query string or form body: 400 before any view
    # (golfclub.core.inputs).
    "golfclub.input_guard.InputGuardMiddleware",
    # Answers a page's refusal raised by its access call (golfclub.core.errors.PageRefusal).
    "golfclub.middleware.PageRefusalMiddleware",
    # Last, as django-axes asks: turns a locked-out login into our 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "golfclub.urls"

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
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
            ],
        },
    },
]

WSGI_APPLICATION = "golfclub.wsgi.application"
ASGI_APPLICATION = "golfclub.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"].endswith("postgresql") and env_bool("DATABASE_SERVER_SIDE_BINDING", False):
    # Optional: PostgreSQL then plans a repeated statement once per connection (psycopg prepares
    # it on its second use). Measured no faster for recording holes (docs/performance.md), and it
    # cannot work behind a pooler in transaction mode, so it is off unless asked for.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 2}
    )
# Recording a hole sends its few statements as EXECUTEs of statements prepared once per connection
# (scoring/db_batch.py): PostgreSQL plans them once instead of on every hole, about a fifth less of
# its CPU per hole. Prepared statements live in one server connection: turn this off behind a pooler
# in transaction mode (PgBouncer's pool_mode=transaction), where the next transaction may get another.
DATABASE_PREPARE_HOT_STATEMENTS = env_bool("DATABASE_PREPARE_HOT_STATEMENTS", True)
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Wait for a lock instead of failing at once when two requests write at the same moment.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds the rate-limit counters, so it must be shared by every process: Redis when given,
# else a table in the database (`manage.py migrate` creates it, see golfclub/apps.py). Never a
# per-process memory cache: each gunicorn worker would count on its own.
REDIS_URL = os.environ.get("REDIS_URL", "")
DATABASE_CACHE = {
    "BACKEND": "golfclub.cache.DatabaseCache",
    "LOCATION": "golfclub_cache",
    # Django's default, 300 entries, is a page cache's: past it, every `set` deletes a third of the
    # live keys, rate-limit counters included (an event of 150 tables counting hole writes is past
    # it). Expired rows (old counting windows) are deleted first, when the table passes this size.
    "OPTIONS": {"MAX_ENTRIES": 50_000},
}
if REDIS_URL:
    # A Redis that stops answering must not stop the scoring: the database cache stands in (rate
    # limits keep counting there) and the process leaves Redis alone for REDIS_RETRY_SECONDS after
    # each failure, so each try costs at most the short timeouts below (golfclub/cache.py).
    CACHES = {
        "default": {
            "BACKEND": "golfclub.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "FALLBACK": "database",
            "RETRY_SECONDS": float(os.environ.get("REDIS_RETRY_SECONDS", "5")),
            "OPTIONS": {
                "socket_connect_timeout": float(os.environ.get("REDIS_TIMEOUT_SECONDS", "0.25")),
                "socket_timeout": float(os.environ.get("REDIS_TIMEOUT_SECONDS", "0.25")),
            },
        },
        "database": DATABASE_CACHE,
    }
else:
    CACHES = {"default": DATABASE_CACHE}
# django-ratelimit knows only memcached and django-redis by name; ours are shared and count
# atomically (golfclub/cache.py), which is what its warning is about.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

# --- Abuse limits -------------------------------------------------------------------------------
# The client's address: REMOTE_ADDR, or behind a load balancer the header it sets (e.g.
# X-Forwarded-For). Only name a header your proxy overwrites: clients can send any header.
CLIENT_IP_HEADER = os.environ.get("CLIENT_IP_HEADER", "")
# In a list-valued header (X-Forwarded-For) the client is this many entries from the right: 1 when
# one proxy appends the address it saw, 2 behind two proxies.
CLIENT_IP_PROXY_COUNT = int(os.environ.get("CLIENT_IP_PROXY_COUNT", "1"))

# django-ratelimit rates, "count/period" (s, m, h, d), several separated by commas (all must hold).
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", True)
RATELIMIT_GAME_CREATE = os.environ.get("RATELIMIT_GAME_CREATE", "20/m,200/h")  # per client address
RATELIMIT_TOURNAMENT_CREATE = os.environ.get("RATELIMIT_TOURNAMENT_CREATE", "10/m,60/h")  # per client address
RATELIMIT_CLUB_CREATE = os.environ.get("RATELIMIT_CLUB_CREATE", "10/m,60/h")  # per client address
RATELIMIT_HOLE_WRITES = os.environ.get("RATELIMIT_HOLE_WRITES", "60/m,600/h")  # per game link
RATELIMIT_SIGNUP = os.environ.get("RATELIMIT_SIGNUP", "5/m,20/h")  # sign-up attempts per client address
RATELIMIT_USE_CACHE = "default"

# django-axes: after AXES_FAILURE_LIMIT wrong passwords (on /accounts/login/ and /admin/login/ alike)
# even the right one is refused until AXES_COOLOFF_MINUTES have passed since the last failure.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
# "ip_address" (default), "username", or "username+ip_address" for the pair; comma-separated for
# several, any of which locks out.
AXES_LOCKOUT_PARAMETERS = [
    item.split("+") if "+" in item else item for item in env_list("AXES_LOCKOUT_PARAMETERS", "ip_address")
]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "golfclub.core.client_ip.axes_client_ip"
AXES_LOCKOUT_CALLABLE = "golfclub.core.rate_limits.lockout_response"
AXES_VERBOSE = False

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# Anyone may create an account at /accounts/signup/ while this is on: open for local development,
# closed on a server unless the club wants open registration (accounts are then made by the admin).
GOLFCLUB_SIGNUP_OPEN = env_bool("GOLFCLUB_SIGNUP_OPEN", DEBUG)
# Note when each game's phone was last heard from (golfclub.middleware.PhoneContactMiddleware). Always
# on outside the test suite, whose settings turn it off so that the query budgets of other tests
# count their views alone; the tests of the feature turn it on.
GOLFCLUB_PHONE_CONTACT = True

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's JSONParser, but a body too large or nested too deep is a 400 instead of a 500.
    "DEFAULT_PARSER_CLASSES": ["golfclub.core.parsers.BoundedJSONParser"],
    # Browsers: the session cookie, with its CSRF check. Scripts: "Authorization: Token <key>" (no CSRF:
    # the header is not sent by a browser on its own), keys from /accounts/token/ or create_api_token.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Golf club API",
    "DESCRIPTION": (
        "Score Golf (the card game) grids and holes under any ruleset, and keep live games.\n\n"
        'Every error answer is JSON: `{"detail": ..., "errors": [{"where", "message"}]}`. '
        "Every POST takes an `Idempotency-Key` header: a write is carried out once per key (a "
        "replay answers the first answer; the key with another body, 422); a POST that only "
        "computes is safe to repeat as it is. A JSON object naming a key twice is a 400 naming it. "
        "A body over 256 KB is refused with **413** before it is read, an address over 2,048 "
        "characters with **414**. Creating games (per client "
        "address) and writing a game's holes or undo (per game link) are rate-limited: over the "
        "limit the answer is **429** with a `Retry-After` header giving the seconds to wait."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # 413, 414 and 429 on the operations that give them, in the error shape (scoring/api/limit_answers.py).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "scoring.api.limit_answers.document_limit_answers",
    ],
    "TAGS": [
        {"name": "scoring", "description": "Score one grid, or a whole hole of a table, under any ruleset."},
        {"name": "rulesets", "description": "The presets, every parameter resolved, and what each means."},
        {"name": "games", "description": "Live games: create, read by edit or view token, scoreboard."},
        {"name": "holes", "description": "Record, correct and delete holes (If-Match, Idempotency-Key)."},
        {"name": "players", "description": "The players of a game, and a logged-in user's roster."},
        {"name": "exports", "description": "A game as CSV or JSON, and each player's results summary."},
        {"name": "tournaments", "description": "Events: settings, players, rounds, tables, standings."},
    ],
}

# Production hardening (manage.py check --deploy is clean with DEBUG=false).
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Oversized requests: 413 before the body is read (golfclub/middleware.py). Pages take at most
# DATA_UPLOAD_MAX_MEMORY_SIZE (Django's 2.5 MB) including any file; the API takes JSON only, and
# never more than its parser reads (golfclub/core/parsers.py, 256 KB).
DATA_UPLOAD_MAX_MEMORY_SIZE = int(os.environ.get("DATA_UPLOAD_MAX_MEMORY_SIZE", str(2_621_440)))
CSRF_FAILURE_VIEW = "golfclub.core.errors.csrf_failure"

# Content-Security-Policy (Django's own middleware): scripts and styles only from our static files
# or carrying the response's nonce; no inline style attributes, no eval. The API docs page relaxes
# what Redoc needs (golfclub/urls.py).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    # The service worker (/sw.js) and the web app manifest: the site's own, as default-src already
    # allows; named so that a change to default-src cannot silently turn the installable app off.
    "worker-src": [CSP.SELF],
    "manifest-src": [CSP.SELF],
}

# Edit tokens are secrets in URL paths: every handler masks them (golfclub/log_filters.py), and the
# error e-mails to ADMINS use a reporter filter that masks them in the request and the frames.
ADMINS = env_list("ADMINS")  # e-mail addresses
# Django 6.1's mailers: SMTP on EMAIL_HOST (default localhost) for the error e-mails.
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {"host": os.environ.get("EMAIL_HOST", "localhost")},
    }
}
DEFAULT_EXCEPTION_REPORTER_FILTER = "golfclub.log_filters.TokenMaskingReporterFilter"
DEFAULT_EXCEPTION_REPORTER = "golfclub.log_filters.TokenMaskingExceptionReporter"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "mask_tokens": {"()": "golfclub.log_filters.MaskTokensFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["mask_tokens"]},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false", "mask_tokens"],
        },
    },
    "loggers": {
        # Replaces Django's default handlers for its own loggers (which would log unmasked).
        "django": {
            "handlers": ["console", "mail_admins"],
            "level": os.environ.get("LOG_LEVEL", "WARNING"),
            "propagate": False,
        },
        "django.server": {"handlers": ["console"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
