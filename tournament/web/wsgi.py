"""The WSGI application for a server (gunicorn, any WSGI host), configured from the
environment (``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``: docs/operations.md)::

    gunicorn -c deploy/gunicorn/web.py tournament.web.wsgi:app
"""

from tournament.web import create_app, ops

app = create_app()
ops.json_stdlib_logging()  # the store's and the libraries' warnings as JSON lines too
