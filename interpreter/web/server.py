"""The web table's server state: the tables in memory (loaded from and unloaded to their saves),
the bots playing them, and the designer's queue of checks and simulations of posted rulesets.

:mod:`.app` turns requests into calls of :class:`Server`; the bounds of what strangers may ask
(live tables, tables of bots only, the designer's queue per address) are kept here.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import secrets
from concurrent.futures import ThreadPoolExecutor

from dsl.errors import RulebookError

from ..analysis.match_log import check_log
from ..bots import MAX_DECISIONS
from . import limits, sandbox
from .catalog import Catalog
from .limits import Problem
from .processes import Pool, TableFailed, TableProcess, TableStopped, TableUnloaded, WorkLimits
from .tables import HUMAN, DamagedRecord, TableStore, seat_of_token

DESIGN_SECONDS = 10.0  # time limit of a check of a posted ruleset
MAX_LIVE = 200  # tables in memory at once (idle ones are unloaded first)
MAX_BOT_TABLES = 40  # tables of bots only playing at once
MAX_DESIGN_QUEUE = 8  # checks (or simulations) of posted rulesets waiting at once
MAX_DESIGN_PER_CLIENT = 4  # checks and simulations of one address under way or waiting (a page reloaded mid-check)


class LiveTable:
    """A table in play: its process (:mod:`.processes`), its record and summary as the process last
    answered, the last message each viewer was sent, its connections, lock and bot runner.  Every
    request to the process is made under ``lock``."""

    def __init__(self, process: TableProcess):
        self.process = process
        self.id = None
        self.record: dict = {}
        self.summary: dict = {}
        self.last: dict = {}  # viewer -> the text of the last message it was sent
        self.lock = asyncio.Lock()
        self.connections: list = []  # (websocket, seat or None)
        self.bot_task = None

    def take(self, answer: dict) -> dict:
        """Keep what an answer of the process says of the table; its messages (viewer -> text)."""
        self.summary = answer["summary"]
        if "record" in answer:
            self.record = answer["record"]
            self.id = self.record["id"]
        texts = dict((viewer, text) for viewer, text in answer["messages"])
        self.last.update(texts)
        return texts

    @property
    def error(self):
        return self.process.stopped or self.summary.get("error")

    def humans(self) -> list:
        return [seat for seat, spec in enumerate(self.record["seats"]) if spec == HUMAN]

    def seat_of_token(self, token):
        return seat_of_token(self.record, token)

    def viewers(self) -> list:
        """The seats (None: a spectator) of the connections, each once."""
        return list(dict.fromkeys(seat for _, seat in self.connections))


class Server:
    def __init__(self, rulesets_dir, saves_dir, hosts=frozenset(), work_limits: WorkLimits = WorkLimits()):
        self.catalog = Catalog(rulesets_dir)
        self.store = TableStore(saves_dir)
        self.hosts = hosts
        self.work_limits = work_limits
        self.live: dict = {}
        self.opening: dict = {}  # table id -> the task opening it
        self.pool = Pool(work_limits)  # the processes shared by tables of the catalog's rulesets
        self.spare = None  # a design's table process started ahead of need
        self.starting = None  # the task starting it
        self.reports: dict = {}
        self.design_slots = {"check": asyncio.Semaphore(2), "simulate": asyncio.Semaphore(1)}  # checks never
        self.design_waiting = {"check": 0, "simulate": 0}  # wait behind simulations
        self.design_threads = ThreadPoolExecutor(3, "designer")  # each waits for a sandbox: not the loop's threads
        self.design_by_client: dict = {}  # address -> its checks and simulations under way or waiting
        self.connections: dict = {}  # address -> open websockets

    async def save(self, live: LiveTable) -> None:
        """Write a table's record in a worker thread (under the caller's lock).  A record is never
        changed once answered (each answer brings a new one; a stopped table's is replaced), so the
        thread writes it without a copy made on the event loop."""
        await asyncio.to_thread(self.store.save, live.record)

    def without_paths(self, text: str) -> str:
        """``text`` without the server's folders (an error about a posted ruleset names its file)."""
        for folder in (self.store.folder / "designs", self.store.folder, self.catalog.folder):
            text = text.replace(str(folder.resolve()) + "/", "").replace(str(folder) + "/", "")
        return text

    # ---- a table's process -------------------------------------------------------------------------
    async def call(self, live: LiveTable, op: str, *args) -> dict:
        """The answer of the table's process to ``op`` (under the table's lock).  A table whose process
        went past a limit is stopped, saved so and told to its connections: Problem (409)."""
        try:
            answer = await live.process.request(op, *args)
        except TableStopped as exc:
            await self.stopped(live, exc.reason)
            raise Problem(f"this table was stopped: {exc.reason}", 409) from None
        except TableUnloaded:
            raise Problem("this table was just put away: open it again", 503) from None
        except TableFailed as exc:
            if op in ("open", "create"):
                raise
            await self.stopped(live, f"the game stopped: {exc.message}")  # a failure of the engine
            raise Problem(f"this table was stopped: {exc.message}", 409) from None
        live.take(answer)
        return answer

    async def stopped(self, live: LiveTable, reason: str) -> None:
        """The table ends with ``reason``: kept in its save (``ended``), shown to every connection
        (the last message each was sent, without its choices, with the reason)."""
        live.process.stopped = live.process.stopped or reason
        live.process.close()
        if self.live.get(live.id) is live:  # the next visitor opens it again from its save
            del self.live[live.id]
        if not live.record:
            return
        live.record = {**live.record, "ended": f"this table was stopped: {reason}"}
        await self.save(live)
        for websocket, seat in list(live.connections):
            last = live.last.get(seat)
            message = json.loads(last) if last else {"type": "notice"}
            for key in ("choices", "chosen", "stage", "offers", "can_go_back", "can_undo"):
                message.pop(key, None)
            message["error" if last else "message"] = live.record["ended"]
            with contextlib.suppress(Exception):  # a closed connection; its handler removes it
                await websocket.send_json(message)

    def new_process(self, name: str, design: bool) -> TableProcess:
        """A process for a table: a place in a shared process for a ruleset of the catalog; for a
        design, a process of its own: the one started ahead (so a new table does not wait for a
        fork), and another is started ahead for the next."""
        if not design:
            return TableProcess(name, self.work_limits, self.pool)
        process, self.spare = self.spare, None
        if process is None:
            process = TableProcess(name, self.work_limits)
        process.id = name
        if self.starting is None or self.starting.done():
            self.starting = asyncio.get_running_loop().create_task(self._start_spare())
        return process

    async def _start_spare(self) -> None:
        spare = TableProcess("spare", self.work_limits)
        try:
            await spare.start()
        except (OSError, RuntimeError):  # it is started when a table needs it
            return
        if self.spare is None:
            self.spare = spare
        else:
            spare.close()

    def close(self) -> None:
        """End every table's process and the one started ahead (their tables are saved)."""
        if self.spare is not None:
            self.spare.close()
        for live in self.live.values():
            live.process.close()
        self.pool.close()

    # ---- tables ------------------------------------------------------------------------------------
    def _source_of(self, record: dict) -> tuple:
        """The ruleset file, parameters and players of a table record (a design file checked)."""
        params = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in record["params"].items()}
        if record.get("design"):
            if not re.fullmatch(r"[0-9a-f]{32}", str(record["design"])):
                raise Problem("this table's record is damaged", 409)
            path = self.store.folder / "designs" / f"{record['design']}.yaml"
            problem = self.store.design_problem(path)
            if problem is not None:
                raise DamagedRecord(problem)
        elif record["ruleset"] in self.catalog.files:
            path = self.catalog.files[record["ruleset"]]
        else:
            raise Problem("this table cannot be resumed: no such ruleset on this server", 409)
        return str(path), params, record["players"]

    async def table(self, table_id: str) -> LiveTable:
        """The live table ``table_id``, opened from its save in a process of its own if need be
        (two visitors at once share one opening)."""
        live = self.live.get(table_id)
        if live is not None:
            return live
        task = self.opening.get(table_id)
        if task is None:
            task = self.opening[table_id] = asyncio.ensure_future(self._open(table_id))
            task.add_done_callback(lambda _: self.opening.pop(table_id, None))
        return await asyncio.shield(task)

    async def _open(self, table_id: str) -> LiveTable:
        try:
            record = self.store.load(table_id)
            path, params, players = await asyncio.to_thread(self._source_of, record)
        except (KeyError, OSError):
            raise Problem("no such table", 404) from None
        except DamagedRecord as exc:
            raise Problem(f"this table is damaged: {exc.reason}", 409) from None
        self.make_room()
        live = LiveTable(self.new_process(table_id, bool(record.get("design"))))
        try:
            async with live.lock:
                await self.call(live, "open", str(self.catalog.folder), path, params, players, record, [])
        except TableFailed as exc:
            live.process.close()
            raise Problem(self.without_paths(f"this table cannot be resumed: {exc.message}"), 409) from None
        except Problem as exc:
            live.process.close()
            raise Problem(f"this table cannot be resumed: {exc.message}", 409) from None
        self.live[table_id] = live
        self.kick_bots(live)
        return live

    def idle(self, live: LiveTable) -> bool:
        return not live.connections and (live.bot_task is None or live.bot_task.done()) and not live.lock.locked()

    def unload_if_idle(self, live: LiveTable) -> None:
        """Forget a table no one watches and no bot plays (its process ended): its save brings it
        back on the next visit."""
        if self.idle(live) and self.live.get(live.id) is live:
            del self.live[live.id]
            live.process.close()

    def make_room(self) -> None:
        """Unload idle tables when the live ones reach ``MAX_LIVE``; refuse when none is idle."""
        if len(self.live) < MAX_LIVE:
            return
        for live in list(self.live.values()):
            self.unload_if_idle(live)
        if len(self.live) >= MAX_LIVE:
            raise Problem(f"this server has {MAX_LIVE} tables in play: try again later", 503)

    def bot_tables(self) -> int:
        return sum(1 for live in self.live.values() if not live.humans() and not live.error
                   and not live.summary["over"])

    async def create(self, body: dict, client: str = "") -> dict:
        seats = body.get("seats")
        if not isinstance(seats, list) or not all(isinstance(s, str) and 0 < len(s) < 200 for s in seats):
            raise Problem("seats must be a list of 'human' or bot specs")
        check_bots(seats)
        if HUMAN not in seats and self.bot_tables() >= MAX_BOT_TABLES:
            raise Problem(f"this server plays {MAX_BOT_TABLES} tables of bots only already: try again later", 503)
        self.make_room()
        params = body.get("params") or {}
        if not isinstance(params, dict) or not all(isinstance(v, (str, int, bool)) for v in params.values()):
            raise Problem("parameters must be name: value")
        params = {str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in params.items()}
        players = body.get("players")
        if players is not None and (not isinstance(players, int) or not 1 <= players <= 64):
            raise Problem("players must be a whole number")
        pace = limits.pace(body.get("pace", 1.0))
        seed = secrets.randbelow(1 << 31)
        actions: list = []
        if "record" in body:  # a game record (rulebook play --log) to continue at this table
            key, params, players, seed, actions = self._from_record(body["record"], len(seats))
            source, path = {"ruleset": key}, self.catalog.files[key]
        elif isinstance(body.get("source"), str):
            text = body["source"]
            if len(text) > sandbox.MAX_SOURCE:
                raise Problem("this ruleset is too large")
            checked = await self.design("check", DESIGN_SECONDS, client, text, params, players)
            if not checked.get("ok"):
                raise Problem("this ruleset has errors: " + "; ".join(e["message"] for e in checked["errors"]))
            path = self.store.design_path(text)
            source = {"design": path.stem, "title": checked["name"]}
        else:
            key = body.get("ruleset")
            if not isinstance(key, str) or key not in self.catalog.files:
                raise Problem("choose a ruleset from the list")
            source, path = {"ruleset": key}, self.catalog.files[key]
        live = LiveTable(self.new_process("new", "design" in source))
        try:
            async with live.lock:
                answer = await self.call(live, "create", str(self.catalog.folder), str(path), params or None,
                                         players, source, seats, seed, pace, actions)
                self.live[live.id] = live
                await self.save(live)
        except TableFailed as exc:
            live.process.close()
            raise Problem(self.without_paths(exc.message)) from None
        self.kick_bots(live)
        self.unload_if_idle(live)  # no bot plays it: its process ends until the first visitor comes
        tokens = answer["tokens"]
        seats_out = [{"seat": s, "name": answer["player_names"][s], "spec": spec,
                      "link": f"/table/{live.id}#seat={tokens[str(s)]}" if str(s) in tokens else None}
                     for s, spec in enumerate(seats)]
        return {"id": live.id, "game": answer["game"], "seats": seats_out, "spectator": f"/table/{live.id}"}

    def _from_record(self, record, seat_count: int) -> tuple:
        """The catalog ruleset, parameters, players, seed and actions of a game record sent by a
        page; the ruleset is found by the digest of its file, never by a path the page names."""
        try:
            check_log("the game record", record)
        except RulebookError as exc:
            raise Problem(str(exc)) from None
        key = self.catalog.key_for_digest(record["ruleset_sha256"])
        if key is None:
            raise Problem(f"this server has no ruleset that is the one of this record ({record['game']}, "
                          f"sha256 {record['ruleset_sha256'][:12]}…): the rules changed since, or they are "
                          "not among this server's rulesets")
        if seat_count != record["players"]:
            raise Problem(f"the record is a game of {record['players']} players, not {seat_count}")
        params = {k: v if isinstance(v, str) else json.dumps(v) for k, v in record["params"].items()}
        return key, params, record["players"], record["seed"], [step["action"] for step in record["steps"]]

    async def changed(self, live: LiveTable, answer: dict) -> None:
        """Save the record, send every connection its message, let bots move (under the table's
        lock: the save is always the state broadcast)."""
        await self.save(live)
        await self.broadcast(live, dict((viewer, text) for viewer, text in answer["messages"]))
        self.kick_bots(live)

    async def broadcast(self, live: LiveTable, texts: dict) -> None:
        """Send every connection its message (``texts``: viewer -> text; the others asked for)."""
        missing = [viewer for viewer in live.viewers() if viewer not in texts]
        if missing:
            try:
                texts.update(live.take(await self.call(live, "messages", missing)))
            except Problem:
                return  # the table was stopped, and that was said
        for websocket, seat in list(live.connections):
            try:
                await websocket.send_text(texts[seat])
            except Exception:  # a closed connection; its handler removes it
                pass

    def kick_bots(self, live: LiveTable) -> None:
        if live.bot_task is None or live.bot_task.done():
            if live.summary.get("bot") is not None and not live.error:
                live.bot_task = asyncio.get_running_loop().create_task(self.run_bots(live))
                live.bot_task.add_done_callback(lambda _: self.unload_if_idle(live))  # a finished game of bots

    async def run_bots(self, live: LiveTable) -> None:
        while True:
            await asyncio.sleep(live.record["pace"])
            async with live.lock:
                if live.summary["bot"] is None or live.error:
                    return
                try:
                    if not live.humans() and live.summary["moves"] >= MAX_DECISIONS:  # as simulate cuts a game off
                        answer = await self.call(live, "stop", f"the game was cut off after {MAX_DECISIONS:,} "
                                                 "decisions (a table of bots only ends there)", live.viewers())
                        await self.changed(live, answer)
                        return
                    answer = await self.call(live, "bot", live.viewers())
                except Problem:
                    return  # the table was stopped, and that was said at the table
                if "record" in answer:
                    await self.save(live)
                    await self.broadcast(live, dict((viewer, text) for viewer, text in answer["messages"]))

    # ---- designer ----------------------------------------------------------------------------------
    async def design(self, function: str, seconds: float, client: str, *args) -> dict:
        """Run ``function`` (check, simulate) of the sandbox on a posted ruleset: checks and
        simulations have slots of their own (a check never waits behind a simulation), queues of at
        most ``MAX_DESIGN_QUEUE``, and one address at most ``MAX_DESIGN_PER_CLIENT`` under way."""
        if self.design_by_client.get(client, 0) >= MAX_DESIGN_PER_CLIENT:
            raise Problem(f"at most {MAX_DESIGN_PER_CLIENT} checks or simulations at a time: wait for yours", 429)
        if self.design_waiting[function] >= MAX_DESIGN_QUEUE:
            raise Problem("the designer is busy: try again in a moment", 503)
        self.design_by_client[client] = self.design_by_client.get(client, 0) + 1
        self.design_waiting[function] += 1
        waiting = True
        try:
            async with self.design_slots[function]:
                self.design_waiting[function] -= 1
                waiting = False
                return await asyncio.get_running_loop().run_in_executor(
                    self.design_threads, functools.partial(sandbox.run, function, seconds, args[0],
                                                           str(self.catalog.folder), *args[1:]))
        except (sandbox.SandboxTimeout, OSError) as exc:
            return {"ok": False, "errors": [{"line": 0, "column": 0, "stage": "limit",
                                             "message": f"the work on this ruleset was {exc}"}]}
        finally:
            if waiting:
                self.design_waiting[function] -= 1
            self.design_by_client[client] -= 1
            if not self.design_by_client[client]:
                del self.design_by_client[client]


def check_bots(seats: list) -> None:
    """Refuse a seat whose bot spec goes past the limits of a table (see limits.check_bot_spec)."""
    for spec in seats:
        if spec != HUMAN:
            problem = limits.check_bot_spec(spec)
            if problem is not None:
                raise Problem(problem)
