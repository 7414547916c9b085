"""Play logs: what was played, step by step, so that a game can be replayed and checked.

A log is a JSON object: format and version, the ruleset (path, its sha256, the game's name, the
fingerprint of the rules: see ``fingerprint.py``), the version of rulebook that wrote it (absent in
older logs), the parameters in force, the number of players, the seed, the seat specs, and the steps.  Each step
holds the deciding seat, the action text, a digest of the legal action texts before the step and a
digest of ``state.to_json()`` after it.  A finished game also stores the returns and the winners.
Seats are 0-based, as in ``State.winners()``.  A file holds one log or a JSON list of logs
(``rulebook simulate --log``).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from dsl.errors import ParameterError, RulebookError
from dsl.schema import SCHEMAS_DIR
from rulebook_data import rulebook_version

from ..game import load_game
from ..store.saved_state import SavedStateError, parse_json, strict_validator
from .fingerprint import describe_change, file_digest, fingerprint

FORMAT = "rulebook-log"
VERSION = 1
LOG_SCHEMA = SCHEMAS_DIR / "log.schema.json"
MAX_LOG_BYTES = 200_000_000


def short_digest(text: str) -> str:
    """The first 16 hex digits of the sha256 of ``text``."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def legal_digest(actions) -> str:
    """A digest of the texts of a list of legal actions, in order."""
    return short_digest("\n".join(str(a) for a in actions))


def log_header(game, seats: list) -> dict:
    """What every log of games of ``game`` with these seat specs starts with (all but the seed)."""
    return {"format": FORMAT, "version": VERSION, "ruleset": str(Path(game.path).resolve()),
            "ruleset_sha256": file_digest(game.path), **fingerprint(game), "rulebook_version": rulebook_version(),
            "game": game.name,
            "params": dict(game.params),
            "players": game.num_players, "player_names": list(game.player_names), "seats": list(seats)}


class MatchRecorder:
    """Collects the steps of one game; ``record`` is called after every applied action."""

    def __init__(self, header: dict, seed: int):
        self.header = {**header, "seed": seed}
        self.steps: list = []

    def record(self, seat: int, legal: list, action, state) -> None:
        """Note that ``seat`` chose ``action`` among ``legal``, giving ``state``."""
        self.steps.append({"seat": seat, "action": str(action), "legal": legal_digest(legal),
                           "state": short_digest(state.to_json())})

    def log(self, state) -> dict:
        """The finished log, with the result if ``state`` is over."""
        over = state.is_terminal()
        return {**self.header, "steps": self.steps, "finished": over,
                "returns": state.returns() if over else None, "winners": state.winners() if over else None}


