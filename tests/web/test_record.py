"""The table's game record: the format of `rulebook play --log`, saved from the page, resumed at the
terminal and shown by `rulebook replay --show`; given only to whom it may be given."""
from __future__ import annotations

import io
import json
import random
import sys
import time

import httpx

from interpreter.cli import main

from .helpers import create_table, live_table, play_one_choice, wait_ready


def _cli(capsys, monkeypatch, stdin, *argv) -> tuple:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    return code, capsys.readouterr().out


def test_a_saved_record_resumes_at_the_terminal_and_replays(web_server, context, tmp_path, capsys, monkeypatch):
    table = create_table(web_server, "gangster", ["human", "random"], players=2)
    page = context().new_page()
    page.goto(web_server.url + table["seats"][0]["link"])
    rng = random.Random(4)
    for _ in range(3):
        wait_ready(page)
        play_one_choice(page, rng)
    wait_ready(page)
    live = live_table(web_server, table["id"])
    with page.expect_download() as download:
        page.click("#save-record")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name.startswith("gangster") and path.suffix == ".json"
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["format"] == "rulebook-log" and not record["finished"]
    assert [s["action"] for s in record["steps"]] == live.record["actions"]
    assert "tokens" not in record and "id" not in record  # no seat's secret link

    code, out = _cli(capsys, monkeypatch, "", "replay", path)  # every step reproduces
    assert code == 0, out
    code, out = _cli(capsys, monkeypatch, "", "play", "gangster", "--resume", path, "--seats", "random,random",
                     "--log", tmp_path / "finished.json")
    assert code == 0 and f"Resumed after {len(record['steps'])} moves" in out
    finished = json.loads((tmp_path / "finished.json").read_text(encoding="utf-8"))
    assert finished["finished"] and finished["steps"][:len(record["steps"])] == record["steps"]
    code, out = _cli(capsys, monkeypatch, "end\nq\n", "replay", tmp_path / "finished.json", "--show")
    assert code == 0 and "Scores: " in out


def test_the_record_holds_secrets_so_only_a_lone_player_or_a_finished_game_gets_it(web_server):
    two = create_table(web_server, "la-famiglia", ["human", "human"])
    url = f"{web_server.url}/api/tables/{two['id']}/record"
    token = two["seats"][0]["link"].split("#seat=")[1]
    assert httpx.get(url).status_code == 403  # a spectator, during the game
    refused = httpx.post(url, json={"token": token})  # one of two people, during the game
    assert refused.status_code == 403 and "when the game is over" in refused.json()["error"]
    assert httpx.post(url, json={"token": "not-a-token"}).status_code == 403
    done = create_table(web_server, "la-famiglia", ["random", "random"])
    live = live_table(web_server, done["id"])
    for _ in range(600):  # the bots play in the server's thread
        if live.state.is_terminal():
            break
        time.sleep(0.1)
    response = httpx.get(f"{web_server.url}/api/tables/{done['id']}/record")
    assert response.status_code == 200 and response.json()["finished"]
    assert "attachment" in response.headers["content-disposition"]


def test_a_tables_own_save_file_is_refused_with_advice(web_server, tmp_path, capsys, monkeypatch):
    table = create_table(web_server, "la-famiglia", ["human", "random"])
    saved = web_server.saves / f"{table['id']}.json"
    for argv in (("play", "la-famiglia", "--resume", saved), ("replay", saved, "--show")):
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        code = main([str(a) for a in argv])
        err = capsys.readouterr().err
        assert code != 0 and "a web table's own save file" in err and "Save the game record" in err


def test_a_terminal_game_record_continues_at_a_new_table(web_server, context, tmp_path, capsys, monkeypatch):
    # a game begun at the terminal (play --log, stopped after a few moves) goes on in the browser
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\nr3c3\nquit\n"))
    assert main(["play", "gangster", "--players", "2", "--seed", "3", "--log", str(tmp_path / "cli.json")]) == 0
    capsys.readouterr()
    record = json.loads((tmp_path / "cli.json").read_text(encoding="utf-8"))
    page = context().new_page()
    page.goto(web_server.url + "/")
    page.wait_for_selector("#ruleset option[value='gangster']", state="attached")
    page.set_input_files("#record-file", str(tmp_path / "cli.json"))
    page.wait_for_selector("#links .seat-link")
    link = page.locator("#links .seat-link").first.get_attribute("href")
    table_id = link.split("/table/")[1].split("#")[0]
    live = live_table(web_server, table_id)
    assert live.record["actions"][:len(record["steps"])] == [s["action"] for s in record["steps"]]
    assert live.seats == ["human", "random"]
    page.goto(web_server.url + link)
    assert wait_ready(page) == "mine"
    play_one_choice(page, random.Random(1))  # and the game goes on


def test_a_record_of_other_rules_is_refused_with_the_reason(web_server, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "la-famiglia", "--seed", "3", "--log", str(tmp_path / "cli.json")]) == 0
    capsys.readouterr()
    record = json.loads((tmp_path / "cli.json").read_text(encoding="utf-8"))
    changed = dict(record, ruleset_sha256="0" * 64)
    refused = httpx.post(web_server.url + "/api/tables", json={"record": changed, "seats": record["seats"]})
    assert refused.status_code == 400 and "no ruleset that is the one of this record" in refused.json()["error"]
    damaged = dict(record, steps="nope")
    refused = httpx.post(web_server.url + "/api/tables", json={"record": damaged, "seats": record["seats"]})
    assert refused.status_code == 400 and "damaged" in refused.json()["error"]
    illegal = dict(record, steps=[{"seat": 0, "action": "fly away", "legal": "0" * 16, "state": "0" * 16}])
    refused = httpx.post(web_server.url + "/api/tables", json={"record": illegal, "seats": record["seats"]})
    assert refused.status_code == 400
