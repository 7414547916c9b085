"""Work on rulesets posted from the designer page, in a separate process with a time and memory limit.

A posted ruleset is untrusted: it is checked, explained and simulated in a child Python process
(``python -m interpreter.web.sandbox``, request and answer as JSON over its stdin and stdout), which
is killed when it exceeds its time; its CPU time and address space are capped as a table's process
is (:mod:`.worker`).  The server's event loop only waits
for the answer in a worker thread.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import worker
from .processes import WorkLimits

MAX_SOURCE = 200_000  # characters of a posted ruleset
MEMORY_LIMIT = WorkLimits().memory  # bytes of address space of a child: as much as a table's process
ROOT = Path(__file__).resolve().parents[2]


class SandboxTimeout(Exception):
    pass


def run(function_name: str, seconds: float, *args):
    """Call ``function_name`` of this module with ``args`` (JSON-ready) in a fresh Python process;
    its result, or SandboxTimeout when it takes longer than ``seconds`` (the process is killed)."""
    request = json.dumps({"function": function_name, "args": list(args)})
    child = subprocess.Popen([sys.executable, "-m", "interpreter.web.sandbox", str(seconds)], cwd=str(ROOT),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        out, _ = child.communicate(request.encode(), timeout=seconds)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise SandboxTimeout(f"stopped after {seconds:g} s") from None
    try:
        return json.loads(out)
    except ValueError:
        raise SandboxTimeout("stopped: it ran out of memory or failed") from None


def _main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    worker.set_limits(MEMORY_LIMIT, seconds)  # as a table's process: its memory, CPU time as its time
    request = json.loads(sys.stdin.read())
    if request.get("function") not in ("check", "simulate"):
        return
    try:
        result = globals()[request["function"]](*request["args"])
    except MemoryError:
        result = {"ok": False, "errors": [{"line": 0, "column": 0, "message": "the ruleset used too much memory"}]}
    sys.stdout.write(json.dumps(result))


# ---- what runs in the child ---------------------------------------------------------------------
def check(text: str, rulesets_dir: str, params: dict, players) -> dict:
    """Diagnostics at line:col, a summary and the ``explain`` text of a posted ruleset."""
    from dsl.explain import explain
    game, errors, notes = _load(text, rulesets_dir, params, players)
    if game is None:
        return {"ok": False, "errors": errors}
    rs = game.ruleset
    return {"ok": True, "errors": [], "notes": notes, "explain": explain(rs), "name": game.name,
            "players": game.num_players, "min_players": rs.min_players, "max_players": rs.max_players}


def simulate(text: str, rulesets_dir: str, params: dict, players, seats: list, games: int, first: int = 0) -> dict:
    """A quick simulation of bot games with the balance charts of ``rulebook simulate --report``:
    games ``first`` to ``first + games - 1`` of a run (the designer asks for a long run in parts)."""
    from ..analysis import report
    from ..analysis.simulation import RunSpec, play_one, summarize
    game, errors, _ = _load(text, rulesets_dir, params, players)
    if game is None:
        return {"ok": False, "errors": errors}
    seats = seats or ["random"] * game.num_players
    spec = RunSpec(game.path, dict(game.params), game.num_players, list(seats), 1)
    started = time.perf_counter()
    try:
        results = [play_one(game, spec, first + i) for i in range(games)]
    except Exception as exc:  # a RulebookError of a bot spec or of the rules while running
        return {"ok": False, "errors": [_error_dict(exc, None)]}
    summary = summarize(results, game.num_players, time.perf_counter() - started)
    result = {"game": game.name, "seed": 1, "seats": list(seats), "players": game.num_players,
              "params": game.params, **summary}
    return {"ok": True, "errors": [], "report": report.html_report(game, result),
            "win_rates": summary["win_rates"], "mean_scores": summary["mean_scores"],
            "mean_decisions": summary["mean_decisions"], "games": games}


def _load(text, rulesets_dir, params, players):
    """``(game, errors, notes)``: the game (None if it has errors) and the dicts of its errors and
    of its notes (names of the ruleset that hide built-ins)."""
    from dsl.errors import ErrorList, RulebookError
    from .catalog import Catalog
    catalog = Catalog(rulesets_dir)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ruleset.yaml"
        path.write_text(text, encoding="utf-8")
        try:
            game = catalog.load_path(path, params or None, players)
        except ErrorList as exc:
            return None, [_error_dict(e, path) for e in exc.errors], []
        except RulebookError as exc:
            return None, [_error_dict(exc, path)], []
        except RecursionError:
            return None, [{"line": 0, "column": 0, "message": "the ruleset nests too deeply"}], []
        return game, [], [_error_dict(note, path) for note in game.ruleset.notes]


def _error_dict(error, path) -> dict:
    position = getattr(error, "position", None)
    here = position is not None and path is not None and Path(position.file) == path
    out = {"line": position.line if here else 0, "column": position.column if here else 0,
           "stage": getattr(error, "stage", "error"), "message": getattr(error, "message", str(error)),
           "hint": getattr(error, "hint", None)}
    if position is not None and not here:
        out["where"] = f"in {Path(position.file).name}:{position.line}:{position.column}"
    return out


if __name__ == "__main__":
    _main()
