"""``python -m tournament``: the tournament command line."""

from tournament.cli import main

main()
