"""Read models for the pages, the command line, the API and the print packs: what a
state looks like to a reader. Views import the model, the standings and the commands'
pure helpers; nothing below them imports a view (tests/test_layers.py).
"""
