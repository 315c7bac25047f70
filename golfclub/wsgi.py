"""WSGI entry point: `gunicorn golfclub.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "golfclub.settings")
application = get_wsgi_application()
