"""The on-disk cache of compiled games (interpreter/store/load_cache.py, dsl/cache.py).

Every test here uses a cache folder of its own under ``tmp_path`` (``XDG_CACHE_HOME``); the rest of
the suite runs with ``RULEBOOK_NO_CACHE=1`` (tests/conftest.py) and never writes to the user's cache.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

from conftest import BROKEN, MINIMAL, ROOT, digest, random_playout
from interpreter import ErrorList, RulebookError, load_game
from dsl import cache
from dsl import parser as parser_module
from dsl.errors import Position
from dsl.parser import parse_expression, parse_statement
from dsl.yaml_loader import MAX_FILE_BYTES
from interpreter.store import load_cache

FOUR = ["la-famiglia", "gangster", "mafiadollar", "pferderennen-mafia"]
PLAYED = FOUR + ["gangster-any-shooter"]  # the four games and a shipped variant


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """A fresh, empty cache home for this test, the cache turned on."""
    home = tmp_path / "cache-home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    return home


def entries(home) -> list:
    return sorted((home / "rulebook").glob("*.game"))


CHILD = textwrap.dedent("""
    import hashlib, json, random, sys
    sys.path.insert(0, {root!r})
    from interpreter import load_game
    from interpreter.store import load_cache
    hits = []
    get = load_cache.Store.get
    def counted(self, find):
        game = get(self, find)
        hits.append(game is not None)
        return game
    load_cache.Store.get = counted
    def main():
        digests = [digest(load_game(n)) for n in {names!r}]
        imported = sorted(m for m in ("jsonschema", "lark") if m in sys.modules)
        print(json.dumps({{"digests": digests, "hits": hits, "imported": imported}}))
