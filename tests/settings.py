"""Settings for the test suite: the real settings, read from the environment as in production.

Only what a test run cannot have is set here: a throwaway secret (the real settings refuse to
start without one when DEBUG is off) and plain HTTP for the test client.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-suite-only-secret-key-not-for-any-deployment-0123456789")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from config.settings import *

# The manifest storage needs `collectstatic`; the suite serves files from static/ as runserver does.
STORAGES["staticfiles"]["BACKEND"] = "django.contrib.staticfiles.storage.StaticFilesStorage"
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# django-axes logs every sign-in, including each force_login; only its warnings are news here.
LOGGING["loggers"] = {"axes": {"level": "WARNING"}}
AXES_VERBOSE = False
