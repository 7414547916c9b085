"""A table: one game, its seats (people with secret tokens, or bots), its history, undo and its record.

A table is kept as a *table record* (what ruleset, parameters, seats, seed and the texts of the actions
taken, with the seats' token hashes and the pace); the states are rebuilt from it, so a table survives
a server restart and undo is a replay of fewer actions.  People take the game away as a *game record*
(``game_record``): the format of ``rulebook play --log`` (schemas/log.schema.json), which ``rulebook
play GAME --resume FILE`` continues and ``rulebook replay FILE --show`` shows.  Seat tokens are stored only as hashes.  Everything sent to a seat is built here from
that seat's view (``State.view(seat)``), its staged choices and its narration; nothing else.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import re
import secrets
import tempfile
import time
from functools import lru_cache
from pathlib import Path

from dsl.errors import IllegalActionError, ParameterError

from ..analysis.match_log import MatchRecorder, log_header
from ..bots import bot_seed, make_bot
from . import narration, staging
from .history import StateHistory

HUMAN = "human"
RECORD_FORMAT = "rulebook-table/1"
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
MAX_NARRATION = 400  # lines of narration sent in one message
MAX_RECORD_BYTES = 50_000_000  # a save file larger than this is damaged
TABLE_SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "table.schema.json"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of_token(record: dict, token) -> int | None:
    """The seat of the table of ``record`` a token opens, or None (no token: a spectator)."""
    if not token:
        return None
    digest = token_hash(str(token))
    for seat, stored in enumerate(record["tokens"]):
        if stored is not None and hmac.compare_digest(stored, digest):
            return seat
    raise PermissionError("this seat link is not valid for this table")


class Table:
    def __init__(self, record: dict, game):
        self.record = record
        self.id = record["id"]
        self.game = game
        self.seats = record["seats"]
        self.bots = [None if spec == HUMAN else make_bot(spec, seat, bot_seed(record["seed"], 0, seat))
                     for seat, spec in enumerate(self.seats)]
        self.prefix = {}  # seat -> the values chosen so far in the current decision
        self.undo_request = None
        self.version = 0
        self.error = record.get("ended")  # why the game stopped short (a cut-off table of bots)
        self._replay(record["actions"])

    # ---- building ----------------------------------------------------------------------------------
    @classmethod
    def create(cls, game, source: dict, seats: list, seed: int, pace: float, actions=()) -> tuple:
        """A new table and the tokens of its human seats (seat -> token), shown once to its host;
        ``actions`` are taken first (a game record continued)."""
        if len(seats) != game.num_players:
            raise ParameterError(f"{game.name} with these settings has {game.num_players} seats, "
                                 f"not {len(seats)}")
        for seat, spec in enumerate(seats):
            if spec != HUMAN:
                make_bot(spec, seat, 0)  # a wrong spec fails here
        tokens = {seat: secrets.token_urlsafe(24) for seat, spec in enumerate(seats) if spec == HUMAN}
        record = {"format": RECORD_FORMAT, "id": secrets.token_urlsafe(12), "created": time.time(),
                  **source, "players": game.num_players, "params": dict(game.params), "seats": list(seats),
                  "seed": seed, "pace": pace, "actions": list(actions),
                  "tokens": [token_hash(tokens[s]) if s in tokens else None for s in range(len(seats))]}
        return cls(record, game), tokens

    def _replay(self, actions: list) -> None:
        state = self.game.new_initial_state(self.record["seed"])
        self.states = StateHistory(state)
        self.step_seats = []
        self.seen = narration.visible_sets(state)
        self.heard = {}
        self.lines = [{v: narration.engine_lines(state, v, self.heard) for v in narration.viewers(self.game)}]
        self.record["actions"] = []
        for text in actions:
            self._apply(state.current_player(), state.parse_action(text))
            state = self.states[-1]

    def _apply(self, seat: int, action) -> None:
        state = self.states[-1].clone()
        state.apply_action(action)
        lines, self.seen = narration.step_lines(self.seen, self.heard, seat, action, state)
        self.states.append(str(action), state)
        self.step_seats.append(seat)
        self.lines.append(lines)
        self.record["actions"].append(str(action))
        self.prefix = {}
        self.undo_request = None
        self.version += 1

    @property
    def state(self):
        return self.states[-1]

    def game_record(self, seat) -> dict:
        """The game in the format of ``rulebook play --log``, for ``seat`` (None: a spectator).  It
        holds the seed and every move, so every secret of the game: it is given when the game is over,
        or during the game to the only person at the table."""
        if not self.state.is_terminal() and (seat is None or self.humans() != [seat]):
            raise PermissionError("the game record holds every secret of the game (its seed and every move): "
                                  "it can be saved when the game is over, or during a game of one person "
                                  "against bots by that person")
        header = log_header(self.game, self.seats)
        if self.record.get("ruleset") and not self.record.get("design"):
            header["ruleset"] = self.record["ruleset"]  # its name among the shipped rulesets
        else:  # a design: its file's name, never where the server keeps it
            header["ruleset"] = Path(self.game.path).name
        header["ruleset_files"] = {Path(name).name: digest for name, digest in header.get("ruleset_files", {}).items()}
        recorder = MatchRecorder(header, self.record["seed"])
        states = iter(self.states)
        before = next(states)
        for i, (text, after) in enumerate(zip(self.record["actions"], states)):
            recorder.record(self.step_seats[i], before.legal_actions(), text, after)
            before = after
        return recorder.log(self.state)

    # ---- seats -------------------------------------------------------------------------------------
    def seat_of_token(self, token) -> int | None:
        """The seat a token opens, or None (no token: a spectator)."""
        return seat_of_token(self.record, token)

    def humans(self) -> list:
        return [seat for seat, spec in enumerate(self.seats) if spec == HUMAN]

    def bot_to_move(self):
        seat = self.state.current_player()
        return seat if seat is not None and self.bots[seat] is not None else None

    # ---- decisions ---------------------------------------------------------------------------------
    def settled(self, seat: int) -> tuple:
        """The seat's prefix and the choices of its next stage, stages with a single choice that does
        not yet complete the action taken at once (so a decision of one option opens at its values)."""
        state = self.state
        prefix = self.prefix.get(seat, ())
        options = staging.choices(state, prefix)
        while len(options) == 1 and not options[0].complete:
            prefix += (options[0].value,)
            options = staging.choices(state, prefix)
        self.prefix[seat] = prefix
        return prefix, options

    def pick(self, seat: int, index) -> bool:
        """The seat picks choice ``index`` of its current stage; True when that completed an action."""
        state = self.state
        if state.current_player() != seat:
            raise IllegalActionError("it is not your turn")
        prefix, options = self.settled(seat)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(options):
            raise IllegalActionError("there is no such choice")
        choice = options[index]
        prefix = prefix + (choice.value,)
        if choice.complete:
            self._apply(seat, staging.action_for(state, prefix))
            return True
        self.prefix[seat] = prefix
        self.version += 1
        return False

    def back(self, seat: int) -> None:
        """Undo the seat's last pick in the current decision (and the single-choice stages before it)."""
        prefix = self.prefix.get(seat, ())
        while prefix:
            prefix = prefix[:-1]
            if len(staging.choices(self.state, prefix)) > 1:
                break
        self.prefix[seat] = prefix
        self.version += 1

    def bot_move(self, seat: int, expected_version: int):
        """The bot's choice for the current state (called away from the event loop)."""
        return self.bots[seat].choose(self.state.clone()), expected_version

    def apply_bot(self, seat: int, action, version: int) -> bool:
        if version != self.version or self.bot_to_move() != seat:
            return False  # the table changed while the bot thought (an undo)
        self._apply(seat, action)
        return True

    # ---- undo --------------------------------------------------------------------------------------
    def request_undo(self, seat: int) -> bool:
        """Take back the seat's last decision (and what followed).  With other people at the table,
        they must agree first; returns True when the takeback happened."""
        target = max((i for i, s in enumerate(self.step_seats) if s == seat), default=None)
        if target is None:
            raise IllegalActionError("you have not decided anything yet")
        if self.state.is_terminal():
            raise IllegalActionError("the game is over")
        others = [s for s in self.humans() if s != seat]
        if not others:
            self._take_back(target)
            return True
        self.undo_request = {"by": seat, "to": target, "agreed": []}
        self.version += 1
        return False

    def answer_undo(self, seat: int, agree: bool) -> bool:
        request = self.undo_request
        if request is None or seat == request["by"] or seat not in self.humans():
            raise IllegalActionError("there is no takeback to answer")
        if not agree:
            self.undo_request = None
            self.version += 1
            return False
        if seat not in request["agreed"]:
            request["agreed"].append(seat)
        if set(request["agreed"]) >= set(self.humans()) - {request["by"]}:
            self._take_back(request["to"])
            return True
        self.version += 1
        return False

    def _take_back(self, steps: int) -> None:
        self._replay(self.record["actions"][:steps])
        self.version += 1

    # ---- messages ----------------------------------------------------------------------------------
    def message(self, viewer) -> dict:
        """Everything ``viewer`` (a seat, or None for a spectator) is sent about the table now."""
        state = self.state
        game = self.game
        lines = [line for step in self.lines for line in step[viewer]]
        out = {"type": "state", "table": self.id, "game": game.name, "you": viewer,
               "seats": [{"name": game.player_names[s], "spec": spec} for s, spec in enumerate(self.seats)],
               "view": _without_narration(state.view(viewer)), "narration": lines[-MAX_NARRATION:], "moves": state.moves,
               "over": state.is_terminal(), "pace": self.record["pace"], "end_reason": state.end_reason,
               "turn": state.current_player(), "can_undo": viewer in self.step_seats and not state.is_terminal()}
        if game.ruleset.display:
            out["display"] = game.ruleset.display  # static ruleset data: how the game looks
        if state.is_terminal():
            out["result"] = {"scores": state.returns(), "winners": state.winners()}
        if self.undo_request is not None:
            out["undo"] = {"by": self.undo_request["by"], "agreed": self.undo_request["agreed"]}
        if viewer is not None and viewer == state.current_player() and self.bots[viewer] is None:
            prefix, options = self.settled(viewer)
            out["choices"] = staging.choice_payload(state, viewer, prefix, options)
            out["chosen"] = [_label(state, prefix, i) for i in range(len(prefix))]
            out["stage"] = options[0].stage if options and options[0].stage else None  # the parameter asked
            out["offers"] = staging.offers_payload(state, viewer, game.ruleset.display.get("offers"))
            out["can_go_back"] = any(len(staging.choices(state, prefix[:i])) > 1 for i in range(len(prefix)))
        if self.error:
            out["error"] = self.error
        return out

    def travel(self, move, seat) -> dict:
        """The view of any seat (or the spectator) after ``move`` steps of a finished game."""
        if not self.state.is_terminal():
            raise IllegalActionError("time travel opens when the game is over")
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < len(self.states):
            raise IllegalActionError("no such move")
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < self.game.num_players):
            raise IllegalActionError("no such seat")
        lines = [line for step in self.lines[:move + 1] for line in step[seat]]
        return {"type": "travel", "move": move, "moves": len(self.states) - 1, "seat": seat,
                "view": _without_narration(self.states[move].view(seat)), "narration": lines[-MAX_NARRATION:]}