def write_logs(path, logs) -> None:
    """Write one log (a dict) or several (a list) as JSON."""
    try:
        Path(path).write_text(json.dumps(logs, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    except OSError as exc:
        raise ParameterError(f"cannot write log {path}: {exc.strerror}") from None


def read_logs(path) -> list:
    """The logs stored in a file, as a list; a file that is not a log (not UTF-8, not JSON, nested
    too deeply, not of the shape of schemas/log.schema.json) is a clean error."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise ParameterError(f"cannot read log {path}: {exc.strerror}") from None
    try:
        data = parse_json(data, what="log", limit=MAX_LOG_BYTES)
    except SavedStateError as exc:
        raise ParameterError(f"{path}: {exc.message}") from None
    logs = data if isinstance(data, list) else [data]
    for log in logs:
        _check_log(path, log)
    return logs


@lru_cache(maxsize=1)
def _log_schema():
    return strict_validator(json.loads(LOG_SCHEMA.read_text(encoding="utf-8"))["$defs"]["log"])


def check_log(where, log) -> None:
    """Raise ParameterError unless ``log`` (from ``where``: a file, a page) is a well-formed log."""
    _check_log(where, log)


def _check_log(path, log) -> None:
    """Raise ParameterError unless ``log`` looks like a log this module wrote."""
    if isinstance(log, dict) and log.get("format") == "rulebook-table/1":
        raise ParameterError(f"{path} is a web table's own save file, not a game record",
                             hint="open the table's page and press 'Save the game record': that file is in "
                                  "the format of play --log, which play --resume and replay read")
    if not isinstance(log, dict) or log.get("format") != FORMAT:
        raise ParameterError(f"{path} is not a rulebook play log")
    if log.get("version") != VERSION:
        raise ParameterError(f"{path} is a log of version {str(log.get('version'))[:20]}; this rulebook reads "
                             f"version {VERSION}")
    from jsonschema.exceptions import best_match
    error = best_match(_log_schema().iter_errors(log))
    if error is not None:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise ParameterError(f"{path} is a damaged log: field {where.lstrip('.') or '(top level)'}: "
                             f"{error.message[:200]}", hint="a log is what play --log or simulate --log wrote")


@dataclass
class Mismatch:
    """The first step of a log that does not reproduce."""

    game: int  # 1-based index of the log in its file
    step: int  # 1-based step number
    reason: str

    def __str__(self) -> str:
        return f"game {self.game}, step {self.step}: {self.reason}"


@dataclass
class ReplayReport:
    """What a replay found: the logs and steps that reproduced, and the first mismatch."""

    games: int = 0
    steps: int = 0
    mismatch: Mismatch | None = None
    warnings: list = field(default_factory=list)
    ruleset_change: str | None = None  # why the mismatch is no surprise: the rules changed since

    @property
    def ok(self) -> bool:
        return self.mismatch is None


def replay(path) -> ReplayReport:
    """Replay every log in a file; stop at the first step that does not reproduce."""
    report = ReplayReport()
    games: dict = {}
    for number, log in enumerate(read_logs(path), 1):
        game = _game_for(log, games)
        failure = replay_log(game, log)
        change = describe_change(log, game)
        if failure is not None:
            report.mismatch = Mismatch(number, failure[0], failure[1] + _version_note(log))
            report.ruleset_change = change
            break
        if change and change not in report.warnings:
            report.warnings.append(f"{change}; the log still reproduces")
        report.games += 1
        report.steps += len(log["steps"])
    return report


def _version_note(log: dict) -> str:
    """A note on the rulebook that wrote a log, when it is another than this one (older logs say nothing)."""
    written_by = log.get("rulebook_version")
    if not isinstance(written_by, str) or written_by == rulebook_version():
        return ""
    return f" (the log was written by rulebook {written_by[:40]}; this is {rulebook_version()})"


def _game_for(log: dict, games: dict):
    """The game a log was played with; loaded once per ruleset, parameters and players."""
    key = (log["ruleset"], json.dumps(log["params"], sort_keys=True), log["players"])
    if key not in games:
        games[key] = load_game(log["ruleset"], params=log["params"], players=log["players"])
    return games[key]


def replay_log(game, log: dict) -> tuple[int, str] | None:
    """Replay one log: None if it reproduces, else (number of the failing step, reason)."""
    state = game.new_initial_state(log["seed"])
    for number, step in enumerate(log["steps"], 1):
        reason = _replay_step(state, step)
        if reason is not None:
            return number, reason
    reason = _check_result(state, log)
    return None if reason is None else (len(log["steps"]), reason)


def _replay_step(state, step: dict) -> str | None:
    """Apply one logged step to ``state``; the reason it does not reproduce, or None."""
    if state.is_terminal():
        return "the game is already over"
    if state.current_player() != step["seat"]:
        return f"{_seat_name(state, state.current_player())} decides here, the log says " \
               f"{_seat_name(state, step['seat'])}"
    if legal_digest(state.legal_actions()) != step["legal"]:
        return f"the legal actions differ (before '{step['action']}')"
    try:
        state.apply_action(step["action"])
    except RulebookError as exc:
        return f"'{step['action']}' does not apply: {exc}"
    if short_digest(state.to_json()) != step["state"]:
        return f"the state after '{step['action']}' differs"
    return None


def _seat_name(state, seat) -> str:
    names = state.game.player_names
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else f"seat {seat!r}"


def _check_result(state, log: dict) -> str | None:
    """Whether the end of the replay matches the logged end."""
    if not log.get("finished"):
        return None
    if not state.is_terminal():
        return "the log says the game is over here, but it goes on"
    if state.returns() != log["returns"] or state.winners() != log["winners"]:
        return f"the result differs: returns {state.returns()}, winners {state.winners()}"
    return None
