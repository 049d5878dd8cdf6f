"""Live updates: what a projection run announces (:mod:`~tournament.live.change`), the
per-process fan-out to Server-Sent Events clients (:mod:`~tournament.live.hub`) and the
bus that carries announcements between processes (:mod:`~tournament.live.bus`: Redis
pub/sub on a server, a direct call on a laptop)."""
