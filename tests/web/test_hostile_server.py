"""The web table under strangers (issue 35): the real server (uvicorn on 127.0.0.1, a saves folder of
its own), attacked at a small scale: foreign hosts and origins, damaged save files, racing seats,
hostile websocket messages, greedy bots, a never-ending table of bots, SIGTERM."""
from __future__ import annotations

import concurrent.futures
import contextlib
import json
import signal
import sys
import time

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import ROOT, RunningServer, free_port
from .helpers import create_table
from .test_table_limits import BURNING, ONE_OPTION_GAME, alive, children



@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = RunningServer(tmp_path_factory.mktemp("hostile-saves"), ROOT / "rulesets")
    yield running
    running.stop()


def socket_url(server, table_id):
    return server.url.replace("http", "ws") + f"/ws/{table_id}"


def receive(ws, kind="state", timeout=30):
    """The next message of ``kind`` (others skipped)."""
    while True:
        message = json.loads(ws.recv(timeout=timeout))
        if message["type"] == kind:
            return message


def test_a_foreign_host_is_refused(server):
    """DNS rebinding: a name that resolves to 127.0.0.1 but is not one this server serves."""
    response = httpx.get(server.url + "/api/rulesets", headers={"host": "evil.example"})
    assert response.status_code == 403 and "does not answer to the host 'evil.example'" in response.json()["error"]
    response = httpx.post(server.url + "/api/tables", headers={"host": "evil.example:80"},
                          json={"ruleset": "la-famiglia", "seats": ["human", "random"]})
    assert response.status_code == 403
    assert httpx.get(server.url + "/api/rulesets", headers={"host": f"localhost:{server.port}"}).status_code == 200
    table = create_table(server, "la-famiglia", ["human", "random"])
    with pytest.raises(Exception):
        with connect(socket_url(server, table["id"]), additional_headers={"host": "evil.example"}) as ws:
            ws.send(json.dumps({"type": "hello"}))
            ws.recv(timeout=5)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_an_allowed_host_is_served(tmp_path):
    from starlette.testclient import TestClient

    from interpreter.analysis.simulation import SIM_BOT
    from interpreter.web.app import create_app

    client = TestClient(create_app(ROOT / "rulesets", tmp_path, "127.0.0.1", ["table.example"]),
                        base_url="http://table.example")
    catalog = client.get("/api/rulesets")
    assert catalog.status_code == 200
    assert catalog.json()["simulate_bot"] == SIM_BOT  # the designer's bots default to the command line's
    assert TestClient(client.app, base_url="http://other.example").get("/api/rulesets").status_code == 403


DAMAGES = {
    "missing-created": lambda r: r.pop("created"),
    "missing-actions": lambda r: r.pop("actions"),
    "missing-seats": lambda r: r.pop("seats"),
    "missing-params": lambda r: r.pop("params"),
    "seats-text": lambda r: r.__setitem__("seats", "human"),
    "actions-numbers": lambda r: r.__setitem__("actions", [1, 2]),
    "seed-fraction": lambda r: r.__setitem__("seed", 1.5),
    "players-huge": lambda r: r.__setitem__("players", 10 ** 6),
    "created-text": lambda r: r.__setitem__("created", "yesterday"),
    "tokens-wrong": lambda r: r.__setitem__("tokens", ["x"]),
    "design-path": lambda r: (r.pop("ruleset"), r.__setitem__("design", "../../etc/passwd")),
    "unknown-action": lambda r: r.__setitem__("actions", ["no such move"]),
}


def test_every_damaged_save_is_one_damaged_table(server):
    table = create_table(server, "la-famiglia", ["human", "random"])
    good = json.loads((server.saves / f"{table['id']}.json").read_text(encoding="utf-8"))
    ids = {}
    for n, (kind, damage) in enumerate(DAMAGES.items()):
        record = json.loads(json.dumps(good))
        record["id"] = f"damaged{n:03d}x"
        damage(record)
        (server.saves / f"{record['id']}.json").write_text(json.dumps(record), encoding="utf-8")
        ids[record["id"]] = kind
    for n, text in enumerate([b'{"format": "rulebook-table/1", "id": "cut', b"\xff\xfe", b"[" * 100_000, b"7"]):
        (server.saves / f"rawdamage{n}.json").write_bytes(text)
        ids[f"rawdamage{n}"] = "raw"
    listing = httpx.get(server.url + "/api/tables", timeout=30)
    assert listing.status_code == 200
    listed = {entry["id"]: entry for entry in listing.json()["tables"]}
    for table_id, kind in ids.items():
        if kind == "unknown-action":  # a record of the right shape: it fails when resumed
            assert "damaged" not in listed[table_id]
        else:
            assert "damaged" in listed[table_id], (kind, listed[table_id])
        with connect(socket_url(server, table_id)) as ws:
            ws.send(json.dumps({"type": "hello"}))
            refused = receive(ws, "refused")
        assert "damaged" in refused["message"] or "cannot be resumed" in refused["message"], (kind, refused)
        assert str(server.saves) not in refused["message"]
    assert listed[table["id"]]["moves"] >= 0  # the good table is listed as before


