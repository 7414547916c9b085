"""Scenario tests: rules written down as data, run by one generic runner.

A scenario file lives under ``tests/scenarios/<game>/`` and is YAML.  It holds either one scenario
(a mapping with a ``name``) or several (a mapping with ``scenarios:``, a list; keys written next to
``scenarios:``, such as ``game`` or ``params``, are defaults for each scenario of the file).

One scenario::

    name: Hedwig takes the Famiglia 3 with a Famiglia 2 and a Söldner 3 as joker
    rule: >                       # the rulebook sentence or example it proves, quoted (not checked)
      »Beispiel: In der Straße liegt ein Famiglia 3 ...«
    game: la-famiglia             # optional: defaults to the name of the folder the file lies in
    params: {open_hands: true}    # optional: the game's parameters
    players: 2                    # optional: the number of players (the ruleset's default otherwise)
    seed: 0                       # optional, 0 by default
    given:                        # optional: a position, set up by interpreter.runtime.positions.arrange
      zones:                      #   listed zones hold exactly these components, bottom to top
        street: [Famiglia 3, Söldner 0]
        hand[P1]: [Famiglia 2, Söldner 3]
      vars: {active: P2}
      marks: {reduction: {Söldner 4: 2}}
      overflow: discard           #   where the cards pushed out of listed zones go (first zone by default)
    steps:                        # in order; each step is one of
      - take Famiglia 3 with Famiglia 2 and Söldner 3      # an action text (as str(action))
      - P1: exhaust Famiglia 2    # an action that the named player must be the one to take
      - illegal: take Famiglia 0  # must raise IllegalActionError and leave the state unchanged
      - expect: {...}             # checks in the middle (same keys as below)
    expect: {...}                 # checks at the end

Checks (every key optional):

``zones``
    ``{zone: value}``.  A zone is a zone name as in ``game.zone_names`` (``street``,
    ``hand[P1]``), several joined by ``+`` (their union), or ``*`` (every zone).  The value is
    either a list of component names, compared as a multiset, or a mapping with any of:
    ``count: n`` (how many components), ``contains: [names]`` (at least these, as a multiset),
    ``excludes: [names]`` (none of these), ``tally: {name: n}`` (exact number of each name; names
    not listed must be absent), ``order: [names]`` (exactly these, bottom to top), ``top: [names]``
    / ``bottom: [names]`` (the topmost / bottommost components, listed bottom to top).
``legal_includes`` / ``legal_excludes`` / ``legal_exactly``
    action texts that must / must not be legal now, or exactly the legal actions (as a multiset).
    Texts are compared ignoring case and runs of spaces, as ``State.apply_action`` does.
``current_player``
    a player name (``P1``), or ``null`` once nobody has to decide.
``vars``
    ``{name: value}``; players are written by name, components by name, ``none`` as ``null``.
``player_vars``
    ``{name: {player: value}}``.
``marks``
    ``{mark: {component: value}}``; ``component`` is a name (every component of that name must
    carry the value) or ``name@zone`` (every component of that name in that zone).
``terminal``
    true or false.
``returns``
    the scores, a list in seat order or ``{player: score}``.
``winners``
    the list of winning player names (several on a shared win; empty while the game runs).
``view``
    ``{player: expected}`` (or ``spectator`` for ``view(None)``): ``expected`` is matched against
    ``state.view(player)`` as a pattern: a mapping matches when each of its keys matches (other
    keys are ignored); a list of names matches a list of component descriptions by their names as
    a multiset; any other list matches element by element; other values must be equal.

A failure raises ``ScenarioFailure`` naming the scenario, the step and every check that differed.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

from interpreter import IllegalActionError, load_game
from interpreter.runtime.positions import arrange

SCENARIO_ROOT = Path(__file__).resolve().parent / "scenarios"

SCENARIO_KEYS = {"name", "rule", "game", "params", "players", "seed", "given", "steps", "expect", "note"}
CHECK_KEYS = {"zones", "legal_includes", "legal_excludes", "legal_exactly", "current_player", "vars",
              "player_vars", "marks", "terminal", "returns", "winners", "view"}
ZONE_CHECKS = {"count", "contains", "excludes", "tally", "order", "top", "bottom"}


_ASCII = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss",
                        "»": '"', "«": '"'})


class ScenarioFailure(AssertionError):
    pass


class ScenarioError(Exception):
    """The scenario file itself is malformed."""


# ---- loading -------------------------------------------------------------------------------------

class Scenario:
    def __init__(self, data: dict, path: Path, index: int | None, error: str | None = None):
        self.data = data
        self.path = path
        self.index = index
        self.error = error
        self.name = str(data.get("name") or f"scenario {index}")

    @property
    def id(self) -> str:
        if _under_root(self.path):
            rel = self.path.relative_to(SCENARIO_ROOT).with_suffix("").as_posix()
        else:
            rel = self.path.stem
        # pytest escapes non-ASCII ids (\xfc); spell umlauts out so ids stay readable
        return f"{rel}::{self.name}".translate(_ASCII)

    def __repr__(self) -> str:
        return f"Scenario({self.id!r})"


def _under_root(path: Path) -> bool:
    try:
        path.relative_to(SCENARIO_ROOT)
        return True
    except ValueError:
        return False


def load_file(path: Path) -> list[Scenario]:
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario file is a mapping")
    default_game = path.parent.name
    if "scenarios" in data:
        defaults = {k: v for k, v in data.items() if k != "scenarios"}
        items = data["scenarios"]
        if not isinstance(items, list):
            raise ScenarioError(f"{path}: 'scenarios' is a list")
        out = []
        for i, item in enumerate(items):
            merged = {"game": default_game, **defaults, **item}
            if "params" in defaults and "params" in item:
                merged["params"] = {**defaults["params"], **item["params"]}
            out.append(Scenario(merged, path, i))
        return out
    return [Scenario({"game": default_game, **data}, path, None)]


def collect(root: Path = SCENARIO_ROOT) -> list[Scenario]:
    scenarios = []
    for path in sorted(root.rglob("*.yaml")) + sorted(root.rglob("*.yml")):
        try:
            scenarios += load_file(path)
        except (yaml.YAMLError, ScenarioError) as exc:
            # a broken file is one failing test, not an error that stops the whole collection
            scenarios.append(Scenario({"name": "(file does not load)"}, path, None, error=str(exc)))
    return scenarios


# ---- running -------------------------------------------------------------------------------------

_GAMES: dict = {}


def game_for(name: str, params: dict | None, players: int | None = None):
    key = (name, tuple(sorted((params or {}).items())), players)
    if key not in _GAMES:
        _GAMES[key] = load_game(name, params=params or None, players=players)
    return _GAMES[key]


def run(scenario: Scenario) -> None:
    __tracebackhide__ = True  # pytest shows the message, not this frame
    if scenario.error:
        raise ScenarioError(f"{scenario.path}: {scenario.error}")
    data = scenario.data
    unknown = set(data) - SCENARIO_KEYS
    if unknown:
        raise ScenarioError(f"{scenario.id}: unknown keys {sorted(unknown)}")
    game = game_for(data["game"], data.get("params"), data.get("players"))
    given = data.get("given")
    seed = data.get("seed", 0)
    if given:
        state = game.new_initial_state(seed, arrange=lambda s: arrange(s, given))
    else:
        state = game.new_initial_state(seed)
    history: list[str] = []
    for number, step in enumerate(data.get("steps") or [], 1):
        where = f"step {number} ({_step_text(step)})"
        _run_step(scenario, game, state, step, where, history)
        if not (isinstance(step, dict) and "expect" in step):
            history.append(_step_text(step))
    if data.get("expect"):
        problems = check(game, state, data["expect"])
        if problems:
            _fail(scenario, "at the end", problems, state, history)


def _step_text(step) -> str:
    if isinstance(step, str):
        return step
    if isinstance(step, dict) and len(step) == 1:
        key, value = next(iter(step.items()))
        return f"{key}: {value}" if key != "expect" else "expect"
    return repr(step)


def _run_step(scenario, game, state, step, where, history) -> None:
    __tracebackhide__ = True  # pytest shows the message, not this frame
    if isinstance(step, str):
        _apply(scenario, state, step, where, history)
        return
    if not isinstance(step, dict) or len(step) != 1:
        raise ScenarioError(f"{scenario.id}: {where}: a step is an action text or a one-key mapping")
    key, value = next(iter(step.items()))
    if key == "expect":
        problems = check(game, state, value)
        if problems:
            _fail(scenario, where, problems, state, history)
    elif key == "illegal":
        before = state.to_json()
        try:
            state.apply_action(str(value))
        except IllegalActionError:
            if state.to_json() != before:
                _fail(scenario, where, ["the illegal action was rejected but the state changed"], state, history)
        else:
            _fail(scenario, where, [f"'{value}' was accepted, but it should be illegal"], state, history)
    elif key in game.player_names:
        actual = _player_name(game, state.current_player())
        if actual != key:
            _fail(scenario, where, [f"current player: expected {key}, got {actual}"], state, history)
        _apply(scenario, state, str(value), where, history)
    else:
        raise ScenarioError(f"{scenario.id}: {where}: unknown step kind '{key}' "
                            f"(an action, illegal, expect, or a player name)")


def _apply(scenario, state, text, where, history) -> None:
    __tracebackhide__ = True  # pytest shows the message, not this frame
    try:
        state.apply_action(text)
        return
    except IllegalActionError as exc:
        problem = f"'{text}' was rejected: {exc}"
    _fail(scenario, where, [problem], state, history)


def _fail(scenario, where, problems, state, history) -> None:
    __tracebackhide__ = True  # pytest shows the message, not this frame
    lines = [f"scenario '{scenario.name}' ({scenario.path.name}) failed {where}:"]
    lines += [f"  - {p}" for p in problems]
    lines.append(f"  actions taken: {history or 'none'}")
    if not state.is_terminal():
        lines.append(f"  {_player_name(state.game, state.current_player())} to decide; legal now: "
                     f"{[str(a) for a in state.legal_actions()]}")
    else:
        lines.append(f"  the game is over; scores {state.returns()}")
    game = state.game
    lines.append("  zones: " + "; ".join(
        f"{name}={[game.names[c] for c in cards]}" if len(cards) <= 12 else f"{name}=<{len(cards)} components>"
        for name, cards in zip(game.zone_names, state.zones)))
    lines.append(f"  vars: {_render_vars(game, state.vars, game.var_info)}")
    raise ScenarioFailure("\n".join(lines))


# ---- checks --------------------------------------------------------------------------------------

def check(game, state, expect: dict) -> list[str]:
    """Every difference between ``state`` and ``expect``, as readable lines (empty when all hold)."""
    unknown = set(expect) - CHECK_KEYS
    if unknown:
        raise ScenarioError(f"unknown expectation keys {sorted(unknown)}; known: {sorted(CHECK_KEYS)}")
    problems: list[str] = []
    for label, wanted in (expect.get("zones") or {}).items():
        problems += _check_zone(game, state, label, wanted)
    if any(k in expect for k in ("legal_includes", "legal_excludes", "legal_exactly")):
        legal = [str(a) for a in state.legal_actions()]
        norm = {_norm(t): t for t in legal}
        for text in expect.get("legal_includes") or []:
            if _norm(text) not in norm:
                problems.append(f"'{text}' should be legal but is not")
        for text in expect.get("legal_excludes") or []:
            if _norm(text) in norm:
                problems.append(f"'{text}' should not be legal but is")
        if "legal_exactly" in expect:
            want = Counter(_norm(t) for t in expect["legal_exactly"])
            got = Counter(_norm(t) for t in legal)
            if want != got:
                shown = {_norm(t): str(t) for t in expect["legal_exactly"]}
                shown.update(norm)
                missing = [shown[t] for t in sorted((want - got).elements())]
                extra = [shown[t] for t in sorted((got - want).elements())]
                problems.append(f"legal actions differ: missing {missing}, unexpected {extra}")
    if "current_player" in expect:
        actual = _player_name(game, state.current_player())
        if actual != expect["current_player"]:
            problems.append(f"current player: expected {expect['current_player']}, got {actual}")
    for name, wanted in (expect.get("vars") or {}).items():
        if name not in state.vars:
            raise ScenarioError(f"no variable '{name}'; variables: {sorted(state.vars)}")
        actual = _render_value(game, state.vars[name], game.var_info[name][0].name)
        if actual != _normalize_expected(game, wanted, game.var_info[name][0].name):
            problems.append(f"var {name}: expected {wanted!r}, got {actual!r}")
    for name, per_player in (expect.get("player_vars") or {}).items():
        if name not in state.pvars:
            raise ScenarioError(f"no player variable '{name}'")
        kind = game.player_var_info[name][0].name
        for player, wanted in per_player.items():
            actual = _render_value(game, state.pvars[name][_player_index(game, player)], kind)
            if actual != _normalize_expected(game, wanted, kind):
                problems.append(f"player var {name}[{player}]: expected {wanted!r}, got {actual!r}")
    for mark, values in (expect.get("marks") or {}).items():
        if mark not in state.marks:
            raise ScenarioError(f"no mark '{mark}'; marks: {sorted(state.marks)}")
        for spec, wanted in values.items():
            name, _, zone = str(spec).partition("@")
            ids = [c for c in range(game.num_components) if game.names[c] == name
                   and (not zone or game.zone_names[state.loc[c]] == zone)]
            if not ids:
                problems.append(f"mark {mark} of {spec}: no such component")
            for c in ids:
                if state.marks[mark][c] != wanted:
                    problems.append(f"mark {mark} of {name} in {game.zone_names[state.loc[c]]}: "
                                    f"expected {wanted!r}, got {state.marks[mark][c]!r}")
    if "terminal" in expect and state.is_terminal() != bool(expect["terminal"]):
        problems.append(f"terminal: expected {expect['terminal']}, got {state.is_terminal()}")
    if "returns" in expect:
        wanted = expect["returns"]
        actual = list(state.returns())
        if isinstance(wanted, dict):
            wanted = [wanted.get(p, actual[i]) for i, p in enumerate(game.player_names)]
        if list(wanted) != actual:
            problems.append(f"returns: expected {wanted}, got {actual}")
    if "winners" in expect:
        actual = [game.player_names[p] for p in state.winners()]
        wanted = [_player_name(game, p) for p in expect["winners"]]
        if sorted(actual) != sorted(wanted):
            problems.append(f"winners: expected {wanted}, got {actual}")
    for viewer, pattern in (expect.get("view") or {}).items():
        seat = None if viewer == "spectator" else _player_index(game, viewer)
        problems += [f"view of {viewer}: {p}" for p in _match(state.view(seat), pattern, "")]
    return problems


def _norm(text: str) -> str:
    return " ".join(str(text).split()).lower()


def _zone_ids(game, label: str) -> list[int]:
    if label.strip() == "*":
        return list(range(len(game.zone_names)))
    out = []
    for part in label.split("+"):
        part = part.strip()
        if part not in game.zone_names:
            raise ScenarioError(f"no zone '{part}'; zones: {', '.join(game.zone_names)}")
        out.append(game.zone_names.index(part))
    return out


def _multiset_diff(want: Counter, got: Counter) -> str:
    return f"missing {sorted((want - got).elements())}, unexpected {sorted((got - want).elements())}"


def _check_zone(game, state, label, wanted) -> list[str]:
    zones = _zone_ids(game, label)
    names = [game.names[c] for z in zones for c in state.zones[z]]
    got = Counter(names)
    if isinstance(wanted, list):
        want = Counter(str(n) for n in wanted)
        return [] if want == got else [f"zone {label}: {_multiset_diff(want, got)}"]
    if not isinstance(wanted, dict):
        raise ScenarioError(f"zone {label}: expected a list of names or a mapping")
    unknown = set(wanted) - ZONE_CHECKS
    if unknown:
        raise ScenarioError(f"zone {label}: unknown checks {sorted(unknown)}; known: {sorted(ZONE_CHECKS)}")
    problems = []
    if "count" in wanted and len(names) != wanted["count"]:
        problems.append(f"zone {label}: expected {wanted['count']} components, got {len(names)}")
    if "contains" in wanted:
        want = Counter(str(n) for n in wanted["contains"])
        if want - got:
            problems.append(f"zone {label}: lacks {sorted((want - got).elements())} (holds {sorted(names)})")
    if "excludes" in wanted:
        present = sorted({str(n) for n in wanted["excludes"]} & set(names))
        if present:
            problems.append(f"zone {label}: should not hold {present}")
    if "tally" in wanted:
        want = Counter({str(k): v for k, v in wanted["tally"].items() if v})
        if want != got:
            problems.append(f"zone {label}: tally differs: {_multiset_diff(want, got)}")
    if "order" in wanted and [str(n) for n in wanted["order"]] != names:
        problems.append(f"zone {label}: expected order {wanted['order']}, got {names}")
    if "top" in wanted:
        k = len(wanted["top"])
        if [str(n) for n in wanted["top"]] != names[len(names) - k:] or k > len(names):
            problems.append(f"zone {label}: expected top {wanted['top']}, got {names[max(0, len(names) - k):]}")
    if "bottom" in wanted:
        k = len(wanted["bottom"])
        if [str(n) for n in wanted["bottom"]] != names[:k]:
            problems.append(f"zone {label}: expected bottom {wanted['bottom']}, got {names[:k]}")
    return problems


def _player_index(game, player) -> int:
    if isinstance(player, int):
        return player
    if player in game.player_names:
        return game.player_names.index(player)
    raise ScenarioError(f"no player '{player}'; players: {', '.join(game.player_names)}")


def _player_name(game, seat):
    if seat is None:
        return None
    if isinstance(seat, int):
        return game.player_names[seat]
    return seat


def _render_value(game, value, kind):
    if value is None:
        return None
    if kind == "player" and isinstance(value, int):
        return game.player_names[value]
    if kind == "component" and isinstance(value, int):
        return game.names[value]
    return value


def _normalize_expected(game, value, kind):
    if kind == "player" and isinstance(value, int):
        return game.player_names[value]
    return value


def _render_vars(game, values, info) -> dict:
    return {name: _render_value(game, v, info[name][0].name) for name, v in values.items()}


def _match(actual, pattern, path) -> list[str]:
    here = path or "(top)"
    if isinstance(pattern, dict):
        if not isinstance(actual, dict):
            return [f"{here}: expected a mapping, got {actual!r}"]
        out = []
        for key, sub in pattern.items():
            if key not in actual:
                out.append(f"{here}: no key '{key}' (keys: {sorted(actual)})")
            else:
                out += _match(actual[key], sub, f"{path}.{key}" if path else str(key))
        return out
    if isinstance(pattern, list):
        if not isinstance(actual, list):
            return [f"{here}: expected a list, got {actual!r}"]
        if pattern and all(isinstance(p, str) for p in pattern) and all(isinstance(a, dict) for a in actual):
            want = Counter(pattern)
            got = Counter(a.get("name") for a in actual)
            return [] if want == got else [f"{here}: {_multiset_diff(want, got)}"]
        if len(pattern) != len(actual):
            return [f"{here}: expected {len(pattern)} entries, got {len(actual)}: {actual!r}"]
        out = []
        for i, (a, p) in enumerate(zip(actual, pattern)):
            out += _match(a, p, f"{path}[{i}]")
        return out
    return [] if actual == pattern else [f"{here}: expected {pattern!r}, got {actual!r}"]
