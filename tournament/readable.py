"""Whether a socket has something to read right now, for any descriptor number.

``select.select`` refuses descriptors of 1024 and above (a server holding thousands of
streams has them), so this asks ``poll`` where the platform has it.
"""

from __future__ import annotations

import select
from typing import Any


def readable_now(sock: Any) -> bool:
    """Whether ``sock`` (a socket or a descriptor) is readable, closed or broken now.
    Raises ``OSError`` when the descriptor itself is bad."""
    fd = sock if isinstance(sock, int) else sock.fileno()
    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLERR | select.POLLHUP)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])
