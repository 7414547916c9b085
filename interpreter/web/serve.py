"""``rulebook serve``: run the web table with uvicorn."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ..game import RULESETS_DIR

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
SHUTDOWN_SECONDS = 3  # SIGTERM/SIGINT: connections closed and tables saved within this (then 5 s at most)


def default_saves() -> Path:
    """Where tables are kept unless --saves says otherwise: $XDG_DATA_HOME/rulebook/tables."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "rulebook" / "tables"


def add_arguments(parser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--rulesets", metavar="DIR", default=str(RULESETS_DIR),
                        help="folder of rulesets offered in the lobby (default: the shipped rulesets)")
    parser.add_argument("--saves", metavar="DIR", default=None,
                        help=f"folder where tables are saved and resumed from (default: {default_saves()})")
    parser.add_argument("--allow-host", metavar="NAME", action="append", default=[],
                        help="another host name the server answers to (besides 127.0.0.1, localhost and --host); "
                             "requests naming any other host are refused")
    parser.add_argument("--decision-seconds", metavar="S", type=float, default=None,
                        help="CPU seconds a table may compute between two decisions before it is stopped "
                             "(default 10)")
    parser.add_argument("--table-seconds", metavar="S", type=float, default=None,
                        help="CPU seconds a table may compute in all (default 600)")
    parser.add_argument("--table-memory", metavar="MB", type=int, default=None,
                        help="megabytes of memory a table's process may use (default 1024)")
    parser.add_argument("--pool", metavar="N", type=int, default=None,
                        help="processes shared by the tables of the served rulesets (default: two per CPU core; "
                             "a posted ruleset's table has a process of its own)")


# option -> (WorkLimits field, the option's unit in the field's, lowest, highest)
LIMIT_OPTIONS = {"decision_seconds": ("decision_seconds", 1, 0.1, 3600),
                 "table_seconds": ("table_seconds", 1, 1, 86400),
                 "table_memory": ("memory", 1 << 20, 64, 65536),
                 "pool": ("pool", 1, 1, 256)}


def work_limits(args, limits_type):
    """The ``WorkLimits`` the options ask for, or a message saying which option is out of range."""
    chosen = {}
    for option, (field, unit, low, high) in LIMIT_OPTIONS.items():
        value = getattr(args, option)
        if value is None:
            continue
        if not low <= value <= high:
            return f"--{option.replace('_', '-')} {value}: give a number from {low} to {high}"
        chosen[field] = value * unit
    return limits_type(**chosen)


def cmd_serve(args) -> int:
    try:
        import uvicorn
        from .app import create_app
        from .limits import MAX_FRAME
        from .processes import WorkLimits
    except ImportError as exc:
        print(f"rulebook serve needs the web extra ({exc.name} is missing): pip install -e '.[web]' in a "
              "checkout, or pipx install the wheel as 'rulebook-….whl[web]'",
              file=sys.stderr)
        return 1
    rulesets = Path(args.rulesets)
    if not rulesets.is_dir():
        print(f"--rulesets {args.rulesets}: no such folder", file=sys.stderr)
        return 2
    saves = Path(args.saves) if args.saves else default_saves()
    limits = work_limits(args, WorkLimits)
    if isinstance(limits, str):
        print(limits, file=sys.stderr)
        return 2
    if args.host not in LOCAL_HOSTS:
        print(f"WARNING: listening on {args.host} makes the tables reachable from other computers. "
              "Anyone who can reach this port can create tables, watch them as a spectator and run "
              "rulesets on this machine; seat links are the only protection of seats. "
              "Use it only on a network you trust.", file=sys.stderr)
    print(f"rulebook web table on http://{args.host}:{args.port}  (rulesets: {rulesets}, saves: {saves})")
    uvicorn.run(create_app(rulesets, saves, args.host, args.allow_host, limits), host=args.host, port=args.port,
                log_level="warning", access_log=False, ws="websockets-sansio", ws_max_size=MAX_FRAME,
                timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    return 0