""")


def run_child(names) -> dict:
    code = (CHILD.format(root=str(ROOT), names=names) + inspect.getsource(random_playout)
            + inspect.getsource(digest) + "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ),
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_cached_game_plays_like_a_freshly_compiled_one(cache_home):
    cold = run_child(PLAYED)  # a fresh process: compiles and writes the entries
    assert cold["hits"] == [False] * len(PLAYED) and len(entries(cache_home)) == len(PLAYED)
    warm = run_child(PLAYED)  # another fresh process: reads them
    assert warm["hits"] == [True] * len(PLAYED)
    assert cold["imported"] == ["jsonschema", "lark"] and warm["imported"] == []  # no parser, no schema
    uncached = [digest(load_game(name, cache=False)) for name in PLAYED]
    assert cold["digests"] == uncached
    assert warm["digests"] == uncached


def test_parameters_and_player_counts_have_entries_of_their_own(cache_home):
    small = load_game(MINIMAL, params={"hand_size": 1})
    large = load_game(MINIMAL, params={"hand_size": 3}, players=3)
    assert len(entries(cache_home)) == 2
    assert load_game(MINIMAL, params={"hand_size": 1}).params["hand_size"] == small.params["hand_size"] == 1
    again = load_game(MINIMAL, params={"hand_size": 3}, players=3)
    assert (again.params["hand_size"], again.num_players) == (large.params["hand_size"], large.num_players)
    assert digest(again) == digest(load_game(MINIMAL, params={"hand_size": 3}, players=3, cache=False))


def test_editing_the_ruleset_or_the_ruleset_it_extends_misses_the_cache(cache_home, tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text(MINIMAL.read_text(encoding="utf-8"), encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: base.yaml\nparams:\n  hand_size: {default: 3}\n", encoding="utf-8")
    assert load_game(variant).params["hand_size"] == 3
    assert load_game(variant).name == "Minimal"
    assert len(entries(cache_home)) == 1
    variant.write_text("extends: base.yaml\nparams:\n  hand_size: {default: 4}\n", encoding="utf-8")
    assert load_game(variant).params["hand_size"] == 4
    base.write_text(base.read_text(encoding="utf-8").replace("name: Minimal", "name: Smaller"), encoding="utf-8")
    assert load_game(variant).name == "Smaller"
    assert load_game(base).name == "Smaller"
    (tmp_path / "moved").mkdir()  # the same text elsewhere: 'extends: base.yaml' finds another file
    shutil.copy(variant, tmp_path / "moved" / "variant.yaml")
    (tmp_path / "moved" / "base.yaml").write_text(MINIMAL.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_game(tmp_path / "moved" / "variant.yaml").name == "Minimal"


def test_the_web_catalog_loads_through_the_cache_with_its_own_finder(cache_home, tmp_path, monkeypatch):
    from interpreter.web.catalog import Catalog
    hits = []
    get = load_cache.Store.get
    monkeypatch.setattr(load_cache.Store, "get", lambda self, find: hits.append(get(self, find)) or hits[-1])
    folder = tmp_path / "served"
    folder.mkdir()
    (folder / "base.yaml").write_text(MINIMAL.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "variant.yaml").write_text("extends: base\nparams:\n  hand_size: {default: 3}\n", encoding="utf-8")
    served = Catalog(folder)
    first = served.load("variant")
    again = served.load("variant")
    assert [game is not None for game in hits] == [False, True]
    assert again.params["hand_size"] == first.params["hand_size"] == 3 and digest(again) == digest(first)
    # the entry is used only while the catalog's finder finds the same base: outside the served
    # folder, 'extends: base' means another file, or none
    (tmp_path / "base.yaml").write_text(MINIMAL.read_text(encoding="utf-8").replace("name: Minimal", "name: Elsewhere"),
                                        encoding="utf-8")
    shutil.copy(folder / "variant.yaml", tmp_path / "variant.yaml")
    assert load_game(tmp_path / "variant.yaml").name == "Elsewhere"
    (folder / "base.yaml").unlink()
    with pytest.raises(ErrorList):
        Catalog(folder).load("variant")


@pytest.mark.parametrize("damage", ["truncated", "flipped", "empty", "foreign"])
def test_a_damaged_entry_is_ignored_and_rewritten(cache_home, damage):
    expected = digest(load_game(MINIMAL))
    [entry] = entries(cache_home)
    data = entry.read_bytes()
    if damage == "truncated":
        entry.write_bytes(data[:len(data) // 2])
    elif damage == "flipped":
        entry.write_bytes(data[:-10] + bytes([data[-10] ^ 1]) + data[-9:])
    elif damage == "empty":
        entry.write_bytes(b"")
    else:  # a well-formed entry whose payload is no game of this engine
        payload = b"\x80\x04K\x01."
        entry.write_bytes(cache.FORMAT + hashlib.sha256(payload).digest() + payload)
    assert digest(load_game(MINIMAL)) == expected
    assert cache.read(entry) is not None  # written again
    assert digest(load_game(MINIMAL)) == expected


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="the cache needs POSIX owners and modes")
@pytest.mark.parametrize("unsafe", ["world-writable", "group-writable", "symlink", "file"])
def test_an_unsafe_cache_folder_is_refused(cache_home, tmp_path, unsafe):
    folder = cache_home / "rulebook"
    cache_home.mkdir()
    if unsafe == "symlink":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        folder.symlink_to(tmp_path / "elsewhere")
    elif unsafe == "file":
        folder.write_text("not a folder")
    else:
        folder.mkdir()
        folder.chmod(0o777 if unsafe == "world-writable" else 0o770)
    cache._warned.clear()
    with pytest.warns(RuntimeWarning, match="does not use the cache folder"):
        game = load_game(MINIMAL)
    assert game.name == "Minimal"
    assert not list(tmp_path.rglob("*.game"))


def test_the_folder_is_private(cache_home):
    load_game(MINIMAL)
    assert (cache_home / "rulebook").stat().st_mode & 0o777 == 0o700
    assert all(e.stat().st_mode & 0o077 == 0 for e in entries(cache_home))


def test_turned_off_by_the_environment_or_the_argument(cache_home, monkeypatch, fresh_parser):
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")
    load_game(MINIMAL)
    assert not cache_home.exists()  # neither games nor the grammar
    monkeypatch.delenv("RULEBOOK_NO_CACHE")
    load_game(MINIMAL, cache=False)  # no game is kept
    load_game(MINIMAL, text=MINIMAL.read_text(encoding="utf-8"))  # nor an editor's buffer
    assert entries(cache_home) == []


def _error_text(load) -> str:
    with pytest.raises(RulebookError) as info:
        load()
    return str(info.value)


def test_a_ruleset_with_errors_fails_the_same_way_and_is_not_kept(cache_home):
    broken = BROKEN / "assign-parameter.yaml"
    first = _error_text(lambda: load_game(broken))
    assert _error_text(lambda: load_game(broken)) == first
    assert _error_text(lambda: load_game(broken, cache=False)) == first
    assert entries(cache_home) == []
    with pytest.raises(ErrorList):
        load_game(MINIMAL, params={"hand_size": 99})
    assert entries(cache_home) == []


def test_runtime_errors_name_the_same_rule_from_a_cached_game(cache_home):
    path = BROKEN / "division-by-zero.yaml"
    uncached = _error_text(lambda: load_game(path, cache=False).new_initial_state(0))
    load_game(path)
    assert len(entries(cache_home)) == 1
    cached = _error_text(lambda: load_game(path).new_initial_state(0))
    assert cached == uncached and ":26:5" in cached.replace(", line ", ":")


def test_the_oldest_entries_go_past_the_size_limit(tmp_path):
    for number in range(5):
        entry = tmp_path / f"{number}.game"
        entry.write_bytes(b"x" * 100)
        os.utime(entry, (1000 + number, 1000 + number))
    cache.prune(tmp_path, limit=250)
    assert sorted(p.name for p in tmp_path.glob("*.game")) == ["3.game", "4.game"]


PARSED = ["a + b * 2 // c", "[card for card in active.hand if card.value >= 2 and not card.played]",
          "max(x.value for x in table) if size(table) > 0 else -1", "f(a, b=1)[0].name"]
STATEMENTS = ["active.score += card.value", "let x = top(pile)", "draw(pile, active.hand, 2)"]
WRONG = ["a +", "f(,)", "1 2", "x ="]


def _parses():
    base = Position("rules.yaml", 3, 7)
    texts = [repr(parse_expression(t, base)) for t in PARSED] + [repr(parse_statement(t, base)) for t in STATEMENTS]
    for text in WRONG:
        with pytest.raises(RulebookError) as info:
            parse_expression(text, base)
        texts.append(str(info.value))
    return texts


@pytest.fixture
def fresh_parser():
    parser_module._parser.cache_clear()
    yield
    parser_module._parser.cache_clear()


def test_the_grammar_read_from_the_cache_parses_the_same(cache_home, fresh_parser):
    built = _parses()
    [entry] = (cache_home / "rulebook").glob("grammar-*.lark")
    parser_module._parser.cache_clear()
    assert _parses() == built  # read from the cache folder
    entry.write_bytes(entry.read_bytes()[:100])  # damaged: built and written again
    parser_module._parser.cache_clear()
    assert _parses() == built
    assert cache.read(entry) is not None


def test_a_file_too_large_for_a_ruleset_is_not_read_for_a_key(cache_home, tmp_path):
    huge = tmp_path / "huge.yaml"
    huge.write_bytes(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: huge.yaml\n", encoding="utf-8")
    for path in (huge, variant):
        assert _error_text(lambda: load_game(path)) == _error_text(lambda: load_game(path, cache=False))
    assert entries(cache_home) == []
