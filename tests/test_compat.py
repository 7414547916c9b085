"""The compatibility corpus: rulesets written against earlier versions of the language keep validating
and playing the same seeded games after every change.

``tests/compat/rulesets/`` holds copies of every ruleset, example and variant shipped when issue 37 was
done, the stages of docs/tutorial.md, Pig written with its own procedure ``roll`` (as people wrote it
before ``roll(n)`` was built in), and a ruleset whose own names are names the language is likely to
take for built-ins.  ``tests/compat/digests.json`` holds, per file, a SHA-256 of a few seeded games of
random moves: who decides, the legal action texts, the move taken and the returns at the end (not the
state's JSON, whose layout may change without changing a game).

A change that must break a file of the corpus says so in its issue and gives the migration in its
error; only then are the digests written again:

    PYTHONPATH=$PWD python tests/test_compat.py --update
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conftest import ROOT, random_playout  # noqa: E402
from interpreter import load_game  # noqa: E402

COMPAT = ROOT / "tests" / "compat"
CORPUS = sorted((COMPAT / "rulesets").glob("*.yaml"))
DIGESTS = COMPAT / "digests.json"
SEEDS = (1, 2)
DECISIONS = 60  # per seed: enough to cross a few turns, rounds and reshuffles; the whole corpus well under 30 s


def game_digest(path: Path) -> str:
    """A SHA-256 of seeded games of random moves (seed per game; at most DECISIONS moves each)."""
    game = load_game(path, cache=False)
    h = hashlib.sha256()

    def record(seat, actions, index, state):
        h.update(json.dumps([seat, [str(a) for a in actions], index]).encode())

    for seed in SEEDS:
        state = random_playout(game, seed, DECISIONS, record)
        h.update(json.dumps(state.returns() if state.is_terminal() else "unfinished").encode())
    return h.hexdigest()


def stored() -> dict:
    return json.loads(DIGESTS.read_text(encoding="utf-8"))


def test_every_file_of_the_corpus_has_a_digest_and_every_digest_a_file():
    assert sorted(stored()) == [p.name for p in CORPUS]


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_a_ruleset_people_wrote_validates_and_plays_the_same_seeded_games(path):
    assert game_digest(path) == stored()[path.name], (
        f"{path.name} no longer plays the same seeded games: a change broke a ruleset people wrote "
        "(see tests/test_compat.py on when a change may do that)")


def main(argv) -> int:
    if argv != ["--update"]:
        print(__doc__)
        return 2
    DIGESTS.write_text(json.dumps({p.name: game_digest(p) for p in CORPUS}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
