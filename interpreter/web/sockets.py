"""A table's websocket: the hello with the seat's token, then the seat's commands, each message
bounded (:mod:`.limits`); every change saved and broadcast under the table's lock."""
from __future__ import annotations

import contextlib

from starlette.websockets import WebSocket, WebSocketDisconnect

from . import limits
from .limits import Problem


async def _receive(websocket: WebSocket, rate: limits.RateLimit):
    """The next message of a connection as JSON; ValueError (with a message) for a binary, too large,
    too deep or too frequent one."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if not rate.allow():
        raise ValueError(f"at most {limits.RATE:g} messages a second")
    if message.get("text") is None:
        raise ValueError("messages are JSON text, not binary")
    return limits.parse_message(message["text"])


async def serve(server, websocket: WebSocket, rate: limits.RateLimit) -> None:
    live = None
    try:
        hello = await _receive(websocket, rate)
        live = await server.table(str(websocket.path_params["table_id"]))
        seat = live.seat_of_token(hello.get("token") if isinstance(hello, dict) else None)
    except (Problem, PermissionError, ValueError) as exc:
        if live is not None:  # opened for a wrong seat link: put away again
            server.unload_if_idle(live)
        await websocket.send_json({"type": "refused", "message": server.without_paths(getattr(exc, "message", str(exc)))})
        await websocket.close()
        return
    except WebSocketDisconnect:
        return
    entry = (websocket, seat)
    try:
        async with live.lock:  # its first message before any broadcast to it
            live.connections.append(entry)
            await websocket.send_text(live.take(await server.call(live, "messages", [seat]))[seat])
        while True:
            try:
                command = await _receive(websocket, rate)
            except ValueError as exc:
                await websocket.send_json({"type": "notice", "message": f"refused: {exc}"})
                continue
            await _command(server, live, seat, websocket, command)
    except WebSocketDisconnect:
        pass
    except Problem as exc:  # the table was stopped before its first message
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "refused", "message": exc.message})
            await websocket.close()
    except RuntimeError:
        await websocket.close()
    finally:
        if entry in live.connections:
            live.connections.remove(entry)
        server.unload_if_idle(live)


async def _command(server, live, seat, websocket, command) -> None:
    """One command from a connection; a seat's commands need its seat (a spectator only reads).
    The table's process does the work (:meth:`Server.call`), under the table's lock."""
    if not isinstance(command, dict):
        return
    kind = command.get("type")
    if kind == "travel":
        async with live.lock:
            answer = await _answer(server, live, websocket, "travel", command.get("move"), command.get("seat"))
        if answer is not None and "text" in answer:
            await websocket.send_text(answer["text"])
        return
    if seat is None:
        await websocket.send_json({"type": "notice", "message": "spectators cannot act"})
        return
    if kind not in ("pick", "back", "undo", "undo_answer", "pace"):
        return
    try:
        value = limits.pace(command.get("seconds")) if kind == "pace" else \
            command.get("index") if kind == "pick" else command.get("agree")
    except Problem as exc:
        await websocket.send_json({"type": "notice", "message": exc.message})
        return
    async with live.lock:
        if live.record.get("ended"):
            await websocket.send_json({"type": "notice", "message": live.record["ended"]})
            return
        answer = await _answer(server, live, websocket, "command", seat, kind, value, live.viewers())
        if answer is not None and "record" in answer:
            await server.changed(live, answer)


async def _answer(server, live, websocket, op: str, *args):
    """The answer of the table's process, or None after a notice to this connection (a refused
    command; a stopped table, which every connection was told of)."""
    try:
        answer = await server.call(live, op, *args)
    except Problem:
        return None
    if "notice" in answer:
        await websocket.send_json({"type": "notice", "message": answer["notice"]})
        return None
    return answer
