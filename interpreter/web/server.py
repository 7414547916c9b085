"""The web table's server state: the tables in memory (loaded from and unloaded to their saves),
the bots playing them, and the designer's queue of checks and simulations of posted rulesets.

:mod:`.app` turns requests into calls of :class:`Server`; the bounds of what strangers may ask
(live tables, tables of bots only, the designer's queue per address) are kept here.
"""
from __future__ import annotations

import asyncio
import json
import re
import secrets

from dsl.errors import RulebookError

from ..analysis.match_log import check_log
from ..bots import MAX_DECISIONS
from . import limits, sandbox
from .catalog import Catalog
from .limits import Problem
from .tables import HUMAN, DamagedRecord, Table, TableStore

DESIGN_SECONDS = 10.0  # time limit of a check of a posted ruleset
MAX_LIVE = 200  # tables in memory at once (idle ones are unloaded first)
MAX_BOT_TABLES = 40  # tables of bots only playing at once
MAX_DESIGN_QUEUE = 8  # checks (or simulations) of posted rulesets waiting at once
MAX_DESIGN_PER_CLIENT = 4  # checks and simulations of one address under way or waiting (a page reloaded mid-check)


class LiveTable:
    """A table in memory with its connections, lock and bot runner."""

    def __init__(self, table: Table):
        self.table = table
        self.lock = asyncio.Lock()
        self.connections: list = []  # (websocket, seat or None)
        self.bot_task = None


