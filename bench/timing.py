"""Timing shared by the benchmarks: the median of several runs of one call, rates over a
fixed stretch of wall clock, and percentiles of latencies."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence


def median_time(fn: Callable[[], object], runs: int) -> float:
    """Median wall-clock seconds of ``runs`` calls of ``fn``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rate_for(seconds: float, step: Callable[[], int]) -> float:
    """Units per second of calling ``step`` (which returns how many units it did) again
    and again for at least ``seconds`` of wall clock, and at least once."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        done += step()
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def median_rates(
    cases: Mapping[str, Callable[[], int]], seconds: float, repeat: int
) -> dict[str, float]:
    """The median rate of each case over ``repeat`` turns of :func:`rate_for`, the cases
    taking turns, so that a noisy neighbour slows every case alike."""
    rates: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, step in cases.items():
            rates[name].append(rate_for(seconds, step))
    return {name: statistics.median(values) for name, values in rates.items()}


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (``fraction`` 0.99 is p99) of ``values``."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]
