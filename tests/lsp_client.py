"""A small Language Server Protocol client for the tests: JSON-RPC 2.0 with Content-Length framing
over the stdin and stdout of ``rulebook lsp`` (this checkout's by default; .ci/smoke_installed.py gives
the command of an installed one and the folder it runs in)."""
from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class LspClient:
    def __init__(self, command=None, cwd=ROOT):
        self.cwd = Path(cwd)
        self.process = subprocess.Popen(command or [sys.executable, "-m", "interpreter.cli", "lsp"], cwd=self.cwd,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    # ---- framing ---------------------------------------------------------------------------------
    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length).decode("utf-8")))

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    # ---- JSON-RPC ---------------------------------------------------------------------------------
    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict, timeout: float = 10.0):
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        message = self.wait(lambda m: m.get("id") == self.next_id and "method" not in m, timeout)
        assert "error" not in message, message
        return message["result"]

    def wait(self, test, timeout: float) -> dict:
        """The first message (skipping others) that passes ``test``; AssertionError after ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                message = self.messages.get(timeout=max(left, 0.001))
            except queue.Empty:
                raise AssertionError(f"no answer within {timeout} s") from None
            if test(message):
                return message

    # ---- the protocol ------------------------------------------------------------------------------
    def initialize(self) -> dict:
        result = self.request("initialize", {"processId": None, "rootUri": self.cwd.resolve().as_uri(), "capabilities": {}},
                              timeout=30.0)
        self.notify("initialized", {})
        return result

    def open(self, path: Path, text: str) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": path.resolve().as_uri(), "languageId": "yaml", "version": 1, "text": text}})

    def change(self, path: Path, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": path.resolve().as_uri(), "version": version},
                                               "contentChanges": [{"text": text}]})

    def diagnostics(self, path: Path, timeout: float) -> list:
        uri = path.resolve().as_uri()
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri, timeout)
        return message["params"]["diagnostics"]

    def at(self, method: str, path: Path, line: int, character: int, timeout: float = 5.0):
        return self.request(method, {"textDocument": {"uri": path.resolve().as_uri()},
                                     "position": {"line": line, "character": character}}, timeout)

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=5.0)
            self.notify("exit", {})
            self.process.wait(timeout=5)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                stream.close()