class Server:
    def __init__(self, rulesets_dir, saves_dir, hosts=frozenset()):
        self.catalog = Catalog(rulesets_dir)
        self.store = TableStore(saves_dir)
        self.hosts = hosts
        self.live: dict = {}
        self.reports: dict = {}
        self.design_slots = {"check": asyncio.Semaphore(2), "simulate": asyncio.Semaphore(1)}  # checks never
        self.design_waiting = {"check": 0, "simulate": 0}  # wait behind simulations
        self.design_by_client: dict = {}  # address -> its checks and simulations under way or waiting
        self.connections: dict = {}  # address -> open websockets

    async def save(self, table: Table) -> None:
        """Write a table's record (a copy made here, under the caller's lock) in a worker thread."""
        await asyncio.to_thread(self.store.save, json.loads(json.dumps(table.record)))

    def without_paths(self, text: str) -> str:
        """``text`` without the server's folders (an error about a posted ruleset names its file)."""
        for folder in (self.store.folder / "designs", self.store.folder, self.catalog.folder):
            text = text.replace(str(folder.resolve()) + "/", "").replace(str(folder) + "/", "")
        return text

    # ---- tables ------------------------------------------------------------------------------------
    def _game_for(self, record: dict):
        params = {k: json.dumps(v) if not isinstance(v, str) else v for k, v in record["params"].items()}
        if record.get("design"):
            if not re.fullmatch(r"[0-9a-f]{32}", str(record["design"])):
                raise Problem("this table's record is damaged", 409)
            path = self.store.folder / "designs" / f"{record['design']}.yaml"
            problem = self.store.design_problem(path)
            if problem is not None:
                raise DamagedRecord(problem)
            return self.catalog.load_path(path, params, record["players"])
        return self.catalog.load(record["ruleset"], params, record["players"])

    async def table(self, table_id: str) -> LiveTable:
        live = self.live.get(table_id)
        if live is None:
            try:
                record = self.store.load(table_id)
            except (KeyError, OSError):
                raise Problem("no such table", 404) from None
            except DamagedRecord as exc:
                raise Problem(f"this table is damaged: {exc.reason}", 409) from None

            def rebuild():
                return Table(record, self._game_for(record))
            try:
                table = await asyncio.to_thread(rebuild)
            except DamagedRecord as exc:
                raise Problem(f"this table is damaged: {exc.reason}", 409) from None
            except (RulebookError, KeyError, ValueError, TypeError) as exc:
                raise Problem(self.without_paths(f"this table cannot be resumed: {exc}"), 409) from None
            self.make_room()
            live = self.live.setdefault(table_id, LiveTable(table))
            self.kick_bots(live)
        return live

    def idle(self, live: LiveTable) -> bool:
        return not live.connections and (live.bot_task is None or live.bot_task.done()) and not live.lock.locked()

    def unload_if_idle(self, live: LiveTable) -> None:
        """Forget a table no one watches and no bot plays: its save brings it back on the next visit."""
        if self.idle(live) and self.live.get(live.table.id) is live:
            del self.live[live.table.id]

    def make_room(self) -> None:
        """Unload idle tables when the live ones reach ``MAX_LIVE``; refuse when none is idle."""
        if len(self.live) < MAX_LIVE:
            return
        for live in list(self.live.values()):
            self.unload_if_idle(live)
        if len(self.live) >= MAX_LIVE:
            raise Problem(f"this server has {MAX_LIVE} tables in play: try again later", 503)

    def bot_tables(self) -> int:
        return sum(1 for live in self.live.values() if not live.table.humans() and not live.table.error
                   and not live.table.state.is_terminal())

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
            source = {"ruleset": key}
            load = lambda: self.catalog.load(key, params or None, players)  # noqa: E731
        elif isinstance(body.get("source"), str):
            text = body["source"]
            if len(text) > sandbox.MAX_SOURCE:
                raise Problem("this ruleset is too large")
            checked = await self.design("check", DESIGN_SECONDS, client, text, params, players)
            if not checked.get("ok"):
                raise Problem("this ruleset has errors: " + "; ".join(e["message"] for e in checked["errors"]))
            path = self.store.design_path(text)
            source = {"design": path.stem, "title": checked["name"]}
            load = lambda: self.catalog.load_path(path, params or None, players)  # noqa: E731
        else:
            key = body.get("ruleset")
            if not isinstance(key, str) or key not in self.catalog.files:
                raise Problem("choose a ruleset from the list")
            source = {"ruleset": key}
            load = lambda: self.catalog.load(key, params or None, players)  # noqa: E731

        def build():
            game = load()
            return Table.create(game, source, seats, seed, pace, actions)
        try:
            table, tokens = await asyncio.to_thread(build)
        except RulebookError as exc:
            raise Problem(self.without_paths(str(exc))) from None
        live = self.live.setdefault(table.id, LiveTable(table))
        async with live.lock:
            await self.save(table)
        self.kick_bots(live)
        seats_out = [{"seat": s, "name": table.game.player_names[s], "spec": spec,
                      "link": f"/table/{table.id}#seat={tokens[s]}" if s in tokens else None}
                     for s, spec in enumerate(seats)]
        return {"id": table.id, "game": table.game.name, "seats": seats_out, "spectator": f"/table/{table.id}"}

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

    async def changed(self, live: LiveTable) -> None:
        """Save the record, send every connection its message, let bots move (under the table's
        lock: the save is always the state broadcast)."""
        table = live.table
        await self.save(table)
        await self.broadcast(live)
        self.kick_bots(live)

    async def broadcast(self, live: LiveTable) -> None:
        messages = {}
        for websocket, seat in list(live.connections):
            if seat not in messages:
                messages[seat] = live.table.message(seat)
            try:
                await websocket.send_json(messages[seat])
            except Exception:  # a closed connection; its handler removes it
                pass

    def kick_bots(self, live: LiveTable) -> None:
        if live.bot_task is None or live.bot_task.done():
            if live.table.bot_to_move() is not None and not live.table.error:
                live.bot_task = asyncio.get_running_loop().create_task(self.run_bots(live))
                live.bot_task.add_done_callback(lambda _: self.unload_if_idle(live))  # a finished game of bots

    async def run_bots(self, live: LiveTable) -> None:
        table = live.table
        while True:
            await asyncio.sleep(table.record["pace"])
            async with live.lock:
                seat = table.bot_to_move()
                if seat is None or table.error:
                    return
                if not table.humans() and table.state.moves >= MAX_DECISIONS:  # as simulate cuts a game off
                    table.error = table.record["ended"] = (f"the game was cut off after {MAX_DECISIONS:,} "
                                                           "decisions (a table of bots only ends there)")
                    await self.save(table)
                    await self.broadcast(live)
                    return
                version = table.version
                try:
                    action, _ = await asyncio.to_thread(table.bot_move, seat, version)
                    moved = await asyncio.to_thread(table.apply_bot, seat, action, version)
                except RulebookError as exc:
                    table.error = f"the game stopped: {exc}"
                    moved = True
                if moved:
                    await self.save(table)
                    await self.broadcast(live)

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
                return await asyncio.to_thread(sandbox.run, function, seconds, args[0],
                                               str(self.catalog.folder), *args[1:])
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
