"""Tables of the server's own rulesets share a pool of processes (issue 35), with their limits kept
per table: a table past its CPU time between two decisions is stopped while its neighbour in the
same process plays on; a killed shared process's tables come back from their saves.  The real
server on 127.0.0.1, one shared process, small limits."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import time

import pytest
from websockets.sync.client import connect

from interpreter.web.processes import WorkLimits

from .conftest import RunningServer
from .helpers import create_table
from .test_table_limits import BURNING, ONE_OPTION_GAME, receive, socket_url, token

CALM = ONE_OPTION_GAME.format(name="Calm", option="wait", effects="""\
                - active.score += 1""")
LIMITS = WorkLimits(decision_seconds=1, table_seconds=60, wall_seconds=30, pool=1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    rulesets = tmp_path_factory.mktemp("pool-rulesets")  # the server's own rulesets: a burning one too
    (rulesets / "calm.yaml").write_text(CALM, encoding="utf-8")
    (rulesets / "burning.yaml").write_text(BURNING, encoding="utf-8")
    running = RunningServer(tmp_path_factory.mktemp("pool-saves"), rulesets, work_limits=LIMITS)
    yield running
    running.stop()


def shared_pids(server) -> list:
    return [w.process.pid for w in server.app.state.server.pool.workers if w.alive]


def pick(ws, label: str) -> dict:
    """Seat 0 picks the option ``label``; the next state message."""
    message = receive(ws)
    while not message.get("choices"):
        message = receive(ws)
    ws.send(json.dumps({"type": "pick", "index": next(c["i"] for c in message["choices"] if c["label"] == label)}))
    return receive(ws, timeout=90)


@contextlib.contextmanager
def seat_socket(server, table, seat=0):
    with connect(socket_url(server, table["id"])) as ws:
        ws.send(json.dumps({"type": "hello", "token": token(table, seat)}))
        yield ws


def moves_saved(server, table) -> int:
    return len(json.loads((server.saves / f"{table['id']}.json").read_text(encoding="utf-8"))["actions"])


def test_a_shared_table_past_its_decision_limit_is_stopped_while_its_neighbour_plays_on(server):
    calm = create_table(server, "calm", ["human", "human"])
    burning = create_table(server, "burning", ["human", "human"])
    with seat_socket(server, calm) as calm_ws, seat_socket(server, burning) as burning_ws:
        assert pick(calm_ws, "wait")["moves"] == 1
        [pid] = shared_pids(server)  # both tables in the one shared process
        stopped = pick(burning_ws, "burn")
        assert stopped["error"] == ("this table was stopped: this ruleset used more than 1 s of computing "
                                    "between two decisions"), stopped["error"]
        with seat_socket(server, calm, 1) as neighbour:  # the calm table plays on, in the same process
            after = pick(neighbour, "wait")
        assert after["moves"] == 2 and "error" not in after
    assert shared_pids(server) == [pid]
    assert moves_saved(server, calm) == 2
    saved = json.loads((server.saves / f"{burning['id']}.json").read_text(encoding="utf-8"))
    assert saved["ended"] == stopped["error"]


def test_a_killed_shared_process_s_tables_come_back_from_their_saves(server):
    tables = [create_table(server, "calm", ["human", "human"]) for _ in range(2)]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(seat_socket(server, table)) for table in tables]
        for ws in sockets:
            assert pick(ws, "wait")["moves"] == 1
        [pid] = shared_pids(server)
        os.kill(pid, signal.SIGKILL)
        for _ in range(200):
            if pid not in shared_pids(server):
                break
            time.sleep(0.05)
        for table in tables:  # seat 1 moves: each table opened again from its save in a new process
            with seat_socket(server, table, 1) as ws:
                assert pick(ws, "wait")["moves"] == 2
        for ws in sockets:  # seat 0's connection, open all along, is sent the new state too
            message = receive(ws)
            while message["moves"] < 2:
                message = receive(ws)
            assert "error" not in message
        assert [moves_saved(server, table) for table in tables] == [2, 2]
        assert pid not in shared_pids(server) and len(shared_pids(server)) == 1


def test_a_shared_process_left_without_tables_ends(server, monkeypatch):
    pool = server.app.state.server.pool
    monkeypatch.setattr(pool, "IDLE_SECONDS", 0.5)
    table = create_table(server, "calm", ["human", "human"])  # no one at it: it leaves its process at once
    for _ in range(100):
        if not shared_pids(server):
            break
        time.sleep(0.1)
    assert shared_pids(server) == []
    with seat_socket(server, table) as ws:  # the next visitor gets a process again
        assert pick(ws, "wait")["moves"] == 1
        assert len(shared_pids(server)) == 1
