"""Text from rulesets, logs and players, made safe to print in a terminal.

Whatever a ruleset names (its game, parameters, components, options) reaches the terminal as text,
never as rich markup, and with every control character written as an escape (``\\x1b``), so a
name cannot clear the screen, set the window title, make a hyperlink or break the output.
"""
from __future__ import annotations

import re

from rich.text import Text

# C0 and C1 control characters (but newline and tab), DEL, and the bidirectional overrides
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def safe_text(value) -> str:
    """``str(value)`` with each control character escaped (``\\x1b``, ``\\u202e``)."""
    text = str(value)
    if not _CONTROL.search(text):
        return text
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def plain(value, style: str = "") -> Text:
    """A rich Text of ``value``: printed as it is (no markup), control characters escaped."""
    return Text(safe_text(value), style=style)
