"""The server is the only authority, and nothing from a request reaches what it should not."""
from __future__ import annotations

import json
import httpx
import pytest
from websockets.sync.client import connect

from interpreter.web import sandbox
from interpreter.web.catalog import Catalog
from interpreter.web.tables import Table

from .conftest import ROOT
from .helpers import create_table


def socket_url(server, table_id):
    return server.url.replace("http", "ws") + f"/ws/{table_id}"


def hello(ws, token):
    ws.send(json.dumps({"type": "hello", "token": token}))
    return json.loads(ws.recv(timeout=30))


def test_pages_forbid_inline_scripts(web_server):
    for path in ("/", "/designer", "/table/abcdefghij"):
        response = httpx.get(web_server.url + path)
        policy = response.headers["content-security-policy"]
        script = next(part for part in policy.split(";") if part.strip().startswith("script-src"))
        assert "'self'" in script and "unsafe" not in script
        assert "<script>" not in response.text  # every script is a file of the package
        assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", ["/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
                                  "/static/..%2f..%2fpyproject.toml", "/api/source?key=../pyproject",
                                  "/api/source?key=/etc/passwd", "/api/ruleset?key=../../pyproject",
                                  "/table/..%2f..%2fpyproject.toml"])
def test_no_request_path_reaches_other_files(web_server, path):
    response = httpx.get(web_server.url + path)
    assert "build-system" not in response.text and "root:" not in response.text


def test_a_posted_variant_cannot_extend_a_file_outside_the_rulesets(web_server):
    text = "extends: ../../../../etc/passwd\ngame: {name: x}\n"
    result = httpx.post(web_server.url + "/api/designer/check", json={"text": text}, timeout=60).json()
    assert not result["ok"] and "root:" not in json.dumps(result)
    table = httpx.post(web_server.url + "/api/tables", json={"ruleset": "../pyproject", "seats": ["human"]})
    assert table.status_code == 400


def test_other_sites_cannot_drive_the_server(web_server):
    body = json.dumps({"ruleset": "la-famiglia", "seats": ["human", "random"]})
    plain = httpx.post(web_server.url + "/api/tables", content=body, headers={"content-type": "text/plain"})
    assert plain.status_code == 415  # a cross-site 'simple' request is refused
    foreign = httpx.post(web_server.url + "/api/tables", content=body,
                         headers={"content-type": "application/json", "origin": "http://evil.example"})
    assert foreign.status_code == 403 and "other sites" in foreign.json()["error"]
    table = create_table(web_server, "la-famiglia", ["human", "random"])
    with pytest.raises(Exception):
        with connect(socket_url(web_server, table["id"]), origin="http://evil.example") as ws:
            hello(ws, None)


def test_requests_are_size_limited(web_server):
    big = "#" * (sandbox.MAX_SOURCE + 50_000)
    response = httpx.post(web_server.url + "/api/designer/check", json={"text": big}, timeout=60)
    assert response.status_code == 413


def test_posted_work_has_a_time_limit():
    text = (ROOT / "rulesets" / "mafiadollar.yaml").read_text(encoding="utf-8")
    with pytest.raises(sandbox.SandboxTimeout):
        sandbox.run("simulate", 1.0, text, str(ROOT / "rulesets"), {}, 6, [], 500)


def test_seat_actions_need_the_seat_token(web_server):
    table = create_table(web_server, "la-famiglia", ["human", "random"])
    url = socket_url(web_server, table["id"])
    with connect(url) as ws:
        assert hello(ws, "not-the-token")["type"] == "refused"
    with connect(url) as ws:
        message = hello(ws, None)  # a spectator
        assert message["you"] is None and "choices" not in message
        ws.send(json.dumps({"type": "pick", "index": 0}))
        assert json.loads(ws.recv(timeout=30))["type"] == "notice"
    token = table["seats"][0]["link"].split("#seat=")[1]
    with connect(url) as ws:
        message = hello(ws, token)
        assert message["you"] == 0 and message["choices"]
        ws.send(json.dumps({"type": "pick", "index": 10_000}))
        assert json.loads(ws.recv(timeout=30))["type"] == "notice"
    saved = (web_server.saves / f"{table['id']}.json").read_text()
    assert token not in saved  # only its hash is kept


def test_two_people_agree_to_a_takeback():
    game = Catalog(ROOT / "rulesets").load("la-famiglia")
    table, _ = Table.create(game, {"ruleset": "la-famiglia"}, ["human", "human"], seed=4, pace=0)
    table.pick(0, len(table.message(0)["choices"]) - 1)
    moves = table.state.moves
    assert not table.request_undo(0)  # the other person must agree first
    assert table.message(1)["undo"]["by"] == 0
    assert not table.answer_undo(1, False) and table.undo_request is None
    assert table.state.moves == moves
    table.request_undo(0)
    assert table.answer_undo(1, True)
    assert table.state.moves == 0 and table.record["actions"] == []


def test_the_host_warning(monkeypatch, capsys, tmp_path):
    import uvicorn
    from interpreter.cli.main import main
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    assert main(["serve", "--host", "0.0.0.0", "--saves", str(tmp_path)]) == 0
    assert "WARNING" in capsys.readouterr().err
    assert main(["serve", "--saves", str(tmp_path)]) == 0
    assert "WARNING" not in capsys.readouterr().err


def test_serve_takes_the_limits_of_a_table(monkeypatch, capsys, tmp_path):
    import uvicorn
    from interpreter.cli.main import main
    from interpreter.web import app, processes
    made = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    monkeypatch.setattr(app, "create_app", lambda *args: made.append(args[-1]))
    assert main(["serve", "--saves", str(tmp_path), "--decision-seconds", "2.5", "--table-memory", "256",
                 "--pool", "3"]) == 0
    assert made[-1] == processes.WorkLimits(decision_seconds=2.5, memory=256 << 20, pool=3)
    assert made[-1].pool_size() == 3
    assert main(["serve", "--saves", str(tmp_path)]) == 0
    assert made[-1] == processes.WorkLimits()
    assert main(["serve", "--saves", str(tmp_path), "--table-seconds", "0"]) == 2
    assert "--table-seconds 0.0: give a number from 1 to 86400" in capsys.readouterr().err
    assert main(["serve", "--saves", str(tmp_path), "--pool", "0"]) == 2
    assert "--pool 0: give a number from 1 to 256" in capsys.readouterr().err
    assert len(made) == 2
