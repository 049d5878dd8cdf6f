"""The I/O edge: what the web, the command line and the workers all use.

:mod:`service` (:class:`~tournament.app.service.TournamentService`: load, decide under the
stream's lock, append, notify), :mod:`services` (the per-process container of the store,
the services and the notifier) and :mod:`play` (the online tables' service). The domain
below never imports this package.
"""
