"""What the web table accepts from strangers: bot specs, hosts and origins, websocket messages.

Everything here is a pure check with a message for the page; :mod:`.app` applies them.
"""
from __future__ import annotations

import json
import time

from ..bots import parse_spec

# Bots asked for over the network: at most about 5 s of work per move.
BOT_CAPS = {"mcts": {"seconds": 5, "iterations": 20_000, "depth": 200},
            "ismcts": {"seconds": 5, "iterations": 5_000, "depth": 200, "rounds": 50},  # a playout per action each
            # a race (flat:race=...): at most `most` worlds, and a price of at most budget × (deal / actions + 1) playouts
            # follow: the seat's next decisions in a playout each look one step ahead at every action
            "flat": {"rollouts": 1_000, "budget": 2_000, "depth": 200, "seconds": 5, "most": 1_000, "deal": 100,
                     "follow": 20},
            "focus": {"budget": 20_000, "depth": 200, "seconds": 5},
            "lookahead": {"rollouts": 1_000, "budget": 2_000, "depth": 200, "seconds": 5, "rounds": 50,
                          "playouts": 100, "most": 1_000, "deal": 100, "follow": 20}}
MAX_FRAME = 64 * 1024  # bytes of one websocket message
MAX_JSON_DEPTH = 16  # nesting of one websocket message
RATE = 20.0  # messages per second a connection may send on average ...
BURST = 40  # ... and at most so many at once
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
MAX_PACE = 10.0  # seconds between two moves of bots


class Problem(Exception):
    """A request the server refuses, with a message for the page."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.message = message
        self.status = status


def pace(value) -> float:
    """The bots' pace a page asks for, in seconds."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= MAX_PACE:
        raise Problem(f"the pace is a number of seconds from 0 to {MAX_PACE:g}")
    return float(value)


def check_bot_spec(spec: str) -> str | None:
    """Why a bot spec from the network asks for too much work, or None."""
    try:
        name, options = parse_spec(spec)
    except Exception as exc:  # the spec's own errors are reported where it is made
        return getattr(exc, "message", None)
    for key, cap in BOT_CAPS.get(name, {}).items():
        if key not in options:
            continue
        try:
            value = float(options[key])
        except ValueError:
            return None  # make_bot explains
        if not value <= cap:
            return f"bot '{name}': {key} is at most {cap:,} on this server, not {options[key][:20]}"
    return None


def host_name(host_header: str) -> str:
    """The host of a Host header or of an origin's authority, without its port."""
    host = host_header.strip().lower()
    if host.startswith("["):  # [::1]:8000
        return host[:host.find("]") + 1] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def allowed_hosts(host: str, extra=()) -> frozenset:
    """The names this server answers to: 127.0.0.1, localhost, the address it listens on, ``extra``."""
    names = set(LOCAL_HOSTS) | {host_name(host)} | {host_name(h) for h in extra}
    return frozenset(n for n in names if n and n not in ("0.0.0.0", "::", "[::]"))


def foreign(headers, hosts: frozenset) -> str | None:
    """Why a request with these headers comes from elsewhere (a Host this server does not serve, as
    after DNS rebinding; an Origin of another site), or None."""
    host = host_name(headers.get("host", ""))
    if host not in hosts:
        return f"this server does not answer to the host '{host[:60]}' (rulebook serve --allow-host adds one)"
    origin = headers.get("origin")
    if origin is not None:
        authority = origin.split("://", 1)[-1].split("/", 1)[0]
        if authority.lower() != headers.get("host", "").lower():
            return "requests from pages of other sites are refused"
    return None


def parse_message(text: str):
    """A websocket message as JSON; ValueError with a message for anything too large or too deep."""
    if len(text) > MAX_FRAME:
        raise ValueError(f"a message is at most {MAX_FRAME // 1024} kB")
    depth = 0
    for char in text:  # brackets inside strings count too: a bound, never an error for a real message
        if char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                raise ValueError(f"a message is nested at most {MAX_JSON_DEPTH} levels deep")
        elif char in "]}":
            depth -= 1
    try:
        return json.loads(text)
    except ValueError:
        raise ValueError("a message is JSON") from None


class RateLimit:
    """A token bucket: ``allow()`` is False when a connection sends faster than ``RATE`` messages per
    second on average (``BURST`` at once)."""

    def __init__(self, rate: float = RATE, burst: int = BURST, clock=time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
