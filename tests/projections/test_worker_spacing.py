"""A Celery worker spaces one tournament's projection runs as the web process's thread
does (issue 22: a burst of result POSTs made one run after another, each a whole run):
a run starts at once after a quiet spell; right after a run the next one waits for three
times what that run took after its start (at least 50 ms, at most 2 s); tournaments do
not hold each other up."""

from __future__ import annotations

import pytest

from workers.tasks import RunSpacing


def test_a_run_after_a_quiet_spell_starts_at_once() -> None:
    spacing = RunSpacing()
    assert spacing.wait("cup", 100.0) == 0.0
    spacing.ran("cup", 100.0, 0.1)
    assert spacing.wait("cup", 101.0) == 0.0


def test_the_next_run_waits_three_times_what_the_last_took_after_its_start() -> None:
    spacing = RunSpacing()
    spacing.ran("cup", 100.0, 0.1)
    assert spacing.wait("cup", 100.1) == pytest.approx(0.2)
    assert spacing.wait("cup", 100.3) == 0.0


def test_a_quick_run_is_spaced_by_the_least_and_a_slow_one_by_the_most() -> None:
    spacing = RunSpacing()
    spacing.ran("small", 100.0, 0.001)
    assert spacing.wait("small", 100.002) == pytest.approx(0.048)
    spacing.ran("big", 100.0, 5.0)
    assert (
        spacing.wait("big", 105.0) == 0.0
    )  # a run of 5 s waits no longer than 2 s after its start
    spacing.ran("big", 200.0, 1.0)
    assert spacing.wait("big", 201.0) == pytest.approx(1.0)


def test_another_tournament_is_not_held_up() -> None:
    spacing = RunSpacing()
    spacing.ran("cup", 100.0, 0.5)
    assert spacing.wait("cup", 100.5) > 0
    assert spacing.wait("league", 100.5) == 0.0
