"""What the simulation commands (simulate, compare, sweep, tournament and the strength check) share:
their run options, bot checks, run specs, executors, the console of tables, and figures as text."""
from __future__ import annotations

import argparse
import sys

from rich.console import Console

from ..analysis.display import row_texts  # noqa: F401  (the commands' figures as text)
from ..analysis.executor import make_executor
from ..analysis.simulation import SIM_BOT, RunSpec  # noqa: F401  (SIM_BOT: the commands' default)
from ..bots import MAX_DECISIONS, make_bot


def add_run_arguments(parser, games_required: bool = True) -> None:
    parser.add_argument("-n", "--games", type=positive_int, required=games_required, help="number of games")
    parser.add_argument("--seed", type=seed_int, default=0, help="game i uses seed SEED+i (default 0)")
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="processes (or Ray tasks at a time) to play on; the results are the same for any number")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where to play: local processes (default) or a Ray cluster (pip install 'rulebook[ray]')")
    parser.add_argument("--address", help="the Ray cluster to join (with --backend ray; default: a local Ray)")
    parser.add_argument("--max-decisions", type=positive_int, default=MAX_DECISIONS, metavar="N",
                        help=f"cut a game off after N decisions and report it as unfinished (default {MAX_DECISIONS})")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")


MAX_COUNT = 1_000_000_000  # at most so many games, jobs, decisions, players ... on the command line
SEEDS = (-2 ** 63, 2 ** 64 - 1)  # the seeds a play log keeps (schemas/log.schema.json)


def whole_number(text: str, low: int, high: int) -> int:
    """A whole number within [low, high] (not read at all if it has more than 20 digits)."""
    digits = text.strip().lstrip("+-")
    if not digits.isdigit() or len(digits) > 20:
        raise argparse.ArgumentTypeError(f"'{text[:40]}' is not a whole number of at most 20 digits")
    value = int(text)
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must lie within {low:,} and {high:,}, not {value:,}")
    return value


def positive_int(text: str) -> int:
    """A whole number from 1 to ``MAX_COUNT``, for options such as ``-n`` and ``--players``."""
    return whole_number(text, 1, MAX_COUNT)


def seed_int(text: str) -> int:
    """A seed: a whole number a play log can keep."""
    return whole_number(text, *SEEDS)


def output_console() -> Console:
    """The console of tables: the terminal's width on a terminal; piped or redirected, wide enough
    that no column is cut (rich would otherwise assume 80 columns)."""
    return Console(highlight=False, width=None if sys.stdout.isatty() else PIPED_WIDTH)


PIPED_WIDTH = 240


def check_specs(specs) -> None:
    for seat, spec in enumerate(specs):
        make_bot(spec, seat, 0)  # a wrong spec fails here, before any game starts


def run_spec(game, specs, args, logs=False) -> RunSpec:
    return RunSpec(game.path, dict(game.params), game.num_players, list(specs), args.seed, logs,
                   args.max_decisions, getattr(args, "engine", "auto"))


def executor_for(args):
    return make_executor(args.backend, args.jobs, args.address)


def public_summary(game, specs, args, summary) -> dict:
    head = {"game": game.name, "ruleset": game.path, "seed": args.seed, "seats": list(specs),
            "players": game.num_players, "params": game.params, "jobs": args.jobs, "backend": args.backend,
            "decision_cap": args.max_decisions}
    return {**head, **summary}
