"""What a game was played with, as digests: the effective ruleset and the files it came from.

A play log stores a fingerprint of its game (``fingerprint``); replaying compares it with the game
loaded now (``describe_change``), so that a log of changed rules is reported as such — with the file
and the sections that changed — instead of as a step that no longer reproduces.

``content_hash`` covers what decides how a game plays: the merged ruleset document (a variant
together with every ruleset it extends), the parameters in force and the number of players.  Comments,
formatting and key order of the files do not count.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from dsl.errors import RulebookError
from dsl.variants import MAX_DEPTH
from dsl.yaml_loader import load_yaml_file

from ..game import find_base


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def content_hash(game) -> str:
    """The sha256 of the effective ruleset (merged document, parameters in force, players)."""
    return _sha256(_canonical({"ruleset": game.ruleset.data, "params": game.params,
                               "players": game.num_players}))


def section_hashes(game) -> dict:
    """A short digest of each top-level section of the merged document (``flow``, ``params`` ...)."""
    data = game.ruleset.data if isinstance(game.ruleset.data, dict) else {}
    return {key: _sha256(_canonical(value))[:16] for key, value in data.items() if key != "extends"}


def file_digest(path) -> str:
    """The sha256 of a file's bytes (empty when the file cannot be read)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


def source_files(path) -> list:
    """The ruleset file and the files it ``extends:``, in that order, as resolved paths."""
    files = [Path(path).resolve()]
    while len(files) <= MAX_DEPTH:
        try:
            data = load_yaml_file(files[-1]).data
        except RulebookError:
            break
        target = data.get("extends") if isinstance(data, dict) else None
        base = find_base(target, files[-1].parent) if isinstance(target, str) else None
        if base is None or Path(base).resolve() in files:
            break
        files.append(Path(base).resolve())
    return files


def fingerprint(game) -> dict:
    """The header fields of a log that identify the rules it was played with."""
    return {"ruleset_hash": content_hash(game),
            "ruleset_files": {str(f): file_digest(f) for f in source_files(game.path)},
            "ruleset_sections": section_hashes(game)}


def describe_change(log: dict, game) -> str | None:
    """None if ``game`` has the rules ``log`` was written with; else a sentence naming the change.

    Logs written before content hashes carry only ``ruleset_sha256``, the digest of the main file."""
    if isinstance(log.get("ruleset_hash"), str):
        now = content_hash(game)
        if log["ruleset_hash"] == now:
            return None
        what = f"hash {log['ruleset_hash'][:12]}, now {now[:12]}"
        details = _changed_files(log.get("ruleset_files")) + _changed_sections(log.get("ruleset_sections"), game)
    elif isinstance(log.get("ruleset_sha256"), str) and log["ruleset_sha256"]:
        now = file_digest(log["ruleset"])
        if log["ruleset_sha256"] == now:
            return None
        what = f"sha256 {log['ruleset_sha256'][:12]}, now {now[:12] or 'unreadable'}"
        details = [f"{log['ruleset']} changed"]
    else:
        return None
    return f"the ruleset changed since this log was written ({what})" + \
        (f": {'; '.join(details)}" if details else "")


def _changed_files(logged) -> list:
    if not isinstance(logged, dict):
        return []
    changed = [str(name) for name, digest in logged.items() if file_digest(name) != digest]
    return [f"{name} changed" for name in changed]


def _changed_sections(logged, game) -> list:
    if not isinstance(logged, dict):
        return []
    now = section_hashes(game)
    names = sorted(k for k in set(logged) | set(now) if logged.get(k) != now.get(k))
    return [f"sections changed: {', '.join(names)}"] if names else ["the parameters in force differ"]
