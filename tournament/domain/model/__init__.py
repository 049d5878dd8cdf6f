"""The write model: the events, the aggregate (:mod:`state`, the fold) and its parts.

Imports nothing of the domain above it (only :mod:`tournament.domain.words`, the engine,
the formats and the event store's API): what is derived from the model lives in
:mod:`tournament.domain.standings`, which the model never imports (tests/test_layers.py).
"""
