"""The web table as one ASGI application (Starlette): lobby, tables over websockets, designer page.

The server is the only authority: a browser sends indexes of choices and small commands, never
states or actions; each connection is sent only its seat's messages (:meth:`Table.message`).  Seat
tokens travel in the first websocket message (never in a URL the server sees, so never in a log).
Engine work runs in worker processes with CPU-time and memory limits per table (:mod:`.processes`:
a pool shared by the tables of the served rulesets, a process of its own for a posted ruleset's
table), designer checks of posted rulesets in a killed-on-timeout child process.

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

from rulebook_data import package_folder

from ..analysis.playing import SIM_BOT
from ..bots import BOTS
from . import limits, processes, sandbox, sockets
from .limits import Problem
from .server import DESIGN_SECONDS, Server, check_bots
from .tables import HUMAN, DamagedRecord, TableStore

STATIC = package_folder(__package__) / "static"
MAX_BODY = sandbox.MAX_SOURCE + 20_000
SIMULATE_SECONDS = 30.0
MAX_CONNECTIONS = 128  # websockets from one address at once
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'")
REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"


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


def create_app(rulesets_dir, saves_dir, host: str = "127.0.0.1", allow_hosts=(),
               work_limits: processes.WorkLimits = processes.WorkLimits()) -> Starlette:
    """The app serving ``rulesets_dir``, saving tables in ``saves_dir``; it answers to requests for
    127.0.0.1, localhost, ``host`` and ``allow_hosts`` only (a DNS-rebound name is refused); each
    table's game and bots run in worker processes within ``work_limits``."""
    server = Server(rulesets_dir, saves_dir, limits.allowed_hosts(host, allow_hosts), work_limits)

    def page(name):
        async def endpoint(request):
            return FileResponse(STATIC / name, media_type="text/html")
        return endpoint

    async def rulesets(request):
        entries = server.catalog.entries() if server.catalog.read else await asyncio.to_thread(server.catalog.entries)
        bots = [{"name": name, "description": cls.description, "options": {k: v for k, v in cls.options.items()}}
                for name, cls in sorted(BOTS.items())]
        return JSONResponse({"rulesets": entries, "bots": bots, "simulate_bot": SIM_BOT})  # the designer's default

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
            seat = live.seat_of_token(token)
        except PermissionError as exc:
            server.unload_if_idle(live)
            raise Problem(str(exc), 403) from None
        async with live.lock:
            answer = await server.call(live, "game_record", seat)
        server.unload_if_idle(live)  # opened for this record only: put away again
        if "refused" in answer:
            raise Problem(answer["refused"], 403)
        record = answer["game_record"]
        name = re.sub(r"[^a-z0-9]+", "-", record["game"].lower()).strip("-") or "game"
        return JSONResponse(record, headers={
            "content-disposition": f'attachment; filename="{name}-{live.id}.json"'})

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
        check_bots(seats)
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
        await asyncio.to_thread(processes.warm_up)  # the server of table processes, before the first table
        await asyncio.to_thread(server.catalog.entries)  # the lobby's list, read once before the first visitor
        yield
        for live in list(server.live.values()):  # on shutdown: every live table written once more
            if live.bot_task is not None:
                live.bot_task.cancel()
            with contextlib.suppress(OSError):
                server.store.save(json.loads(json.dumps(live.record)))
        server.close()

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
