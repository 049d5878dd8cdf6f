"""Fields beyond 2,000 players: the test and benchmark builder registers them with valid
ratings (a rating is between 0 and 4000, T-player), so bench/standings.py runs at 4,096
players instead of stopping at the 2,000th registration."""

from __future__ import annotations

from tournament.domain.model.state import fold
from tournament.domain.testing import registered


def test_a_field_of_more_than_2000_players_registers_with_valid_falling_ratings() -> None:
    t = fold(registered(2100))
    ratings = [t.players[pid].rating for pid in sorted(t.players)]
    assert len(ratings) == 2100
    assert all(r is not None and 0 <= r <= 4000 for r in ratings)
    assert ratings == sorted(ratings, reverse=True)  # seeded by rating = by start number


def test_smaller_fields_keep_the_ratings_the_tests_were_written_against() -> None:
    t = fold(registered(5))
    assert [t.players[pid].rating for pid in sorted(t.players)] == [1999, 1998, 1997, 1996, 1995]
