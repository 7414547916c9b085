"""The web table as one ASGI application (Starlette): lobby, tables over websockets, designer page.

The server is the only authority: a browser sends indexes of choices and small commands, never
states or actions; each connection is sent only its seat's messages (:meth:`Table.message`).  Seat
tokens travel in the first websocket message (never in a URL the server sees, so never in a log).
Engine work runs in worker threads, posted rulesets in a killed-on-timeout child process.

What strangers may send is bounded (:mod:`.limits`): hosts and origins, bot specs, websocket
messages (size, depth, rate, text only), live tables and connections per address; a damaged save
file makes its one table "damaged" (:class:`~.tables.DamagedRecord`).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from dsl.errors import RulebookError
from rulebook_data import package_folder

from ..analysis.match_log import check_log
from ..bots import BOTS, MAX_DECISIONS
from . import limits, sandbox, sockets
from .limits import Problem
from .catalog import Catalog
from .tables import HUMAN, DamagedRecord, Table, TableStore

STATIC = package_folder(__package__) / "static"
MAX_BODY = sandbox.MAX_SOURCE + 20_000
DESIGN_SECONDS = 10.0  # time limit of a check of a posted ruleset
SIMULATE_SECONDS = 30.0
MAX_LIVE = 200  # tables in memory at once (idle ones are unloaded first)
MAX_BOT_TABLES = 40  # tables of bots only playing at once
MAX_CONNECTIONS = 128  # websockets from one address at once
MAX_DESIGN_QUEUE = 8  # checks (or simulations) of posted rulesets waiting at once
MAX_DESIGN_PER_CLIENT = 4  # checks and simulations of one address under way or waiting (a page reloaded mid-check)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'")
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"


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
        _check_bots(seats)
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
            await asyncio.to_thread(self.store.save, json.loads(json.dumps(table.record)))
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
        await asyncio.to_thread(self.store.save, json.loads(json.dumps(table.record)))
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
                    await asyncio.to_thread(self.store.save, json.loads(json.dumps(table.record)))
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
                    await asyncio.to_thread(self.store.save, json.loads(json.dumps(table.record)))
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


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


async def _json_body(request: Request) -> dict:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":  # Origin: _with_headers
        raise Problem("send JSON from this server's pages", 415)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Problem("the request is too large", 413)
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise Problem("the request is not JSON") from None
    if not isinstance(data, dict):
        raise Problem("the request is not a JSON object")
    return data


def create_app(rulesets_dir, saves_dir, host: str = "127.0.0.1", allow_hosts=()) -> Starlette:
    """The app serving ``rulesets_dir``, saving tables in ``saves_dir``; it answers to requests for
    127.0.0.1, localhost, ``host`` and ``allow_hosts`` only (a DNS-rebound name is refused)."""
    server = Server(rulesets_dir, saves_dir, limits.allowed_hosts(host, allow_hosts))

    def page(name):
        async def endpoint(request):
            return FileResponse(STATIC / name, media_type="text/html")
        return endpoint

    async def rulesets(request):
        entries = await asyncio.to_thread(server.catalog.entries)
        bots = [{"name": name, "description": cls.description, "options": {k: v for k, v in cls.options.items()}}
                for name, cls in sorted(BOTS.items())]
        return JSONResponse({"rulesets": entries, "bots": bots})

    async def ruleset_details(request):
        key = request.query_params.get("key", "")
        if key not in server.catalog.files:
            raise Problem("no such ruleset", 404)
        return JSONResponse(await asyncio.to_thread(server.catalog.details, key))

    async def ruleset_source(request):
        key = request.query_params.get("key", "")
        if key not in server.catalog.files:
            raise Problem("no such ruleset", 404)
        return JSONResponse({"key": key, "text": server.catalog.files[key].read_text(encoding="utf-8")})

    async def tables(request):
        if request.method == "POST":
            return JSONResponse(await server.create(await _json_body(request), _client(request)))
        return JSONResponse({"tables": await asyncio.to_thread(_table_list, server.store)})

    async def table_record(request):
        """The table's game record (the `rulebook play --log` format) as a file to save."""
        live = await server.table(request.path_params["table_id"])
        token = (await _json_body(request)).get("token") if request.method == "POST" else None
        try:
            seat = live.table.seat_of_token(token)
            async with live.lock:
                record = await asyncio.to_thread(live.table.game_record, seat)
        except PermissionError as exc:
            raise Problem(str(exc), 403) from None
        name = re.sub(r"[^a-z0-9]+", "-", live.table.game.name.lower()).strip("-") or "game"
        return JSONResponse(record, headers={
            "content-disposition": f'attachment; filename="{name}-{live.table.id}.json"'})

    async def designer_check(request):
        body = await _json_body(request)
        text, params, players = _design_input(body)
        return JSONResponse(await server.design("check", DESIGN_SECONDS, _client(request), text, params, players))

    async def designer_simulate(request):
        body = await _json_body(request)
        text, params, players = _design_input(body)
        games = body.get("games", 40)
        if not isinstance(games, int) or not 1 <= games <= 500:
            raise Problem("games: 1 to 500")
        seats = body.get("seats") or []
        if not isinstance(seats, list) or not all(isinstance(s, str) and s != HUMAN for s in seats):
            raise Problem("seats: bot specs")
        first = body.get("first", 0)  # the designer runs a long simulation as parts: games first, first + 1, …
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first <= 100_000:
            raise Problem("first: a game number from 0 to 100000")
        _check_bots(seats)
        result = await server.design("simulate", SIMULATE_SECONDS, _client(request), text, params, players, seats,
                                     games, first)
        report = result.pop("report", None)
        if report is not None:
            report_id = secrets.token_urlsafe(9)
            server.reports[report_id] = report
            while len(server.reports) > 20:
                server.reports.pop(next(iter(server.reports)))
            result["report"] = f"/designer/report/{report_id}"
        return JSONResponse(result)

    async def designer_report(request):
        report = server.reports.get(request.path_params["report_id"])
        if report is None:
            raise Problem("no such report", 404)
        return HTMLResponse(report, headers={"Content-Security-Policy": REPORT_CSP})

    async def table_socket(websocket: WebSocket):
        address = websocket.client.host if websocket.client else ""
        await websocket.accept()
        if server.connections.get(address, 0) >= MAX_CONNECTIONS:
            await websocket.send_json({"type": "refused", "message": f"at most {MAX_CONNECTIONS} connections "
                                                                      "from one address"})
            await websocket.close()
            return
        server.connections[address] = server.connections.get(address, 0) + 1
        rate = limits.RateLimit()
        try:
            await sockets.serve(server, websocket, rate)
        finally:
            server.connections[address] -= 1
            if not server.connections[address]:
                del server.connections[address]

    async def problem(request, exc: Problem):
        return JSONResponse({"error": server.without_paths(exc.message)}, status_code=exc.status)

    async def favicon(request):
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    routes = [Route("/", page("lobby.html")), Route("/favicon.ico", favicon), Route("/table/{table_id}", page("table.html")),
              Route("/designer", page("designer.html")),
              Route("/api/rulesets", rulesets), Route("/api/source", ruleset_source),
              Route("/api/ruleset", ruleset_details),
              Route("/api/tables", tables, methods=["GET", "POST"]),
              Route("/api/tables/{table_id}/record", table_record, methods=["GET", "POST"]),
              Route("/api/designer/check", designer_check, methods=["POST"]),
              Route("/api/designer/simulate", designer_simulate, methods=["POST"]),
              Route("/designer/report/{report_id}", designer_report),
              WebSocketRoute("/ws/{table_id}", table_socket),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        for live in list(server.live.values()):  # on shutdown: every live table written once more
            if live.bot_task is not None:
                live.bot_task.cancel()
            with contextlib.suppress(OSError):
                server.store.save(json.loads(json.dumps(live.table.record)))

    app = Starlette(routes=routes, exception_handlers={Problem: problem}, lifespan=lifespan)
    app.state.server = server
    return _with_headers(app, server)


def _design_input(body: dict) -> tuple:
    text = body.get("text")
    if not isinstance(text, str):
        raise Problem("text: the ruleset as YAML")
    if len(text) > sandbox.MAX_SOURCE:
        raise Problem(f"this ruleset is longer than {sandbox.MAX_SOURCE} characters", 413)
    params = body.get("params") or {}
    if not isinstance(params, dict):
        raise Problem("params: name: value")
    players = body.get("players")
    if players is not None and (not isinstance(players, int) or not 1 <= players <= 64):
        raise Problem("players must be a whole number")
    return text, {str(k): str(v) for k, v in params.items()}, players


async def _refuse(scope, receive, send, reason: str) -> None:
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})
        return
    await JSONResponse({"error": reason}, status_code=403)(scope, receive, send)


