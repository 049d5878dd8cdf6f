"""The WSGI application for a server (gunicorn, any WSGI host), configured from the
environment (``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``: docs/operations.md)::

    gunicorn -c deploy/gunicorn/web.py tournament.web.wsgi:app
"""

from tournament.web import create_app

app = create_app()
