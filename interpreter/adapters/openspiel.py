"""Any ruleset as the OpenSpiel game ``rulebook`` (extra ``[openspiel]``: open_spiel, numpy).

    >>> import pyspiel
    >>> import interpreter.adapters.openspiel  # registers the game
    >>> game = pyspiel.load_game("rulebook", {"ruleset": "classic/kuhn-poker", "players": 2})

Game parameters: ``ruleset`` (a name under rulesets/ or a path), ``players`` (0: the ruleset's
default), ``params`` (the ruleset's parameters as ``name:value`` pairs separated by spaces,
e.g. ``"num_cards:6 points_order:random"``; ``name=value`` is read too, and the game string always
writes ``name:value``, which OpenSpiel's game-string parser keeps, so ``pyspiel.load_game(str(game))``
rebuilds the game), ``seed`` (the seeds of new games are drawn from it;
-1: from the system), ``utility`` (``score``: the returns are the ruleset's scores; ``margin``: a
seat's score minus the best score of the others; ``win``: 1 for the winner, 0 for each of several
seats sharing a win, -1 for the others).

The game type comes from the ruleset (:mod:`interpreter.adapters.ruleset_facts`): sequential,
terminal rewards; *perfect information* when no zone or variable is hidden from anyone, there is no
simultaneous block and no hidden random generator (explicit chance, or rules that draw no random
number), else imperfect; *zero-sum* or *constant-sum* when the ruleset declares what its scores add
up to (``scoring.sum``), else general sum.  ``zero_sum`` true declares zero-sum by hand; two-player
games with the ``margin`` or ``win`` utility are zero-sum anyway.  Chance: in the default, seeded
mode there are no chance nodes — each new game draws a seed from the game's ``seed``, and the
engine's generator, part of the state, decides every random event — so the chance mode is
deterministic (OpenSpiel's sampled-stochastic mode would need a C++ random-number state, which a
Python game cannot give, to serialize); with ``explicit_chance`` true every random event is a chance
node with its outcomes (:mod:`interpreter.runtime.chance`) and the chance mode is explicit stochastic, so
CFR, exploitability and expectiminimax run on any ruleset.  ``max_game_length`` (default
:data:`MAX_GAME_LENGTH`) caps the actions of the players in one game: a game that reaches it
unfinished is truncated — terminal, with the scores as they stand (shifted equally to the declared
sum in a zero- or constant-sum game) — as OpenSpiel's ``max_game_length`` expects.  Actions are the
game's action ids (:mod:`interpreter.runtime.action_ids`); in a staged action space each OpenSpiel action is
one stage of a decision and the same player moves again until the action is whole.  Observation and
information-state tensors and strings come from the seat's view only (:mod:`interpreter.runtime.observations`).
``state.clone()`` shares the engine state copy-on-write and shares the game; the first action on a
fresh clone (``child``) reaches a state kept for tree searches (:class:`MatchHandle`).  States
serialize through the engine's exact JSON, with the generator's state, both by ``state.serialize()``
and ``pyspiel.serialize_game_and_state``; the game string (``str(game)``) rebuilds the game.
``apply_action`` and ``child`` called from Python are answered in Python (no C++ callbacks, no C++
``Clone``), OpenSpiel's C++ history catching up when read (:mod:`interpreter.adapters.openspiel_history`).

Search: OpenSpiel's Python ``ISMCTSBot`` works with :func:`resampler` (``State.determinize``) as
its resampler; :class:`EvaluationEvaluator` evaluates a sampled state with the ruleset's
``evaluate``.  What does not work with a Python game: OpenSpiel's C++ bots and algorithms that need
a C++ game, and ``MCTSBot``, which would search the true state (``clone`` copies hidden cards
exactly) and so plays with knowledge no player has.
"""
from __future__ import annotations

import operator
import random

import pyspiel