def _check_bots(seats: list) -> None:
    for spec in seats:
        if spec != HUMAN:
            problem = limits.check_bot_spec(spec)
            if problem is not None:
                raise Problem(problem)


def _table_list(store: TableStore) -> list:
    """The last 100 tables, newest first; a damaged one listed with its reason."""
    out = []
    for table_id in store.ids()[-100:]:
        try:
            record = store.load(table_id)
        except KeyError:
            continue
        except DamagedRecord as exc:
            out.append({"id": table_id, "damaged": exc.reason, "created": 0})
            continue
        out.append({"id": table_id, "game": record.get("title") or record.get("ruleset"),
                    "seats": record["seats"], "moves": len(record["actions"]), "created": record["created"],
                    "ended": record.get("ended")})
    out.sort(key=lambda r: -r["created"])
    return out


def _with_headers(app, server: Server):
    """Requests for other hosts or from other sites refused; security headers on every HTTP response."""
    async def wrapped(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            reason = limits.foreign(headers, server.hosts)
            if reason is not None:
                return await _refuse(scope, receive, send, reason)
        if scope["type"] != "http":
            return await app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != b"content-security-policy"]
                csp = dict(message.get("headers", [])).get(b"content-security-policy", CSP.encode())
                headers += [(b"content-security-policy", csp), (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"SAMEORIGIN")]
                message = {**message, "headers": headers}
            await send(message)
        await app(scope, receive, send_with_headers)
    wrapped.state = app.state
    return wrapped
