"""The settings of shop, the Django example app that clients/python/test.sh
checks with mypy --strict and django-stubs' plugin (README's typing)."""

import os

INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "django.contrib.postgres", "shop"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ.get("PGDATABASE", "shop"),
    }
}
USE_TZ = True