from .match import Match, cached_game
from .openspiel_history import DeferredHistory, chain_of, pairs_of
# EvaluationEvaluator and resampler are the module's public tools too (adapter.resampler)
from .openspiel_tools import EvaluationEvaluator, RulebookObserver, resampler, utilities  # noqa: F401
from .ruleset_facts import draws_chance, perfect_information

MAX_GAME_LENGTH = 10_000  # the default cap on the players' actions in one game
_DEFAULTS = {"ruleset": "classic/kuhn-poker", "players": 0, "params": "", "seed": -1, "utility": "score",
             "explicit_chance": False, "zero_sum": False, "max_game_length": MAX_GAME_LENGTH}
UTILITIES = ("score", "margin", "win")
SCORE_BOUND = 1e9  # the scores of a ruleset are not bounded in advance
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_STATE_INIT = pyspiel.State.__init__
TREE_BYTES = 256 * 2**20  # about the memory one tree of kept children may take (see MatchHandle)
STATE_BYTES_PER_JSON_BYTE = 8  # an engine state in memory, against the length of its JSON (measured: 5-7)
MIN_TREE_STATES = 1_000
MIN_CHANCE_OUTCOMES = 6  # explicit chance: a shuffle has at most one outcome per component, a die 6 sides


def game_type(chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
              information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
              utility=pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    """The game type with this chance mode, information and sum of utilities."""
    return pyspiel.GameType(
        short_name="rulebook",
        long_name="rulebook ruleset",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance_mode,
        information=information,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=dict(_DEFAULTS))


GAME_TYPE = game_type()


def _utility_sum(rulebook, utility: str, zero_sum: bool):
    """What the game's utilities add up to (None: general sum)."""
    if zero_sum or (rulebook.num_players == 2 and utility != "score"):
        return 0.0
    declared = rulebook.ruleset.score_sum
    return None if declared is None or utility == "win" else float(declared)


def _type_of(rulebook, explicit_chance: bool, utility_sum) -> pyspiel.GameType:
    Type = pyspiel.GameType
    chance = Type.ChanceMode.DETERMINISTIC
    if explicit_chance and draws_chance(rulebook.ruleset):
        chance = Type.ChanceMode.EXPLICIT_STOCHASTIC
    information = (Type.Information.PERFECT_INFORMATION if perfect_information(rulebook.ruleset, explicit_chance)
                   else Type.Information.IMPERFECT_INFORMATION)
    if utility_sum is None:
        return game_type(chance, information, Type.Utility.GENERAL_SUM)
    return game_type(chance, information, Type.Utility.ZERO_SUM if utility_sum == 0 else Type.Utility.CONSTANT_SUM)


def params_text(values: dict) -> str:
    """The ``params`` game parameter of these ruleset parameters, as the game string writes it."""
    return " ".join(f"{name}:{str(value).lower() if isinstance(value, bool) else value}"
                    for name, value in sorted(values.items()))


def engine_game(ruleset: str, players: int, params: str):
    """The engine's game for the adapter's parameters (loaded once per process)."""
    return cached_game(ruleset, players or None, _parse_params(params))


def _parse_params(text: str) -> dict:
    """The ruleset's parameters from ``name:value`` (or ``name=value``) pairs separated by spaces."""
    values = {}
    for pair in text.split():
        name, _, raw = pair.partition("=" if "=" in pair.split(":", 1)[0] else ":")
        low = raw.lower()
        if low in ("true", "false"):
            values[name] = low == "true"
        else:
            try:
                values[name] = int(raw)
            except ValueError:
                values[name] = raw
    return values


class RulebookGame(pyspiel.Game):
    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        params["params"] = params_text(_parse_params(str(params["params"])))
        self.spec = (str(params["ruleset"]), int(params["players"]), str(params["params"]))
        self.rulebook = engine_game(*self.spec)
        self.space = self.rulebook.action_space()
        self.utility = str(params["utility"])
        if self.utility not in UTILITIES:
            raise ValueError(f"utility must be one of {', '.join(UTILITIES)}")
        bound = 1.0 if self.utility == "win" else SCORE_BOUND
        self.returns_sum = _utility_sum(self.rulebook, self.utility, bool(params["zero_sum"]))
        self.explicit_chance = bool(params["explicit_chance"])
        # rules that draw no random number have no chance node to show: their states run seeded
        self.explicit_states = self.explicit_chance and draws_chance(self.rulebook.ruleset)
        self.decision_cap = int(params["max_game_length"])
        if self.decision_cap < 1:
            raise ValueError("max_game_length must be at least 1")
        chance_outcomes = max(self.rulebook.num_components, MIN_CHANCE_OUTCOMES) if self.explicit_chance else 0
        info = pyspiel.GameInfo(num_distinct_actions=self.rulebook.num_distinct_actions(),
                                max_chance_outcomes=chance_outcomes,
                                num_players=self.rulebook.num_players, min_utility=-bound, max_utility=bound,
                                utility_sum=self.returns_sum, max_game_length=self.decision_cap)
        super().__init__(_type_of(self.rulebook, self.explicit_chance, self.returns_sum), info, params)
        seed = int(params["seed"])
        self._seeds = random.Random(seed if seed >= 0 else None)
        self._pending = None  # [seed, match or None]: the next new game, built at most once
        self._root = None  # explicit chance: the match every new game starts from (never changed)

    def pending_seed(self) -> int:
        """The seed of the next new game (a state takes it when first used)."""
        if self._pending is None:
            self._pending = [self._seeds.getrandbits(63), None]
        return self._pending[0]

    def peek(self, seed) -> Match:
        """The match of a game with this seed, to be looked at only (OpenSpiel observes a new
        initial state each time it asks for a tensor's size: that must not cost a new game)."""
        if self._pending is not None and self._pending[0] == seed:
            if self._pending[1] is None:
                self._pending[1] = self._new_match(seed)
            return self._pending[1]
        return self._new_match(seed)

    def take(self, seed) -> Match:
        """The match of a game with this seed, to be played."""
        if self._pending is not None and self._pending[0] == seed:
            match = self._pending[1]
            self._pending = None
            if match is not None:
                return match
        return self._new_match(seed)

    def next_match(self) -> tuple:
        """``(seed, match)`` of the next new game, to be played (the pending one if it was looked at)."""
        pending = self._pending
        if pending is None:  # the usual case: nobody looked at it
            seed = self._seeds.getrandbits(63)
            return seed, self._new_match(seed)
        self._pending = None
        return pending[0], pending[1] if pending[1] is not None else self._new_match(pending[0])

    def _new_match(self, seed) -> Match:
        return Match(self.rulebook.new_initial_state(seed, explicit_chance=self.explicit_states),
                     (), None, 0, self.decision_cap, self.space)

    def new_initial_state(self):
        if not self.explicit_states:
            return SeededState(self)
        if self._root is None:  # every game starts at the same chance node: one shared tree below it
            self._root = self._new_match(self._seeds.getrandbits(63))
        return RulebookState(self, MatchHandle(self._root, None, True, self))

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return RulebookObserver(self.rulebook, perfect_recall)


class MatchHandle:
    """The match of a state, shared copy-on-write with the states cloned from it.  OpenSpiel clones a
    Python state by deep-copying each of its attributes: the copy of a handle shares the match, and
    the first of the states to change it takes a copy of its own then.  The first action applied to
    a fresh copy (``state.child(action)``, or ``clone()`` then ``apply_action``: what tree searches
    such as CFR, best response and alpha-beta do, again and again for the same states) reaches a
    match kept in the parent's ``children`` (:meth:`Match.kept_child`), which is never changed; so does
    an outcome applied at a kept chance node (the deal below the shared explicit-chance root is kept
    once, for every game that is dealt the same).  Before the match is made the handle holds the seed of the game it will be (``match`` None).
    ``game`` is the :class:`RulebookGame` (None in a handle unpickled: the state then asks OpenSpiel);
    ``past``, ``length``, ``synced`` and ``replay``: the state's history of actions, and how much of
    it OpenSpiel's C++ history holds (:mod:`interpreter.adapters.openspiel_history`)."""

    __slots__ = ("match", "seed", "shared", "fresh", "game", "past", "length", "synced", "replay")

    def __init__(self, match=None, seed=None, shared=False, game=None, pairs=(), synced=0):
        self.match = match
        self.seed = seed
        self.shared = shared
        self.fresh = shared  # a copy no action was applied to yet
        self.game = game
        self.past = chain_of(pairs) if pairs else None
        self.length = len(pairs)
        self.synced = synced
        self.replay = None

    def copy(self) -> "MatchHandle":
        """The handle of a copy of the state: the same match, shared from now on, and history."""
        if self.match is None:
            new = MatchHandle(None, self.seed, False, self.game)
        else:
            self.shared = True
            new = MatchHandle(self.match, self.seed, True, self.game)
        new.past, new.length, new.synced = self.past, self.length, self.synced
        return new

    def __deepcopy__(self, memo) -> "MatchHandle":
        return self.copy()

    def __reduce__(self):
        return (MatchHandle, (self.match, self.seed, False, None, pairs_of(self.past, self.length), self.synced))


def tree_budget(match) -> int:
    """How many matches one tree of kept children may hold: about :data:`TREE_BYTES` of states the
    size of this one."""
    return max(MIN_TREE_STATES, TREE_BYTES // (STATE_BYTES_PER_JSON_BYTE * len(match.state.to_json())))


class RulebookState(DeferredHistory, pyspiel.State):
    """An OpenSpiel state over a :class:`Match` (held by a :class:`MatchHandle`).  The match is made
    when the state is first used (a state OpenSpiel makes only to copy another into, by ``Clone`` or
    ``DeserializeState``, costs nothing); until it is played, looking at it shows the next new game
    without taking it.  ``state.match`` is for looking at: it may be shared with other states."""

    def __init__(self, game, handle=None):
        _STATE_INIT(self, game)
        self._handle = MatchHandle(None, None, False, game) if handle is None else handle

    def _bare_copy(self) -> "RulebookState":
        """A copy made in Python, sharing the match copy-on-write, with an empty C++ history."""
        handle = self._handle.copy()
        handle.synced = 0
        return type(self)(self._game(), handle)

    def _game(self) -> RulebookGame:
        game = self._handle.game
        return game if game is not None else self.get_game()

    @property
    def match(self) -> Match:
        handle = self._handle
        if handle.match is None:
            game = handle.game if handle.game is not None else self.get_game()  # _game() in line
            if handle.seed is not None:
                handle.match = game.take(handle.seed)
            elif game._pending is None:  # the usual first use of a new game (next_match in line)
                seed = handle.seed = game._seeds.getrandbits(63)
                handle.match = game._new_match(seed)
            else:
                handle.seed, handle.match = game.next_match()
        return handle.match

    def seen_match(self) -> Match:
        """The match, for looking at only (see the class's docstring)."""
        handle = self._handle
        if handle.match is not None:
            return handle.match
        game = self._game()
        if handle.seed is None:
            handle.seed = game.pending_seed()
        return game.peek(handle.seed)

    def current_player(self):
        handle = self._handle
        if handle.replay is not None:  # an action being handed over to the C++ history
            return handle.replay
        seat = (handle.match or self.match).current_player()
        return _TERMINAL if seat is None else seat

    def _legal_actions(self, player):
        match = self._handle.match or self.match
        return match.legal_ids() if player == match.current_player() else []

    # legal_actions and is_chance_node answer Python callers here, not through C++ (which calls back
    # current_player, is_terminal and _legal_actions: five calls from C++ into Python); C++ callers
    # still reach _legal_actions and current_player
    def legal_actions(self, player=None):
        match = self._handle.match or self.match
        return match.legal_ids() if player is None or player == match.current_player() else []

    def is_chance_node(self):
        match = self._handle.match or self.match
        record = match.state.chance
        if record is None or record.count is None:  # seeded, or at a decision: no call
            return False
        return match.current_player() == _CHANCE

    def chance_outcomes(self):
        """``(outcome, probability)`` at a chance node (explicit chance only)."""
        match = self.match
        listed = match.seen.get("chance")
        if listed is None:
            listed = match.seen["chance"] = [(outcome.index, p) for outcome, p in match.state.chance_outcomes()]
        return list(listed)

    def apply_action(self, action) -> None:
        """As :meth:`DeferredHistory.apply_action`, with the usual case of :meth:`_take_action` in
        line: an action at a decision of a match of this state's own."""
        if type(action) is not int:
            action = operator.index(action)
        handle = self._handle
        match = handle.match
        record = None if match is None else match.state.chance
        if match is not None and not handle.shared and (record is None or record.count is None):
            player = match.state.decider
            match.apply_id(action)
            if player is None:
                player = _TERMINAL
        else:
            player = self._take_action(action)
        handle.past = (handle.past, player, action)
        handle.length += 1

    def _take_action(self, action) -> int:
        """Apply an action (or a chance outcome); the player who took it, as OpenSpiel numbers them."""
        handle = self._handle
        match = handle.match
        if match is not None and not handle.shared:  # the usual case, first
            state = match.state  # a legal action is taken at a decision, by its decider (no call)
            record = state.chance
            player = state.decider if record is None or record.count is None else match.current_player()
            match.apply_id(action)
            return _TERMINAL if player is None else player
        if match is None:
            match = self.match
        player = match.current_player()
        if handle.shared:
            if handle.fresh or (match.tree is not None and player == _CHANCE):
                # the first action on a fresh copy, or an outcome at a kept chance node: so the
                # chance nodes below a kept one (a deal from the shared explicit-chance root) are kept too
                handle.fresh = False
                handle.match, handle.shared = match.kept_child(action, tree_budget)
            else:
                handle.match, handle.shared = match.child(action), False
        else:
            match.apply_id(action)
        return _TERMINAL if player is None else player

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {int(action) + 1}"
        return self._game().rulebook.action_space().describe_id(int(action))

    def is_terminal(self):
        match = self._handle.match or self.match  # Match.is_terminal in line: asked before every action
        return match.state.over or (match.limit is not None and match.steps >= match.limit)

    def returns(self):
        match = self._handle.match or self.match
        if not match.is_terminal():
            return [0.0] * match.game.num_players
        values = match.seen.get("returns")
        if values is None:
            values = match.seen["returns"] = self._final_returns(match)
        return list(values)

    def _final_returns(self, match) -> list:
        game = self._game()
        if game.utility == "win":
            winners = set(match.winners())
            won = 1.0 if len(winners) == 1 else 0.0
            return [won if p in winners else -1.0 for p in range(match.game.num_players)]
        values = utilities(match.returns(), game.utility)
        if match.truncated and game.returns_sum is not None:
            shift = (game.returns_sum - sum(values)) / len(values)
            values = [v + shift for v in values]
        return values

    def information_state_string(self, player=None):
        return self.seen_match().information_state_string(self.current_player() if player is None else player)

    def observation_string(self, player=None):
        return self.seen_match().observation_string(self.current_player() if player is None else player)

    def determinized(self, player, rng) -> "RulebookState":
        """A copy in which what ``player`` cannot see is dealt anew (``State.determinize``)."""
        new = self.clone()
        handle = new._handle
        handle.match, handle.shared, handle.fresh = self.match.determinized(player, rng), False, False
        return new

    def __str__(self):
        return self.match.state.to_json() + "\n" + repr(self.match.prefix)


class SeededState(RulebookState):
    """A state of a game without chance nodes (seeded mode, or rules that draw no random number)."""

    def is_chance_node(self):
        return False


pyspiel.register_game(GAME_TYPE, RulebookGame)
