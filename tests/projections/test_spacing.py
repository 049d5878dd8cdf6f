"""The web process's projection thread spaces one tournament's runs (issue 12: 200 online
tables end hands every few seconds; a run of 400 players takes ~100 ms): a run starts at
once after a quiet spell, a burst of nudges during and after it makes one more run, no
sooner than ``spacing_factor`` times what the last run took after its start, and a
tournament nudged meanwhile is not held up by another's spacing."""

from __future__ import annotations

import threading
import time

from tournament.eventstore import SQLEventStore
from tournament.live.change import Change
from tournament.projections.inprocess import InProcessProjections
from tournament.projections.runner import Projector

RUN_S = 0.1


class TimedProjector(Projector):
    """A projector whose runs each take ``RUN_S`` and are recorded (start, end, id)."""

    def __init__(self, store: SQLEventStore) -> None:
        super().__init__(store)
        self.runs: list[tuple[float, float, str]] = []
        self.ran = threading.Condition()

    def project(self, tournament_id: str) -> Change | None:
        started = time.monotonic()
        time.sleep(RUN_S)
        with self.ran:
            self.runs.append((started, time.monotonic(), tournament_id))
            self.ran.notify_all()
        return None

    def wait_runs(self, count: int, timeout: float = 5.0) -> None:
        with self.ran:
            assert self.ran.wait_for(lambda: len(self.runs) >= count, timeout), self.runs


def test_runs_of_one_tournament_are_spaced_and_a_quiet_spell_runs_at_once(
    store: SQLEventStore,
) -> None:
    projector = TimedProjector(store)
    thread = InProcessProjections(projector, spacing=0.0, spacing_factor=3.0, sweep_every=60)
    try:
        nudged = time.monotonic()
        thread.nudge("cup")
        projector.wait_runs(1)
        first_start, first_end, _ = projector.runs[0]
        assert first_start - nudged < 0.15, "the first nudge after a quiet spell runs at once"
        for _ in range(20):  # a burst right after the run: one more run, when due
            thread.nudge("cup")
        projector.wait_runs(2)
        second_start = projector.runs[1][0]
        took = first_end - first_start
        assert second_start >= first_start + 3.0 * took - 0.01, "spaced by 3 x the last run"
        time.sleep(0.5)
        assert len(projector.runs) == 2, "the burst made one run"
        quiet = time.monotonic()  # long after the spacing: at once again
        thread.nudge("cup")
        projector.wait_runs(3)
        assert projector.runs[2][0] - quiet < 0.15
    finally:
        thread.stop()


def test_another_tournament_is_not_held_up_by_ones_spacing(
    store: SQLEventStore,
) -> None:
    projector = TimedProjector(store)
    thread = InProcessProjections(projector, spacing=0.0, spacing_factor=10.0, sweep_every=60)
    try:
        thread.nudge("cup")
        projector.wait_runs(1)
        thread.nudge("cup")  # due only ~1 s after the first run's start
        nudged = time.monotonic()
        thread.nudge("league")
        projector.wait_runs(2)
        start, _, tid = projector.runs[1]
        assert tid == "league" and start - nudged < 0.3
        projector.wait_runs(3)
        assert projector.runs[2][2] == "cup"
        assert projector.runs[2][0] >= projector.runs[0][0] + 10 * RUN_S - 0.01
    finally:
        thread.stop()
