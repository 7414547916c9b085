"""The rulesets a server offers: every ``*.yaml`` below one folder, named by its path in that folder.

A browser names a ruleset by its key (``pig``, ``classic/kuhn-poker``, ``variants/my-variant``); keys are
looked up in this catalog, never turned into paths, and a variant's ``extends:`` is resolved only to
files of the same folder.  So no request reaches a file outside the rulesets folder.
"""
from __future__ import annotations

import re
from pathlib import Path

from dsl.errors import ErrorList, ParameterError, RulebookError
from dsl.explain import first_comment, parameter_rows
from dsl.yaml_loader import load_yaml_file

from ..analysis.fingerprint import file_digest
from ..bots import declared_bot
from ..game import Game, load_game
from .limits import check_bot_spec


_REPOSITORY_PATH = re.compile(r"\b[\w.-]+/[\w./-]+\.(?:md|yaml|json)\b")


def _without_paths(text: str) -> str:
    """A description for people: the sentences naming files of the repository left out."""
    sentences = re.split(r"(?<=[.;])\s+", text)
    return " ".join(s for s in sentences if not _REPOSITORY_PATH.search(s)).strip()


class Catalog:
    def __init__(self, folder):
        self.folder = Path(folder).resolve()
        self.files = {}
        for path in sorted(self.folder.rglob("*.yaml")):
            if path.is_file():
                self.files[path.relative_to(self.folder).with_suffix("").as_posix()] = path
        self._entries = None
        self._digests = None
        self._details: dict = {}

    def find_base(self, name: str, folder) -> Path | None:
        """The file an ``extends:`` names, only inside the rulesets folder: a key, a key with .yaml,
        or a file name next to the variant."""
        name = str(name)
        key = name[:-5] if name.endswith(".yaml") else name
        if key in self.files:
            return self.files[key]
        for path in self.files.values():
            if path.name in (name, f"{name}.yaml") and path.parent == Path(folder).resolve():
                return path
        for path in self.files.values():
            if path.stem == key:
                return path
        return None

    def load_path(self, path, params=None, players=None) -> Game:
        """A game from a file (a catalog file or a design the server stored), with bases from here;
        through the cache of loaded games (:mod:`interpreter.store.load_cache`), as everywhere.  A
        ruleset whose ``bots: default:`` no bot can play is refused here, as ``rulebook validate``
        refuses it: so the lobby says so before anyone creates a table, and the designer's check too."""
        try:
            game = load_game(Path(path), params, players, find=self.find_base)
            declared_bot(game.ruleset, None)
            return game
        except ErrorList:
            raise
        except RulebookError as exc:
            raise ErrorList([exc]) from None

    def load(self, key: str, params=None, players=None) -> Game:
        if key not in self.files:
            raise ParameterError("no such ruleset", hint="choose one from the lobby's list")
        return self.load_path(self.files[key], params, players)

    def key_for_digest(self, digest: str):
        """The key of the ruleset whose file has this sha256, or None."""
        if self._digests is None:
            self._digests = {file_digest(path): key for key, path in self.files.items()}
        return self._digests.get(digest)

    @property
    def read(self) -> bool:
        """Whether ``entries`` are read already (then asking for them costs nothing)."""
        return self._entries is not None

    def entries(self) -> list:
        """Per ruleset, read from its YAML only (quick): key, game name, whether it is a variant,
        its first comment."""
        if self._entries is None:
            self._entries = [self._entry(key, path) for key, path in self.files.items()]
        return self._entries

    def _entry(self, key: str, path: Path) -> dict:
        entry = {"key": key, "about": first_comment(path), "name": key, "variant": False}
        try:
            data = load_yaml_file(path).data
        except RulebookError as exc:
            entry["error"] = exc.message
            return entry
        if isinstance(data, dict):
            game = data.get("game") if isinstance(data.get("game"), dict) else {}
            entry["variant"] = "extends" in data
            entry["name"] = str(game.get("name") or data.get("extends") or key)
            if isinstance(game.get("description"), str) and game["description"].strip():
                entry["about"] = " ".join(game["description"].split())
        entry["about"] = _without_paths(entry["about"])
        return entry

    def details(self, key: str) -> dict:
        """Players and parameters (with descriptions) of a ruleset and its declared bot: compiled, then
        kept.  ``bot_limit`` says why this server would refuse the declared bot (more work per move
        than a table may ask, see :mod:`.limits`); the lobby then starts the bot seats with another."""
        if key not in self._details:
            try:
                game = self.load(key)
            except RulebookError as exc:
                return {"key": key, "error": str(exc).replace(str(self.folder), "")}
            rs = game.ruleset
            bot = rs.default_bot[0] if rs.default_bot else None  # bots: default: (checked by load)
            self._details[key] = {"key": key, "name": game.name, "min_players": rs.min_players,
                                  "max_players": rs.max_players, "players": game.num_players,
                                  "params": parameter_rows(game.ruleset), "bot": bot,
                                  "bot_limit": check_bot_spec(bot) if bot else None}  # more work than a table may ask
        return self._details[key]
