"""The domain's message catalogue: message codes, their English templates and the words
a view or a stored event is made of. Pure and the lowest room of the domain: it imports
nothing else of it (tests/test_layers.py).
"""