def test_a_cut_design_file_is_written_again(server):
    source = (ROOT / "tests" / "broken" / "_minimal.yaml").read_text(encoding="utf-8")
    first = create_table(server, seats=["human", "random"], source=source)
    design = next((server.saves / "designs").glob("*.yaml"))
    design.write_text(source[:100], encoding="utf-8")
    server.app.state.server.live.clear()  # as after a restart
    with connect(socket_url(server, first["id"])) as ws:
        ws.send(json.dumps({"type": "hello"}))
        assert "damaged" in receive(ws, "refused")["message"]
    create_table(server, seats=["human", "random"], source=source)
    assert design.read_text(encoding="utf-8") == source


def test_racing_seats_always_save_the_broadcast_state(server):
    """Two seats send a command at the same moment, many times: the save file is always the table
    that was broadcast last."""
    race(server, 25)


@pytest.mark.slow
def test_racing_seats_a_thousand_times(server):
    race(server, 1000)


def race(server, races_wanted: int) -> None:
    table = create_table(server, seats=["human", "human"], source=NEVER_ENDING)
    tokens = [seat["link"].split("#seat=")[1] for seat in table["seats"]]
    path = server.saves / f"{table['id']}.json"
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(socket_url(server, table["id"]))) for _ in tokens]
        last, races = None, 0
        for ws, token in zip(sockets, tokens):
            ws.send(json.dumps({"type": "hello", "token": token}))
            last = receive(ws)
        for race in range(races_wanted):
            if last["over"]:
                break
            for seat, ws in enumerate(sockets):  # the seat on turn picks, the other changes the pace
                command = {"type": "pick", "index": 0} if seat == last["turn"] else \
                    {"type": "pace", "seconds": (race % 10) / 10}
                ws.send(json.dumps(command))
            for ws in sockets:  # both commands broadcast (or one is refused with a notice): the last state
                last = receive(ws)
                while True:
                    try:
                        message = json.loads(ws.recv(timeout=0.2))
                    except TimeoutError:
                        break
                    if message["type"] == "state":
                        last = message
            saved = json.loads(path.read_text(encoding="utf-8"))
            assert len(saved["actions"]) == last["moves"] and saved["pace"] == last["pace"], race
            races += 1
    assert races == races_wanted
    assert not list(server.saves.glob(".*.tmp"))


def test_hostile_messages_get_a_notice_and_the_connection_lives(server):
    table = create_table(server, "la-famiglia", ["human", "random"])
    with connect(socket_url(server, table["id"]), max_size=None) as ws:
        ws.send(json.dumps({"type": "hello"}))
        receive(ws)
        ws.send(b"\x00\x01binary")
        assert "not binary" in receive(ws, "notice")["message"]
        ws.send("[" * 100_000)
        notice = receive(ws, "notice")["message"]
        assert "at most 64 kB" in notice or "nested" in notice
        ws.send("[" * 1000 + "]" * 1000)
        assert "nested at most" in receive(ws, "notice")["message"]
        for _ in range(120):
            ws.send(json.dumps({"type": "travel", "move": 0}))
        notices = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any("a second" in n for n in notices):
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "notice":
                notices.append(message["message"])
        assert any("messages a second" in n for n in notices), notices


@pytest.mark.parametrize("spec, message", [("mcts:seconds=100", "seconds is at most 5"),
                                           ("mcts:iterations=10000000", "iterations is at most 20,000"),
                                           ("flat:budget=10000000", "budget is at most 2,000"),
                                           ("flat:seconds=100", "seconds is at most 5"),
                                           ("focus:seconds=100", "seconds is at most 5"),
                                           ("focus:budget=10000000", "budget is at most 20,000"),
                                           ("ismcts:iterations=10000000", "iterations is at most 5,000"),
                                           ("ismcts:rounds=100000", "rounds is at most 50")])
def test_greedy_bots_are_refused(server, spec, message):
    response = httpx.post(server.url + "/api/tables", json={"ruleset": "la-famiglia", "seats": ["human", spec]})
    assert response.status_code == 400 and message in response.json()["error"]


NEVER_ENDING = ONE_OPTION_GAME.format(name="Never ending", option="up", effects="                - active.score += 1")


def test_a_never_ending_table_of_bots_is_cut_off(server, monkeypatch):
    from interpreter.web import server as server_module

    monkeypatch.setattr(server_module, "MAX_DECISIONS", 12)
    table = create_table(server, seats=["random", "random"], pace=0, source=NEVER_ENDING)
    path = server.saves / f"{table['id']}.json"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        saved = json.loads(path.read_text(encoding="utf-8"))
        if "ended" in saved:
            break
        time.sleep(0.1)
    assert "cut off after 12 decisions" in saved.get("ended", ""), (len(saved["actions"]), saved.get("ended"))
    assert 12 <= len(saved["actions"]) <= 13
    listed = {t["id"]: t for t in httpx.get(server.url + "/api/tables").json()["tables"]}
    assert "cut off" in listed[table["id"]]["ended"]


