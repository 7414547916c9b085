"""The ``rulebook`` command: validate rulesets, play them in the terminal, simulate bot games, replay logs.

Every rulebook error is printed as a message (exit code 1); command-line mistakes exit with 2.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

from dsl.errors import ErrorList, ParameterError, RulebookError
from rulebook_data import rulebook_version

from . import folders as cli_folders, info as cli_info, native_check as cli_native_check, runs as cli_runs, \
    sim as cli_sim, strength as cli_strength, sweep as cli_sweep
from ..store import search_path
from ..bots import MAX_DECISIONS, declared_bot, split_specs
from ..game import find_ruleset, load_game
from ..analysis.match_log import replay, write_logs
from .play import QuitGame, Table, resume_record
from .replay_show import show_replay
from .safe import plain, safe_text
from ..web import serve as web_serve

HUMAN = "human"  # the seat spec of a person at the terminal (as in interpreter/cli/play.py)
DEFAULT_BOT = "random"   # the bots of `play` (quick to answer)
SIM_BOT = cli_runs.SIM_BOT  # the bots of simulate, compare and sweep
SIM_DEFAULT = f"the ruleset's bots: default, else {SIM_BOT}"


# ---- entry point ----------------------------------------------------------------------------------
def main(argv=None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return args.run(args)
    except RulebookError as exc:
        print_error(exc)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def print_error(exc: RulebookError, file=None) -> None:
    """Print an error (each error of an ErrorList on its own line) without a traceback."""
    errors = exc.errors if isinstance(exc, ErrorList) else [exc]
    for error in errors:
        print(safe_text(error), file=file or sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulebook", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"rulebook {rulebook_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser("validate", help="check rulesets and report every error")
    validate.add_argument("paths", nargs="+", metavar="PATH",
                          help="ruleset or variant names, files, or folders (every *.yaml below)")
    validate.add_argument("--players", type=_positive_int, help="check with this number of players")
    validate.add_argument("--set", dest="settings", action="append", type=_setting, default=[],
                          metavar="NAME=VALUE", help="check with this parameter value (repeatable)")
    validate.add_argument("--strict", action="store_true",
                          help="count notes (a name of the ruleset that hides a built-in) as errors")
    validate.set_defaults(run=cmd_validate)

    play = commands.add_parser("play", help="play a game in the terminal")
    _add_game_arguments(play, seats_help=f"comma-separated seat list (default: {HUMAN} for seat 1, "
                                         f"the ruleset's bots: default, else {DEFAULT_BOT}, for the rest); "
                                         f"'{HUMAN}' or a bot spec such as random or name:key=value")
    play.add_argument("--seed", type=cli_runs.seed_int, help="game seed (default: a random one, printed)")
    play.add_argument("--log", metavar="FILE", help="write the game record (JSON) for `rulebook replay` "
                      "and `--resume`")
    play.add_argument("--resume", metavar="FILE", help="continue the game a record (--log) holds")
    play.add_argument("--auto-single", dest="auto_single", action=argparse.BooleanOptionalAction, default=True,
                      help="take a stage with a single choice without asking (default: on)")
    play.add_argument("--pause", type=float, default=0.0, metavar="SECONDS",
                      help="wait this long after each move of a game of bots only")
    play.add_argument("--max-decisions", type=_positive_int, default=MAX_DECISIONS, metavar="N",
                      help=f"with bots only: stop with an error after N decisions (default {MAX_DECISIONS})")
    play.set_defaults(run=cmd_play)

    simulate = commands.add_parser("simulate", help="play many bot games and summarize the results")
    _add_game_arguments(simulate, seats_help=f"comma-separated bot specs, one per seat (default: "
                                             f"{SIM_DEFAULT}, everywhere); bots: flat, focus, lookahead, "
                                             "random, greedy, mcts, ismcts")
    cli_runs.add_run_arguments(simulate)
    cli_strength.add_argument(simulate)
    cli_sim.add_engine_argument(simulate, whole_games=True)
    simulate.add_argument("--log", metavar="FILE",
                          help="write the logs of all games to FILE as one JSON list, for `rulebook replay`")
    simulate.add_argument("--report", metavar="FILE", help="write charts to FILE.html (or FILE.png)")
    simulate.set_defaults(run=cmd_simulate)

    compare_cmd = commands.add_parser("compare", help="simulate a ruleset and a variant with the same "
                                      "seeds and bots, and mark significant differences")
    compare_cmd.add_argument("base", metavar="BASE", help="a ruleset name or path")
    compare_cmd.add_argument("variant", metavar="VARIANT", help="a ruleset or variant name or path")
    compare_cmd.add_argument("--seats", help=f"comma-separated bot specs, one per seat (default: {SIM_DEFAULT})")
    compare_cmd.add_argument("--players", type=_positive_int, help="number of players (default: as many as --seats lists, "
                             "else the ruleset's)")
    compare_cmd.add_argument("--set", dest="settings", action="append", type=_setting, default=[],
                             metavar="NAME=VALUE", help="set a parameter of both (repeatable)")
    cli_runs.add_run_arguments(compare_cmd, games_required=False)
    cli_strength.add_argument(compare_cmd)
    compare_cmd.add_argument("--until-significant", action="store_true",
                             help="play batches of -n games (default 200) until --measure differs "
                                  "significantly (alpha spent evenly over the planned batches) or --max-games")
    compare_cmd.add_argument("--max-games", type=_positive_int, default=2000,
                             help="with --until-significant: at most this many games each (default 2000)")
    compare_cmd.add_argument("--measure", default="win:1",
                             help="with --until-significant: the measure to test: win:SEAT, score:SEAT, "
                                  "length or spread (default win:1, the first seat's win rate)")
    cli_sim.add_engine_argument(compare_cmd)
    compare_cmd.set_defaults(run=cmd_compare)

    sweep = commands.add_parser("sweep", help="simulate every value of one or two parameters with the same "
                                "seeds and bots, and show how the results move")
    sweep.add_argument("game", metavar="GAME", help="a ruleset name (see rulebook where) or a path")
    sweep.add_argument("--set", dest="settings", action="append", type=_setting, default=[],
                       metavar="NAME=VALUES", help="NAME=v1,v2,... or NAME=a..b sweeps the parameter (one or "
                                                   "two of them); NAME=VALUE fixes it (repeatable)")
    sweep.add_argument("--seats", help=f"comma-separated bot specs, one per seat (default: {SIM_DEFAULT})")
    sweep.add_argument("--players", type=_positive_int, help="number of players (default: as many as --seats lists, "
                       "else the ruleset's)")
    sweep.add_argument("--report", metavar="FILE", help="write charts to FILE.html (or FILE.png)")
    cli_runs.add_run_arguments(sweep)
    cli_sim.add_engine_argument(sweep)
    cli_strength.add_argument(sweep)
    sweep.set_defaults(run=cmd_sweep)

    tournament = commands.add_parser("tournament", help="play bots against each other in every seat order")
    tournament.add_argument("game", metavar="GAME", help="a ruleset name (see rulebook where) or a path")
    tournament.add_argument("--bots", required=True, help="comma-separated bot specs, e.g. mcts,greedy,random")
    tournament.add_argument("--players", type=_positive_int, help="number of players")
    tournament.add_argument("--set", dest="settings", action="append", type=_setting, default=[],
                            metavar="NAME=VALUE", help="set a ruleset parameter (repeatable)")
    cli_runs.add_run_arguments(tournament)
    cli_sim.add_engine_argument(tournament)
    tournament.set_defaults(run=cmd_tournament)

    for name, helptext, handler in (
            ("params", "list a ruleset's parameters", cli_info.cmd_params),
            ("variants", "list the shipped variants and the parameters of a game", cli_info.cmd_variants),
            ("explain", "print the effective rules of a ruleset or variant as text", cli_info.cmd_explain)):
        info = commands.add_parser(name, help=helptext)
        info.add_argument("game", metavar="GAME", help="a ruleset name (see rulebook where) or a path")
        info.add_argument("--players", type=_positive_int, help="number of players")
        info.add_argument("--set", dest="settings", action="append", type=_setting, default=[],
                          metavar="NAME=VALUE", help="set a ruleset parameter (repeatable)")
        if name != "explain":
            info.add_argument("--json", action="store_true", help="print JSON")
        info.set_defaults(run=lambda args, handler=handler: handler(args, _load(args)))

    lsp_cmd = commands.add_parser("lsp", help="run the language server for editors, over stdin and stdout")
    lsp_cmd.add_argument("--stdio", action="store_true", help="accepted for editors that pass it (stdio is "
                         "the only transport)")
    lsp_cmd.set_defaults(run=cmd_lsp)

    replay_cmd = commands.add_parser("replay", help="replay a log and check that every step reproduces")
    replay_cmd.add_argument("file", metavar="FILE", help="a log written by play --log or simulate --log")
    replay_cmd.add_argument("--show", action="store_true",
                            help="step through the game (next, back, jump to a move) instead of checking it")
    replay_cmd.add_argument("--seat", type=_positive_int, metavar="N",
                            help="with --show: see the game as seat N (1-based) sees it (default: as a spectator)")
    replay_cmd.add_argument("--game", type=_positive_int, default=1, metavar="N",
                            help="with --show: the N-th game of a file of several")
    replay_cmd.set_defaults(run=cmd_replay)

    cli_folders.add_commands(commands)
    cli_native_check.add_command(commands, _ruleset_files)

    serve = commands.add_parser("serve", help="run the web table: lobby, tables with bots, designer page")
    web_serve.add_arguments(serve)
    serve.set_defaults(run=web_serve.cmd_serve)
    return parser


def _add_game_arguments(parser: argparse.ArgumentParser, seats_help: str) -> None:
    parser.add_argument("game", metavar="GAME", help="a ruleset name (see rulebook where) or a path")
    parser.add_argument("--seats", help=seats_help)
    parser.add_argument("--players", type=_positive_int, help="number of players (default: as many as --seats "
                        "lists, else the ruleset's)")
    parser.add_argument("--set", dest="settings", action="append", type=_setting, default=[],
                        metavar="NAME=VALUE", help="set a ruleset parameter (repeatable)")


def _setting(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=VALUE")
    return name.strip(), value.strip()


_positive_int = cli_runs.positive_int


def _seated_players(args, path, params=None):
    """--players; without it, as many players as --seats lists when the game at ``path`` allows that
    many (else None: the ruleset's own count, and seat_specs says what does not fit)."""
    seats = getattr(args, "seats", None)
    if args.players is not None or not seats:
        return args.players
    count = len(split_specs(seats))
    ruleset = load_game(path, params=params or {}).ruleset
    return count if ruleset.min_players <= count <= ruleset.max_players else None


def _load(args):
    """The game named on the command line, with its --set parameters and its players (see
    _seated_players)."""
    settings = dict(args.settings)
    return load_game(args.game, params=settings, players=_seated_players(args, args.game, settings))


def seat_specs(text: str | None, game, default_first: str, default_rest: str = DEFAULT_BOT) -> list:
    """The seat specs from --seats, checked against the number of players."""
    count = game.num_players
    default = [default_first] + [default_rest] * (count - 1)
    if text is None:
        return default
    specs = split_specs(text)
    if "" in specs:
        raise ParameterError(f"--seats '{text}' has an empty seat", hint="separate seats by single commas")
    if len(specs) != count:
        raise ParameterError(f"--seats lists {len(specs)} seat(s), but this game of {game.name} has "
                             f"{count} players", hint=f"e.g. --seats {','.join(default)}")
    return specs


def sim_seats(text: str | None, game) -> list:
    """The seats of simulate, compare and sweep: --seats, else the ruleset's declared bot or SIM_BOT."""
    bot = declared_bot(game.ruleset, SIM_BOT)
    return seat_specs(text, game, bot, bot)


def play_seats(text: str | None, game) -> list:
    """The seats of play: --seats, else a person and the ruleset's declared bot or DEFAULT_BOT."""
    return seat_specs(text, game, HUMAN, declared_bot(game.ruleset, DEFAULT_BOT))


# ---- validate ---------------------------------------------------------------------------------------
def cmd_validate(args) -> int:
    """Load every ruleset named; print each error, or one summary line per valid ruleset and its
    notes (with ``--strict``, a ruleset with notes fails)."""
    failed = False
    for path in _ruleset_files(args.paths):
        try:
            game = load_game(path, params=dict(args.settings), players=args.players)
            declared_bot(game.ruleset, None)
        except RulebookError as exc:
            print_error(exc, file=sys.stdout)
            failed = True
            continue
        notes = game.ruleset.notes
        if args.strict and notes:
            print_error(ErrorList(notes), file=sys.stdout)
            print(safe_text(f"{path}: {len(notes)} note(s), which --strict counts as errors"))
            failed = True
            continue
        print(safe_text(_summary(path, game)))
        print_error(ErrorList(notes), file=sys.stdout)
    return 1 if failed else 0


def _ruleset_files(paths: list) -> list:
    """The files named, and every *.yaml / *.yml below the folders named."""
    files = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
            if not found:
                raise ParameterError(f"{name}: no *.yaml rulesets in this folder")
            files += found
        elif path.exists():
            files.append(path)
        else:
            found = _named_file(name)
            inside = os.path.relpath(found)
            files.append(Path(inside) if not inside.startswith("..") else found)
    return files


def _named_file(name: str) -> Path:
    """The file a ruleset name means; a name that looks like a path (``x.yaml``, ``a/b``) and is not a
    ruleset's name is a missing file."""
    path = Path(name)
    if path.suffix not in (".yaml", ".yml") and len(path.parts) == 1:
        return find_ruleset(name)
    found = None if path.suffix or path.is_absolute() else search_path.find_named(name)
    if found is None:
        raise ParameterError(f"{name}: no such file or folder")
    return found


def _summary(path, game) -> str:
    """One line about a valid ruleset: name, players, components, zones, parameters."""
    rs = game.ruleset
    players = str(rs.min_players) if rs.min_players == rs.max_players else \
        f"{rs.min_players}-{rs.max_players} (default {game.num_players})"
    params = ", ".join(f"{name}={json.dumps(value)}" for name, value in game.params.items())
    count = len(game.params)
    params = f"{count} parameter{'' if count == 1 else 's'} ({params})" if params else "no parameters"
    bot = f", bots: {rs.default_bot[0]}" if rs.default_bot else ""
    return (f"{path}: OK: {game.name}: {players} players, {game.num_components} components, "
            f"{len(rs.zones)} zones, {params}{bot}")


# ---- play -------------------------------------------------------------------------------------------
def cmd_play(args) -> int:
    """Play one game at the terminal (see interpreter/cli/play.py)."""
    record = resume_record(args.resume) if args.resume else None
    if record is not None:
        game = load_game(record["ruleset"], params=record["params"], players=record["players"])
        specs = play_seats(args.seats, game) if args.seats else list(record.get("seats") or [])
        if len(specs) != game.num_players:
            specs = play_seats(None, game)
        seed = record["seed"]
    else:
        game = _load(args)
        specs = play_seats(args.seats, game)
        seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    console = Console(highlight=False)
    seats_text = ", ".join(f"{name} {spec}" for name, spec in zip(game.player_names, specs))
    console.print(plain(f"{game.name}, seed {seed}: {seats_text}", style="bold"))
    table = Table(game, specs, seed, console, auto_single=args.auto_single, pause=args.pause,
                  echo=not sys.stdin.isatty(), max_decisions=args.max_decisions)
    if record is not None:
        try:
            table.replay_actions([step["action"] for step in record["steps"]])
        except RulebookError as exc:
            raise ParameterError(f"{args.resume} does not replay: {exc}") from None
        console.print(Text(f"Resumed after {len(record['steps'])} moves.", style="bold"))
    try:
        table.run()
    except QuitGame:
        console.print(f"Stopped after {table.state.moves} moves.")
        return 0
    finally:
        if args.log:
            write_logs(args.log, table.recorder.log(table.state))
    table.show_end()
    return 0


# ---- simulations ----------------------------------------------------------------------------------
def cmd_simulate(args) -> int:
    """Play many bot games and print the wins, scores and speed (as tables or as JSON)."""
    game = _load(args)
    return cli_sim.cmd_simulate(args, game, sim_seats(args.seats, game))


def cmd_compare(args) -> int:
    """Simulate two rulesets with the same seeds and bots and compare them."""
    settings = dict(args.settings)
    base = load_game(args.base, params=settings, players=_seated_players(args, args.base, settings))
    variant = load_game(args.variant, params=settings, players=base.num_players)
    return cli_sim.cmd_compare(args, base, variant, sim_seats(args.seats, base))


def cmd_sweep(args) -> int:
    """Every value of the swept parameters, N games each, as a table, JSON or a chart."""
    args.players = _seated_players(args, args.game)
    return cli_sweep.cmd_sweep(args, sim_seats)


def cmd_tournament(args) -> int:
    """Every seat order of the bots, N games each, and a table of results."""
    game = _load(args)
    return cli_sim.cmd_tournament(args, game, split_specs(args.bots))


# ---- replay ---------------------------------------------------------------------------------------------
def cmd_lsp(args) -> int:
    """Serve the Language Server Protocol over stdio (docs/editors.md)."""
    try:
        from ..lsp.server import main as serve
    except ImportError as exc:
        raise ParameterError(f"the language server needs the lsp extra ({exc})",
                             hint="install rulebook with its lsp extra: pip install -e '.[lsp]' in a "
                                  "checkout, or pipx install the wheel as 'rulebook-….whl[lsp]'") from None
    return serve()


def cmd_replay(args) -> int:
    """Replay a log file; exit 1 at the first step that does not reproduce (or, with --show, step
    through it)."""
    if args.show:
        return show_replay(args.file, args.seat, args.game, Console(highlight=False))
    report = replay(args.file)
    for warning in report.warnings:
        print(safe_text(f"warning: {warning}"), file=sys.stderr)
    if not report.ok and report.ruleset_change:
        print(safe_text(f"RULESET CHANGED: {args.file}: {report.ruleset_change}. The log was written with the "
                        f"earlier rules and cannot be replayed against these (first difference: {report.mismatch}); "
                        "replay it with the ruleset as it was, or write a new log"))
        return 1
    if not report.ok:
        print(safe_text(f"MISMATCH in {args.file}: {report.mismatch}"))
        return 1
    games = f"{report.games} games, " if report.games != 1 else ""
    print(f"OK: {games}{report.steps} steps reproduce")
    return 0


if __name__ == "__main__":
    sys.exit(main())
