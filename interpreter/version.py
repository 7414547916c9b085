"""The version of rulebook, from the installed package's metadata (``rulebook --version``; logs and
saved games record it next to the ruleset's hash)."""
from __future__ import annotations

from functools import lru_cache

UNKNOWN = "unknown"  # run from a checkout that was never installed


@lru_cache(maxsize=None)
def rulebook_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rulebook")
    except PackageNotFoundError:
        return UNKNOWN
