"""A table's websocket: the hello with the seat's token, then the seat's commands, each message
bounded (:mod:`.limits`); every change saved and broadcast under the table's lock."""
from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket, WebSocketDisconnect

from dsl.errors import RulebookError

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
    try:
        hello = await _receive(websocket, rate)
        live = await server.table(str(websocket.path_params["table_id"]))
        seat = live.table.seat_of_token(hello.get("token") if isinstance(hello, dict) else None)
    except (Problem, PermissionError, ValueError) as exc:
        await websocket.send_json({"type": "refused", "message": server.without_paths(getattr(exc, "message", str(exc)))})
        await websocket.close()
        return
    except WebSocketDisconnect:
        return
    entry = (websocket, seat)
    live.connections.append(entry)
    try:
        await websocket.send_json(live.table.message(seat))
        while True:
            try:
                command = await _receive(websocket, rate)
            except ValueError as exc:
                await websocket.send_json({"type": "notice", "message": f"refused: {exc}"})
                continue
            await _command(server, live, seat, websocket, command)
    except WebSocketDisconnect:
        pass
    except RuntimeError:
        await websocket.close()
    finally:
        if entry in live.connections:
            live.connections.remove(entry)
        server.unload_if_idle(live)


async def _command(server, live, seat, websocket, command) -> None:
    """One command from a connection; a seat's commands need its seat (a spectator only reads)."""
    if not isinstance(command, dict):
        return
    kind = command.get("type")
    table = live.table
    if kind == "travel":
        try:
            await websocket.send_json(table.travel(command.get("move"), command.get("seat")))
        except RulebookError as exc:
            await websocket.send_json({"type": "notice", "message": exc.message})
        return
    if seat is None:
        await websocket.send_json({"type": "notice", "message": "spectators cannot act"})
        return
    async with live.lock:
        try:
            if kind == "pick":
                await asyncio.to_thread(table.pick, seat, command.get("index"))
            elif kind == "back":
                table.back(seat)
            elif kind == "undo":
                await asyncio.to_thread(table.request_undo, seat)
            elif kind == "undo_answer":
                await asyncio.to_thread(table.answer_undo, seat, bool(command.get("agree")))
            elif kind == "pace":
                table.record["pace"] = limits.pace(command.get("seconds"))
                table.version += 1
            else:
                return
        except Problem as exc:
            await websocket.send_json({"type": "notice", "message": exc.message})
            return
        except RulebookError as exc:
            if exc.stage != "illegal action":
                table.error = f"the game stopped: {exc}"
            else:
                await websocket.send_json({"type": "notice", "message": exc.message})
                return
        await server.changed(live)
