"""Where phones reach this service: the base of the table cards' QR codes.

The desk is often opened on the laptop itself (``http://127.0.0.1:8080``, ``localhost``),
an address a phone resolves to itself. So the base is, in this order:

1. ``PUBLIC_URL`` (``SCHNAPSEN_PUBLIC_URL``) when set: a server's name, a fixed address;
2. the address the desk was opened with, unless it is a loopback one;
3. for a loopback one, under ``serve --lan`` only (``serve`` listening beyond this
   machine): this machine's address on the club network, found as ``serve --lan`` finds
   it. Not under ``serve`` on loopback (nobody else could open it anyway), and not under
   another server (gunicorn): a server is reached by its name, which only
   ``SCHNAPSEN_PUBLIC_URL`` knows -- the address of the interface its traffic leaves by
   was a guess phones could not open (operator trial of main, 6a);
4. else the loopback address itself, which :func:`phones_cannot_open` flags so the print
   page warns.

>>> phones_cannot_open("http://127.0.0.1:8080/"), phones_cannot_open("http://[::1]/")
(True, True)
>>> phones_cannot_open("http://localhost:8080/"), phones_cannot_open("http://192.168.1.20:8080/")
(True, False)
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import current_app, request

from tournament.web import server

#: Set by ``serve`` to the address it listens on (absent under other servers and tests).
LISTEN_KEY = "SERVE_LISTEN"


def qr_base(*, find_lan: bool = True) -> str:
    """The base URL (ending in ``/``) the table cards' QR codes point to, for this request.
    ``find_lan=False`` (the API): steps 1 and 2 only; a script keeps the address it
    called."""
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/") + "/"
    opened = request.host_url
    if not find_lan or not phones_cannot_open(opened) or not _serve_on_the_lan():
        return opened
    address = server.lan_address()
    if address is None:
        return opened
    parts = urlsplit(opened)
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{address}{port}/"


def phones_cannot_open(url: str) -> bool:
    """Whether ``url``'s host is this machine's own (loopback): a phone cannot open it."""
    return _loopback(urlsplit(url).hostname or "")


def _loopback(host: str) -> bool:
    host = host.lower().strip("[]")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _serve_on_the_lan() -> bool:
    """Whether ``serve`` runs this app, listening beyond this machine (``--lan``)."""
    listen = current_app.config.get(LISTEN_KEY)
    return listen is not None and not _loopback(str(listen))
