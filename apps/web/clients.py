"""What each client of the web table may use: :class:`Admission` (requests
per second, :class:`RateLimiter`; connections open, :class:`Connections`).

A client is one address (the peer of the connection; a server behind a
reverse proxy sees the proxy as one client), and each address belongs to a
network block (:func:`network_block`: its /24 for IPv4, its /64 for IPv6),
whose addresses share a second, larger allowance: whoever holds many
addresses of one block (a cloud machine, a home's IPv6 prefix) gets no more
than the block's share. Each client and each block has a token bucket: up to
``burst`` requests at once, refilled at ``rate`` per second; a request that
finds the bucket empty is refused and told when to try again. Buckets of
clients quiet long enough to be full again are forgotten, so the memory held
is bounded by the clients active in the last ``burst / rate`` seconds. No web
framework here: the app calls :meth:`RateLimiter.allow` for every HTTP request
and every WebSocket message. The same buckets hold each block to its CPU
seconds of replay drawing (:meth:`RateLimiter.charge`: the cost, known only
once the work is done, is taken after it, into debt if need be).
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import Counter
from collections.abc import Callable


def network_block(address: str) -> str:
    """The network block of ``address``: its /24 for IPv4 (an IPv4-mapped
    IPv6 address counts as IPv4), its /64 for IPv6; a name that is not an
    address is a block of its own."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    prefix = 24 if ip.version == 4 else 64
    return str(ipaddress.ip_network(f"{ip}/{prefix}", strict=False))


class RateLimiter:
    """Token buckets per client (see the module docstring)."""

    def __init__(
        self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic
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
            tokens = self._tokens(client, now)
            if tokens < 1:
                self.buckets[client] = (tokens, now)
                return (1 - tokens) / self.rate
            self.buckets[client] = (tokens - 1, now)
            return None

    def wait(self, client: str) -> float | None:
        """None if ``client``'s bucket holds anything (a cost charged after
        the work may then be spent), else the seconds until it will."""
        with self.lock:
            tokens = self._tokens(client, self.clock())
            return None if tokens > 0 else (1e-3 - tokens) / self.rate

    def charge(self, client: str, amount: float) -> None:
        """Take ``amount`` from ``client``'s bucket, into debt if it holds
        less: the client waits until the debt is refilled."""
        with self.lock:
            now = self.clock()
            self.buckets[client] = (self._tokens(client, now) - amount, now)

    def _tokens(self, client: str, now: float) -> float:
        """``client``'s tokens at ``now``, refilled (the lock held)."""
        self._sweep(now)
        tokens, then = self.buckets.get(client, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) * self.rate)

    def _sweep(self, now: float) -> None:
        """Forget the buckets that have refilled (at most once per refill time)."""
        if now - self.last_sweep < self.burst / self.rate:
            return
        self.last_sweep = now
        for client, (tokens, then) in list(self.buckets.items()):
            if tokens + (now - then) * self.rate >= self.burst:
                del self.buckets[client]


class Admission:
    """The request rate of every client and of every network block: a
    request goes through only when both its address's bucket and its block's
    have a token."""

    def __init__(
        self,
        rate: float,
        burst: int,
        block_rate: float,
        block_burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clients = RateLimiter(rate, burst, clock=clock)
        self.blocks = RateLimiter(block_rate, block_burst, clock=clock)

    def refusal(self, client: str, what: str = "requests") -> str | None:
        """None if ``client`` may send one more request now, else why not
        (and when to try again)."""
        wait = self.clients.allow(client)
        if wait is not None:
            return f"too many {what}: try again in {wait:.1f} s"
        wait = self.blocks.allow(network_block(client))
        if wait is not None:
            return f"too many {what} from your network: try again in {wait:.1f} s"
        return None


class Connections:
    """Connections held open (the WebSockets; the refused requests held in
    the tarpit): at most ``total`` in all, ``per_client`` per address,
    ``per_block`` per network block (all on the event loop's thread)."""

    def __init__(self, total: int, per_client: int, per_block: int) -> None:
        self.total, self.per_client, self.per_block = total, per_client, per_block
        self.open: Counter[str] = Counter()
        """Connections open per address and per block (keys ``block:NET``)."""
        self.count = 0
        """Connections open in all."""

    def take(self, client: str) -> str | None:
        """Count one more connection of ``client`` and answer None, or say
        why it may not open one (nothing counted)."""
        block = "block:" + network_block(client)
        if self.count >= self.total:
            return f"the server has {self.total} connections open, its most: try again later"
        if self.open[client] >= self.per_client:
            return f"you have {self.per_client} connections open, the most one client may have"
        if self.open[block] >= self.per_block:
            return (
                f"your network has {self.per_block} connections open, the most one network "
                "block may have"
            )
        self.open[client] += 1
        self.open[block] += 1
        self.count += 1
        return None

    def give_back(self, client: str) -> None:
        """One connection of ``client`` closed."""
        self.count -= 1
        for key in (client, "block:" + network_block(client)):
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]


__all__ = ["Admission", "Connections", "RateLimiter", "network_block"]