def test_sigterm_stops_the_server_quickly_with_every_table_saved(tmp_path):
    """Even with a table whose process burns CPU; and no table's process outlives the server."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from soak import start_server

    port = free_port()
    process = start_server(port, tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        created = [httpx.post(url + "/api/tables", timeout=30, json={
            "ruleset": "la-famiglia", "seats": ["random", "random"], "pace": 0}).json()["id"] for _ in range(3)]
        burning = httpx.post(url + "/api/tables", timeout=60, json={"seats": ["human", "human"], "source": BURNING})
        with connect(f"ws://127.0.0.1:{port}/ws/{created[0]}") as keep, \
                connect(f"ws://127.0.0.1:{port}/ws/{burning.json()['id']}") as burn:
            keep.send(json.dumps({"type": "hello"}))  # an open connection does not hold it up
            burn.send(json.dumps({"type": "hello", "token": burning.json()["seats"][0]["link"].split("#seat=")[1]}))
            choices = receive(burn)["choices"]  # nor a table whose process burns CPU
            burn.send(json.dumps({"type": "pick", "index": next(c["i"] for c in choices if c["label"] == "burn")}))
            time.sleep(0.5)
            table_processes = children(process.pid)
            start = time.monotonic()
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=10)
            assert time.monotonic() - start < 5
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(alive(pid) for pid in table_processes):
        time.sleep(0.1)
    assert table_processes and not [pid for pid in table_processes if alive(pid)], "a table's process outlived the server"
    for table_id in created:
        record = json.loads((tmp_path / f"{table_id}.json").read_text(encoding="utf-8"))
        assert record["actions"], table_id


def test_a_table_keeps_states_at_intervals_and_recomputes_the_others():
    import random

    from interpreter import load_game
    from interpreter.web.history import StateHistory

    game = load_game("la-famiglia")
    state = game.new_initial_state(4)
    every, history = [state], StateHistory(state, every=5)
    rng = random.Random(4)
    while not state.is_terminal() and len(every) < 40:
        action = rng.choice(state.legal_actions())
        state = state.clone()
        state.apply_action(action)
        every.append(state)
        history.append(str(action), state)
    assert len(history) == len(every) and len(history.kept) <= len(every) // 5 + 1
    assert [history[i].to_json() for i in range(len(every))] == [s.to_json() for s in every]
    assert [s.to_json() for s in history] == [s.to_json() for s in every]
    assert history[-1] is every[-1]


def test_designer_checks_never_wait_behind_simulations_and_each_address_has_a_fair_share(tmp_path, monkeypatch):
    """Simulations of one address fill its share; one more request of it is refused at once; a
    check from another address runs while the simulations still hold their slot."""
    import asyncio
    import threading

    from interpreter.web import server as server_module

    release = threading.Event()

    def sandboxed(function, seconds, text, folder, *args):
        if function == "simulate":
            release.wait(10)
        return {"ok": True, "function": function}

    monkeypatch.setattr(server_module.sandbox, "run", sandboxed)
    server = server_module.Server(ROOT / "rulesets", tmp_path)

    async def scenario():
        simulations = [asyncio.create_task(server.design("simulate", 1, "a", "text"))
                       for _ in range(server_module.MAX_DESIGN_PER_CLIENT)]
        await asyncio.sleep(0.1)
        with pytest.raises(server_module.Problem) as refused:
            await server.design("check", 1, "a", "text")
        checked = await asyncio.wait_for(server.design("check", 1, "b", "text"), 5)
        release.set()
        return refused.value, checked, await asyncio.gather(*simulations)

    # in a thread of its own: the browser tests' Playwright may hold an event loop in this one
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        refused, checked, simulated = pool.submit(asyncio.run, scenario()).result()
    assert refused.status == 429 and "at a time" in refused.message
    assert checked == {"ok": True, "function": "check"}
    assert simulated == [{"ok": True, "function": "simulate"}] * server_module.MAX_DESIGN_PER_CLIENT
    assert server.design_by_client == {} and server.design_waiting == {"check": 0, "simulate": 0}


def test_the_lobby_lists_a_damaged_table_with_its_reason(server, context):
    (server.saves / "lobbydamage1.json").write_text('{"format": "rulebook-table/1"}', encoding="utf-8")
    page = context().new_page()
    page.goto(server.url + "/")
    item = page.locator("#tables li", has_text="lobbydamage1")
    item.wait_for(timeout=30_000)
    assert "damaged: the save file is damaged" in item.inner_text()


def test_no_answer_names_a_folder_of_the_server(server):
    source = (ROOT / "tests" / "broken" / "_minimal.yaml").read_text(encoding="utf-8")
    table = create_table(server, seats=["human", "random"], source=source)
    token = table["seats"][0]["link"].split("#seat=")[1]
    record = httpx.post(server.url + f"/api/tables/{table['id']}/record", json={"token": token}, timeout=30)
    assert record.status_code == 200 and "/" not in record.json()["ruleset"]
    broken = httpx.post(server.url + "/api/tables", timeout=60, json={
        "seats": ["human", "random"], "source": source.replace("score: 0", "score: nope()")})
    assert broken.status_code == 400
    for answer in (record.text, broken.text):
        assert str(server.saves) not in answer and str(ROOT) not in answer
