"""The WSGI application for a server (gunicorn, any WSGI host), configured from the
environment (``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``: docs/operations.md)::

    gunicorn -c deploy/gunicorn/web.py tournament.web.wsgi:app
"""

from tournament.eventstore.api import EventStoreError
from tournament.json_logs import refuse_to_start
from tournament.web import create_app, ops

# Before the app is made: what it logs as it starts (a database that does not answer yet)
# is a JSON line too, and Flask then adds no plain-text handler of its own.
ops.json_stdlib_logging()  # the store's and the libraries' warnings as JSON lines too
try:
    app = create_app()
except EventStoreError as error:  # a seal key missing (attack F11), a store not migrated
    # One JSON line among gunicorn's, not a traceback per worker; 4 is gunicorn's "App
    # failed to load": the master stops instead of respawning forever.
    refuse_to_start(error, "gunicorn.error", 4)