def _without_narration(view: dict) -> dict:
    """A view without its narration: the table sends narration as lines of its own (who did what,
    then the rules' messages of that step)."""
    view.pop("narration", None)
    return view


def _label(state, prefix, i) -> str:
    for choice in staging.choices(state, prefix[:i]):
        if choice.value == prefix[i]:
            return choice.label.replace("_", " ") if i == 0 else choice.label
    return "?"


class DamagedRecord(Exception):
    """A save file (or a design file) that cannot be a table: its reason, for the lobby."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@lru_cache(maxsize=1)
def _record_validator():
    from ..store.saved_state import strict_validator
    return strict_validator(json.loads(TABLE_SCHEMA.read_text(encoding="utf-8")))


def record_problem(record) -> str | None:
    """Why a table record does not fit schemas/table.schema.json, or None."""
    from jsonschema.exceptions import best_match
    error = best_match(_record_validator().iter_errors(record))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path).lstrip(".")
    return f"{where or 'the record'}: {error.message[:160]}"


class TableStore:
    """Game records on disk, one JSON file per table in the saves folder; each written whole (a
    temporary file of its own, then renamed), each checked against schemas/table.schema.json when read."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def path(self, table_id: str) -> Path:
        if not TABLE_ID.match(str(table_id)):
            raise KeyError(table_id)
        return self.folder / f"{table_id}.json"

    def save(self, record: dict) -> None:
        path = self.path(record["id"])
        _write_whole(path, json.dumps(record, ensure_ascii=False))

    def load(self, table_id: str) -> dict:
        """The record of a table; KeyError if there is none, DamagedRecord if its file is damaged."""
        path = self.path(table_id)
        if not path.is_file():
            raise KeyError(table_id)
        try:
            if path.stat().st_size > MAX_RECORD_BYTES:
                raise DamagedRecord(f"the save file is larger than {MAX_RECORD_BYTES // 1_000_000} MB")
            record = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise DamagedRecord(f"the save file cannot be read ({type(exc).__name__})") from None
        except (ValueError, RecursionError):
            raise DamagedRecord("the save file is not JSON (cut short?)") from None
        problem = record_problem(record)
        if problem is None and record["id"] != table_id:
            problem = "the save file names another table"
        if problem is not None:
            raise DamagedRecord(f"the save file is damaged: {problem}")
        return record

    def ids(self) -> list:
        return sorted(p.stem for p in self.folder.glob("*.json") if TABLE_ID.match(p.stem))

    def design_path(self, text: str) -> Path:
        """Where a ruleset posted from the designer page is kept (named by its hash; a file whose
        content does not match its name, cut short by a crash, is written again)."""
        folder = self.folder / "designs"
        folder.mkdir(exist_ok=True)
        path = folder / f"{hashlib.sha256(text.encode()).hexdigest()[:32]}.yaml"
        if self.design_problem(path) is not None:
            _write_whole(path, text)
        return path

    @staticmethod
    def design_problem(path: Path) -> str | None:
        """Why the design file at ``path`` cannot be used (missing, or not what its name says), or None."""
        try:
            data = path.read_bytes()
        except OSError:
            return "its ruleset file is missing"
        if hashlib.sha256(data).hexdigest()[:32] != path.stem:
            return "its ruleset file is damaged (its content does not match its name)"
        return None


def _write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file of its own, renamed over it: a reader
    sees the old file or the new one, and two writers never share a temporary file."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
