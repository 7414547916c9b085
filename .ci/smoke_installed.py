"""Smoke test of an installed rulebook, run from an empty folder outside the checkout (.ci/smoke_wheel.sh).

    python .ci/smoke_installed.py VENV_BIN [--core]

VENV_BIN is the bin folder of a virtual environment with the wheel installed (with the web and lsp
extras, unless --core).  Every command runs as the installed ``rulebook`` in a fresh empty folder, with
HOME and the XDG folders inside it; none may end in a traceback.  Checks: --version; every shipped
ruleset validates by name (with --core, the variants' bases only); a simulation; ``new`` then ``validate`` and ``where``; a terminal game with
piped input; with the extras, ``serve`` (the lobby page, a static file, every shipped game in
/api/rulesets, the designer's check of a variant) and ``lsp`` (diagnostics of a document).  The expected rulesets are the checkout's.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(CHECKOUT / "tests"))  # the LSP client only: it imports nothing of rulebook
from lsp_client import LspClient  # noqa: E402

SHIPPED = CHECKOUT / "rulesets"
KEYS = sorted(p.relative_to(SHIPPED).with_suffix("").as_posix() for p in SHIPPED.rglob("*.yaml"))


def main() -> int:
    bin_dir, core_only = Path(sys.argv[1]).resolve(), "--core" in sys.argv[2:]
    rulebook = str(bin_dir / "rulebook")
    with tempfile.TemporaryDirectory(prefix="rulebook-smoke-") as folder:
        home = Path(folder)
        here = home / "empty"
        here.mkdir()
        env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "HOME": str(home),
               "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
               "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
        smoke = Smoke(rulebook, here, env)
        smoke.version()
        smoke.validate_shipped(variants=not core_only)
        smoke.simulate()
        smoke.new_game()
        smoke.terminal_game()
        if not core_only:
            smoke.serve()
            smoke.lsp()
    print(f"smoke test of the installed rulebook passed ({'core' if core_only else 'core, web and lsp'})")
    return 0


class Smoke:
    def __init__(self, rulebook: str, here: Path, env: dict):
        self.rulebook, self.here, self.env = rulebook, here, env

    def run(self, *args, stdin: str = "", timeout: float = 120) -> str:
        started = time.monotonic()
        done = subprocess.run([self.rulebook, *args], cwd=self.here, env=self.env, input=stdin, text=True,
                              capture_output=True, timeout=timeout, encoding="utf-8")
        what = f"rulebook {' '.join(args)}"
        assert "Traceback" not in done.stderr + done.stdout, f"{what}: a traceback:\n{done.stderr}{done.stdout}"
        assert done.returncode == 0, f"{what}: exit {done.returncode}:\n{done.stderr}{done.stdout[-2000:]}"
        print(f"  ok  {what[:100]}  ({time.monotonic() - started:.1f} s)")
        return done.stdout

    def version(self) -> None:
        out = self.run("--version")
        assert out.startswith("rulebook ") and "unknown" not in out, out

    def validate_shipped(self, variants: bool) -> None:
        """Every shipped ruleset by name (the variants too, unless ``variants`` is False: the PyPy run,
        whose wheel is the one the CPython run checked)."""
        names = sorted({key.rsplit("/", 1)[-1] for key in KEYS if variants or not key.startswith("variants/")})
        out = self.run("validate", *names, timeout=300)
        assert out.count(": OK: ") == len(names), out

    def simulate(self) -> None:
        out = self.run("simulate", "gangster", "-n", "3", "--seats", "random,random", "--json")
        assert json.loads(out)["games"] == 3, out

    def new_game(self) -> None:
        out = self.run("new", "my-game")
        target = Path(self.env["XDG_DATA_HOME"]) / "rulebook" / "rulesets" / "my-game.yaml"
        assert target.is_file() and str(target) in out, out
        schema_line = target.read_text(encoding="utf-8").splitlines()[0]
        schema = schema_line.split("$schema=file://", 1)[1]
        assert Path(schema).is_file() and CHECKOUT not in Path(schema).parents, schema_line
        assert ": OK: my-game:" in self.run("validate", "my-game")
        assert f"my-game: {target} (user folder)" in self.run("where", "my-game")
        where = self.run("where")
        docs = Path(where.split("Documents:", 1)[1].split()[0])
        assert (docs / "games" / "gangster.md").is_file() and CHECKOUT not in docs.parents, where

    def terminal_game(self) -> None:
        out = self.run("play", "pig", "--seed", "3", "--seats", "human,random", stdin="1\n" * 400 + "quit\n")
        assert "Pig, seed 3" in out, out[-2000:]

    def serve(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen([self.rulebook, "serve", "--host", "127.0.0.1", "--port", str(port)],
                                  cwd=self.here, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            base = f"http://127.0.0.1:{port}"
            lobby = _get(base + "/", server)
            assert "<html" in lobby.lower(), lobby[:500]
            assert _get(base + "/static/lobby.js", server)
            listed = json.loads(_get(base + "/api/rulesets", server))
            keys = sorted(entry["key"] for entry in listed["rulesets"])
            assert keys == KEYS, f"the lobby lists {keys}, not {KEYS}"
            assert not [entry for entry in listed["rulesets"] if entry.get("error")], listed
            design = {"text": "extends: pig\nparams:\n  target: {default: 20}\n"}
            checked = json.loads(_get(base + "/api/designer/check", server, body=design))
            assert checked.get("ok") is True, checked
            print(f"  ok  rulebook serve: the lobby, a static file, {len(keys)} rulesets, a designer check")
        finally:
            server.terminate()
            _, err = server.communicate(timeout=20)
        assert b"Traceback" not in err, err.decode(errors="replace")

    def lsp(self) -> None:
        client = LspClient([self.rulebook, "lsp"], cwd=self.here)
        try:
            client.initialize()
            path = self.here / "broken.yaml"
            client.open(path, "game: {name: Broken, players: {min: 2, max: 2}}\nflow:\n  - nonsense_effect(1)\n")
            diagnostics = client.diagnostics(path, timeout=30.0)
            assert diagnostics and all(d["message"] for d in diagnostics), diagnostics
        finally:
            client.close()
        print(f"  ok  rulebook lsp: {len(diagnostics)} diagnostic(s) of a broken document")


def _get(url: str, server, seconds: float = 60, body=None) -> str:
    """The body of a GET (a POST of ``body`` as JSON), retried while the server starts."""
    deadline = time.monotonic() + seconds
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    while True:
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.read().decode("utf-8")
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"{url}: no answer (server exit {server.poll()}): "
                                     f"{server.stderr.read().decode(errors='replace') if server.poll() is not None else ''}")
            time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main())
