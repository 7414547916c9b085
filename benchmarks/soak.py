"""Soak the web table: tables of bots, people playing, spectators; latency percentiles and RSS over time.

Starts ``rulebook serve`` on a free 127.0.0.1 port with a fresh saves folder, then for ``--seconds``:
``--bot-tables`` tables of two random bots (pace ``--pace``), ``--people`` tables of one person
(a client that picks the first choice 0.1 s after it is its turn) against a random bot, and
``--spectators`` websockets watching the bot tables; twice a second the lobby's list of rulesets and
a new table are timed (by a process of its own: the clients' threads never hold it up).  With ``--attack``, 7 strangers (in a process of their own) keep a design
table burning CPU and one keeps one allocating.  Prints the server's RSS (and the PSS of the server
with its table processes) every ``--every`` seconds, then the move-to-state latency of the people
and the times of the lobby and of new tables (p50/p90/p99/max), errors, why the attacking tables
were stopped, and the memory after the tables are left::

    nice -n 10 python benchmarks/soak.py --seconds 60

Not a test (no figure is asserted); docs/web.md quotes its figures with the command.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
THINK = 0.1  # seconds a person takes to pick (the server allows 20 messages a second)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, saves) -> subprocess.Popen:
    """``rulebook serve`` on 127.0.0.1:``port`` with the saves folder ``saves``, once it answers."""
    server = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "--port", str(port),
                               "--saves", str(saves)], env={**os.environ, "PYTHONPATH": str(ROOT)},
                              stdout=subprocess.DEVNULL, stderr=(Path(saves) / "server.log").open("wb"))
    for _ in range(300):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    return server


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def person(url: str, ruleset: str, stop: threading.Event, latencies: list, errors: list) -> None:
    """One person playing one table after another, first choice each time."""
    while not stop.is_set():
        try:
            table = httpx.post(url + "/api/tables", timeout=60,
                               json={"ruleset": ruleset, "seats": ["human", "random"], "pace": 0}).json()
            token = table["seats"][0]["link"].split("#seat=")[1]
            with connect(url.replace("http", "ws") + f"/ws/{table['id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": token}))
                message = json.loads(ws.recv(timeout=60))
                while not stop.is_set() and not message.get("over"):
                    if message.get("type") == "notice" and "a second" in message.get("message", ""):
                        errors.append("rate limited")  # a person clicks at most THINK apart: never expected
                    if message.get("type") == "state" and message.get("choices"):
                        time.sleep(THINK)
                        sent = time.perf_counter()
                        ws.send(json.dumps({"type": "pick", "index": 0}))
                        message = json.loads(ws.recv(timeout=60))
                        latencies.append(time.perf_counter() - sent)
                    else:
                        message = json.loads(ws.recv(timeout=60))
        except Exception as exc:  # counted, not raised: the soak goes on
            if not stop.is_set():
                errors.append(f"{type(exc).__name__}: {exc}"[:200])


def spectator(url: str, table_id: str, stop: threading.Event, errors: list) -> None:
    try:
        with connect(url.replace("http", "ws") + f"/ws/{table_id}") as ws:
            ws.send(json.dumps({"type": "hello"}))
            while not stop.is_set():
                try:
                    ws.recv(timeout=1)
                except TimeoutError:
                    pass
    except Exception as exc:
        if not stop.is_set():
            errors.append(f"spectator: {type(exc).__name__}: {exc}"[:200])


def attacker(url: str, source: str, option: str, stop: threading.Event, stopped: list, errors: list) -> None:
    """A stranger who posts ``source`` as a table against a random bot and picks ``option`` (a burn,
    an allocation) at each turn: each table must be stopped and told at the table; then another."""
    while not stop.is_set():
        try:
            response = httpx.post(url + "/api/tables", timeout=60,
                                  json={"seats": ["human", "random"], "source": source, "pace": 0})
            if response.status_code in (429, 503):  # the designer's fair share of one address: wait
                stop.wait(1)
                continue
            table = response.json()
            with connect(url.replace("http", "ws") + f"/ws/{table['id']}") as ws:
                ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["link"].split("#seat=")[1]}))
                while not stop.is_set():
                    try:
                        message = json.loads(ws.recv(timeout=1))
                    except TimeoutError:
                        continue
                    if message.get("error"):
                        stopped.append(message["error"])
                        break
                    if message.get("choices"):
                        index = next(c["i"] for c in message["choices"] if c["label"] == option)
                        ws.send(json.dumps({"type": "pick", "index": index}))
        except Exception as exc:
            if not stop.is_set():
                errors.append(f"attacker: {type(exc).__name__}: {exc}"[:200])


def attack(url: str, stop, results) -> None:
    """Seven strangers burning CPU and one allocating (tests/web/test_table_limits.py), in a process
    of their own (their large messages never slow the clients that are timed); at ``stop``, what
    their tables were stopped for and their errors go to ``results``."""
    sys.path.insert(0, str(ROOT))
    from tests.web.test_table_limits import ALLOCATING, BURNING
    done, stopped, errors = threading.Event(), [], []
    threads = [threading.Thread(target=attacker, args=(url, source, option, done, stopped, errors))
               for source, option in [(BURNING, "burn")] * 7 + [(ALLOCATING, "grow")]]
    for thread in threads:
        thread.start()
    stop.wait()
    done.set()
    for thread in threads:
        thread.join(70)
    results.put((stopped, errors))


def prober(url: str, ruleset: str, stop, results) -> None:
    """Twice a second: the lobby's list of rulesets, and a new table (timed, answer to the client),
    in a process of its own (the threads of the other clients never hold it up); at ``stop``, the
    timings and errors go to ``results``."""
    timings, errors = {"GET /api/rulesets": [], "POST /api/tables": []}, []
    # One client, its connection kept, as a browser does (a new httpx client per request costs the
    # client itself ~80 ms on a busy machine, making its SSL context: that is not the server's time).
    client = httpx.Client(timeout=60)
    while not stop.is_set():
        for name, call in (("GET /api/rulesets", lambda: client.get(url + "/api/rulesets")),
                           ("POST /api/tables", lambda: client.post(url + "/api/tables", json={
                               "ruleset": ruleset, "seats": ["human", "random"], "pace": 0}))):
            sent = time.perf_counter()
            try:
                response = call()
                if response.status_code != 200:
                    errors.append(f"{name}: {response.status_code}")
            except httpx.HTTPError as exc:
                errors.append(f"{name}: {type(exc).__name__}")
            timings[name].append(time.perf_counter() - sent)
        stop.wait(0.5)
    client.close()
    results.put((timings, errors))


def tree_pss_mb(pid: int) -> float:
    """The proportional memory (PSS) of ``pid`` and every process below it (the table processes and
    their server of forks): shared pages counted once in all."""
    children: dict = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        todo += children.get(current, [])
        try:
            for line in Path(f"/proc/{current}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def percentile(values: list, p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--bot-tables", type=int, default=30)
    parser.add_argument("--people", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--every", type=float, default=10)
    parser.add_argument("--ruleset", default="la-famiglia")
    parser.add_argument("--attack", action="store_true",
                        help="meanwhile 7 strangers keep a table burning CPU and one keeps a table allocating "
                             "(tests/web/test_table_limits.py)")
    args = parser.parse_args(argv)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as saves:
        server = start_server(port, saves)
        try:
            print(f"server up, RSS {rss_mb(server.pid):.0f} MB", flush=True)
            stop, errors, latencies, threads = threading.Event(), [], [], []
            bot_ids = []
            for _ in range(args.bot_tables):
                response = httpx.post(url + "/api/tables", timeout=60,
                                      json={"ruleset": args.ruleset, "seats": ["random", "random"], "pace": args.pace})
                if response.status_code == 200:
                    bot_ids.append(response.json()["id"])
                else:
                    errors.append(f"bot table: {response.status_code} {response.text[:100]}")
            for i in range(args.people):
                threads.append(threading.Thread(target=person, args=(url, args.ruleset, stop, latencies, errors)))
            for i in range(args.spectators if bot_ids else 0):
                threads.append(threading.Thread(target=spectator, args=(url, bot_ids[i % len(bot_ids)], stop, errors)))
            stopped: list = []
            forks = multiprocessing.get_context("fork")
            probe_stop, probe_results = forks.Event(), forks.Queue()
            probing = forks.Process(target=prober, args=(url, args.ruleset, probe_stop, probe_results))
            probing.start()
            if args.attack:
                attack_stop, attack_results = forks.Event(), forks.Queue()
                attackers = forks.Process(target=attack, args=(url, attack_stop, attack_results))
                attackers.start()
            for thread in threads:
                thread.start()
            start = time.monotonic()
            while time.monotonic() - start < args.seconds:
                time.sleep(min(args.every, args.seconds - (time.monotonic() - start)))
                print(f"{time.monotonic() - start:5.0f} s: server RSS {rss_mb(server.pid):.0f} MB, with its "
                      f"table processes PSS {tree_pss_mb(server.pid):.0f} MB; {len(latencies)} moves, "
                      f"p99 {percentile(latencies, 99) * 1000:.0f} ms, {len(errors)} errors"
                      + (", strangers attacking" if args.attack else ""), flush=True)
            stop.set()
            probe_stop.set()
            timings, probe_errors = probe_results.get(timeout=120)
            probing.join(10)
            errors += probe_errors
            for thread in threads:
                thread.join(70)
            if args.attack:
                attack_stop.set()
                stopped, attack_errors = attack_results.get(timeout=120)
                attackers.join(10)
                errors += attack_errors
            time.sleep(2)
            print(f"after the people and spectators left: server RSS {rss_mb(server.pid):.0f} MB, "
                  f"with its table processes PSS {tree_pss_mb(server.pid):.0f} MB")
            print(f"move-to-state latency over {len(latencies)} moves: p50 {percentile(latencies, 50) * 1000:.0f} ms, "
                  f"p90 {percentile(latencies, 90) * 1000:.0f} ms, p99 {percentile(latencies, 99) * 1000:.0f} ms, "
                  f"max {max(latencies, default=float('nan')) * 1000:.0f} ms; errors: {len(errors)}")
            for name, values in timings.items():
                if values:
                    print(f"{name} over {len(values)} requests: p50 {percentile(values, 50) * 1000:.0f} ms, "
                          f"p90 {percentile(values, 90) * 1000:.0f} ms, p99 {percentile(values, 99) * 1000:.0f} ms, "
                          f"max {max(values) * 1000:.0f} ms")
            for reason, count in sorted(Counter(stopped).items()):
                print(f"  {count} attacking tables: {reason}")
            for error in sorted(set(errors))[:5]:
                print("  ", error)
        finally:
            server.terminate()
            server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
