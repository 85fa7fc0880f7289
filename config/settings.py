"""Django settings, read from the environment.

`DATABASE_URL`, `SECRET_KEY`, `DEBUG`, `ALLOWED_HOSTS`, `CSRF_TRUSTED_ORIGINS` and `REDIS_URL`
configure a deployment; with none of them set and `DEBUG=1` the app runs on an SQLite file in the
project with each process's own memory as its cache.
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from csp.constants import NONE, SELF, WASM_UNSAFE_EVAL
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no environment variable, refusing anything ambiguous."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}."
    )


def env_int(name: str, default: int) -> int:
    """Read a whole-number environment variable."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number; got {raw!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated environment variable."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# Off unless asked for, so that a deployment that forgets it is never in debug mode.
DEBUG = env_bool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set SECRET_KEY to a long random string in production, "
            "or DEBUG=1 to use the development key."
        )
    SECRET_KEY = "django-insecure-development-only-key-never-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# A round or game sent as JSON by static/js/offline.js and refused by the CSRF check is told so
# in JSON, in words; a form keeps Django's page.
CSRF_FAILURE_VIEW = "scorekeeper.offline.views.csrf_failure"

INSTALLED_APPS = [
    # Before staticfiles, so that runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "scorekeeper",
    "leagues",
]

# Who else may score a game, beyond its owner and the phones given its scorer link.
SCORING_RULES = ["leagues.access.can_score_league_game"]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Text answers gzipped (after WhiteNoise, which serves static files compressed already).
    "config.middleware.CompressedText",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The start pages give a phone the id its rights to score are kept under.
    "scorekeeper.access.PhoneIdMiddleware",
    # Whose pages these are, for the service worker's kept copies (after the session's id).
    "scorekeeper.offline.owner.offline_owner",
    "config.middleware.private_for_its_viewer",
    "config.middleware.ForbiddenInOneLine",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A write that finds SQLite still busy after its timeout asks the phone to send it again.
    "scorekeeper.busy.BusyDatabaseMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
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
                "scorekeeper.display.choices.display_context",
            ],
        },
    },
]

# An SQLite file beside manage.py unless DATABASE_URL names another database (set but empty, as
# `DATABASE_URL= make run` leaves it, is unset); `migrate` creates the file on first run.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# SQLite for a club night: every transaction takes the write lock when it begins (a transaction
# that reads and then asks for the lock can be refused at once, the busy timeout unused, when
# another phone writes first); a phone waits up to SQLITE_BUSY_TIMEOUT seconds for another
# table's save; WAL lets pages be read while a round is written.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": env_int("SQLITE_BUSY_TIMEOUT", 20),
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {**SQLITE_OPTIONS, **DATABASES["default"].get("OPTIONS", {})}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache: each process's own memory unless REDIS_URL names a Redis server, which every app
# process then shares. Nothing the app caches is the only copy: each entry is keyed by a version
# read from the database, so a process's own cache can lag only until that version moves, and
# sessions, sign-in lockouts and data live in the database whatever the cache.
REDIS_SCHEMES = ("redis", "rediss", "unix")
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
# Keys start with this, so that several sites (or test runs) can share one Redis.
CACHE_KEY_PREFIX = os.environ.get("CACHE_KEY_PREFIX", "scorekeeper")
if REDIS_URL:
    if urlsplit(REDIS_URL).scheme not in REDIS_SCHEMES:
        raise ImproperlyConfigured(
            f"REDIS_URL must start with redis://, rediss:// or unix://; got {REDIS_URL!r}. "
            "Leave it unset to cache in each process's memory."
        )
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": CACHE_KEY_PREFIX,
            # A Redis that stops answering fails the request within a second instead of
            # holding a worker until the proxy gives up.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "scorekeeper",
            "KEY_PREFIX": CACHE_KEY_PREFIX,
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Filled by `collectstatic` at deploy time; in development static/ is served as it is.
STATIC_ROOT = None if DEBUG else BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            # Hashed, compressed files served for a year; needs `collectstatic` at deploy time.
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Security: strict by default when DEBUG is off (`manage.py check --deploy` is clean), each
# setting overridable for a deployment behind a proxy that terminates TLS differently.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # Load balancers probe health over plain HTTP.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    if env_bool("BEHIND_TLS_PROXY", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
# Accounts: django-axes counts failed sign-ins per username and address and refuses that pair
# for a while after too many; it must come first so that it sees every attempt.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Sign-up mails, counted in the database so that every app process counts the same: at most
# this many an hour to one address, and from one client address (a club's Wi-Fi is one).
SIGNUP_MAILS_PER_ADDRESS = env_int("SIGNUP_MAILS_PER_ADDRESS", 3)
SIGNUP_MAILS_PER_CLIENT = env_int("SIGNUP_MAILS_PER_CLIENT", 20)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
# Username and address together: a stranger typing someone's name cannot lock them out
# everywhere, and one address cannot try many passwords on one account.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "scorekeeper.accounts.services.locked_out"
# Behind reverse proxies every request comes from the nearest proxy's address, so the client's
# is read from X-Forwarded-For, counting this many proxies from the right. Left at 0 without
# proxies: the header is then ignored, since anyone can send one.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT must be 0 or more; got {TRUSTED_PROXY_COUNT}.")
AXES_CLIENT_IP_CALLABLE = "scorekeeper.accounts.services.client_address"
AXES_USERNAME_CALLABLE = "scorekeeper.accounts.services.attempt_username"

# Password-reset mail: printed on the console in development, sent over SMTP otherwise.
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "scorekeeper@localhost")
SERVER_EMAIL = os.environ.get("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24

# Headers: scripts, styles and images only from this site (htmx is vendored, no inline code);
# pages never framed; the opener isolated; no browser features the app does not use.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        # WebAssembly may be compiled (Pyodide runs the engine offline), never JavaScript's
        # eval. Chromium holds a worker to its page's policy, so the page must allow it.
        "script-src": [SELF, WASM_UNSAFE_EVAL],
        "style-src": [SELF],
        "img-src": [SELF],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
PERMISSIONS_POLICY = {
    "accelerometer": [],
    "camera": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "payment": [],
    "usb": [],
}

LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
