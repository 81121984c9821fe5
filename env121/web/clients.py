"""The request rate each client of the web table may use: :class:`RateLimiter`.

A client is one address (the peer of the connection; a server behind a
reverse proxy sees the proxy as one client). Each has a token bucket: up to
``burst`` requests at once, refilled at ``rate`` per second; a request that
finds the bucket empty is refused and told when to try again. Buckets of
clients quiet long enough to be full again are forgotten, so the memory held
is bounded by the clients active in the last ``burst / rate`` seconds. No web
framework here: the app calls :meth:`RateLimiter.allow` for every HTTP request
and every WebSocket message.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    """Token buckets per client (see the module docstring)."""

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.buckets: dict[str, tuple[float, float]] = {}
        """Per client: tokens left and when they were counted."""
        self.lock = threading.Lock()
        self.last_sweep = clock()

    def allow(self, client: str) -> float | None:
        """Take one token of ``client``'s bucket: None if it had one, else
        the seconds until it will."""
        with self.lock:
            now = self.clock()
            self._sweep(now)
            tokens, then = self.buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens < 1:
                self.buckets[client] = (tokens, now)
                return (1 - tokens) / self.rate
            self.buckets[client] = (tokens - 1, now)
            return None

    def _sweep(self, now: float) -> None:
        """Forget the buckets that have refilled (at most once per refill time)."""
        full = self.burst / self.rate
        if now - self.last_sweep < full:
            return
        self.last_sweep = now
        for client, (_, then) in list(self.buckets.items()):
            if now - then >= full:
                del self.buckets[client]


__all__ = ["RateLimiter"]
