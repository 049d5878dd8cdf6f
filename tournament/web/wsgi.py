"""The WSGI application for a server (gunicorn, any WSGI host), configured from the
environment (``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY``: docs/operations.md)::

    gunicorn -c deploy/gunicorn/web.py tournament.web.wsgi:app
"""

import sys

from tournament.eventstore.seals import SealKeyError
from tournament.web import create_app, ops

try:
    app = create_app()
except SealKeyError as error:  # one line, not a traceback per worker (attack F11)
    print(f"Error: {error}", file=sys.stderr, flush=True)
    # 4 is gunicorn's "App failed to load": the master stops instead of respawning forever.
    raise SystemExit(4) from None
ops.json_stdlib_logging()  # the store's and the libraries' warnings as JSON lines too
