"""A match as the adapters see it: an engine state, the staged choice in progress (in a staged
action space, see :mod:`interpreter.runtime.action_ids`), the actions taken so far and a cap on them.

Every decision is taken as ids: ``legal_ids()`` and ``apply_id(i)``.  In a flat space one id is one
action; in a staged space each id is one stage, the prefix is kept here until it names a whole
action, and only then is the engine state changed.  Clones, observations and information-state
strings include the prefix (the deciding seat's own partial choice, which no other seat sees).

``limit`` caps the ids the players take (chance outcomes are not counted): a match that reaches it
unfinished is *truncated* — it counts as over (``is_terminal()``, nobody to move) and its returns are
the scores as they stand.
"""
from __future__ import annotations

import json
from pathlib import Path

from dsl.errors import IllegalActionError

from ..game import load_game
from ..runtime.chance import CHANCE, action_child, outcome_child
from ..runtime.chance import apply as explicit_step
from ..runtime.observations import Observer, action_text, information_state_string, observation_string


class Match:
    __slots__ = ("state", "prefix", "history", "seen", "numbering", "steps", "limit", "children", "tree", "space")

    def __init__(self, state, prefix=(), history=None, steps=0, limit=None, space=None):
        self.state = state
        self.prefix = prefix if type(prefix) is tuple else tuple(prefix)
        self.history = list(history) if history else []  # (actor seat, public, action or its text, prompt, ids) per action
        self.seen: dict = {}  # what seats saw of the current position (cleared by every move)
        self.numbering = None  # a flat decision's legal numbering (ActionSpace.legal_numbering), once asked
        self.steps = steps  # ids taken by the players
        self.limit = limit  # the cap on steps (None: none)
        self.children = None  # {id: the match after it}, kept by kept_child, never changed
        self.tree = None  # [how many more the tree of kept children may keep], shared by the tree
        self.space = space if space is not None else state.game.action_space()  # the game's action ids

    @property
    def game(self):
        return self.state.game

    def current_player(self):
        state = self.state
        if state.over or (self.limit is not None and self.steps >= self.limit):
            return None  # over, or truncated
        record = state.chance
        return CHANCE if record is not None and record.count is not None else state.decider

    @property
    def truncated(self) -> bool:
        """Whether the match reached its cap unfinished."""
        return self.limit is not None and self.steps >= self.limit and not self.state.over

    def is_terminal(self) -> bool:
        return self.state.over or (self.limit is not None and self.steps >= self.limit)

    def winners(self) -> list:
        """The seats with the best (score, tie-breaks…), of a finished or a truncated match."""
        if not self.truncated:
            return self.state.winners()
        keys = [self.game.rank_key(self.state, p) for p in range(self.game.num_players)]
        return [p for p, key in enumerate(keys) if key == max(keys)]

    def legal_ids(self) -> list:
        numbering = self.numbering  # a flat decision's ids, with their positions for apply_id
        if numbering is None:
            state = self.state
            record = state.chance
            if (record is None or record.count is None) and not state.over and not self.space.staged and \
                    (self.limit is None or self.steps < self.limit):  # the usual case: a decision, flat space
                numbering = self.numbering = self.space.legal_numbering(state)
            else:
                return self._other_legal_ids()
        return list(numbering[0])

    def _other_legal_ids(self) -> list:
        """:meth:`legal_ids` at a chance node, at the end, at a truncation or in a staged space."""
        seen = self.seen
        ids = seen.get("legal ids")
        if ids is None:
            state = self.state
            record = state.chance
            if state.over or (self.limit is not None and self.steps >= self.limit):
                ids = []
            elif record is not None and record.count is not None:
                ids = [outcome.index for outcome, _ in state.chance_outcomes()]
            else:
                ids = self.space.legal_ids(state, self.prefix)
            seen["legal ids"] = ids
        return list(ids)

    def apply_id(self, i: int, _copy: bool = False) -> None:
        """Take one id: a whole action (flat) or one stage (staged); at a chance node, an outcome
        (which no seat sees: it shows only in what the seats' views show afterwards).  ``_copy``
        (:meth:`child`, flat space, explicit chance, at a decision): the state is shared with the
        parent match, and a whole action makes this match a new state instead of changing it."""
        state = self.state
        record = state.chance
        if record is not None and record.count is not None:
            self.seen = {}
            self.numbering = None
            state.apply_action(int(i))
            return
        limit = self.limit
        if limit is not None and self.steps >= limit and not state.over:  # truncated
            raise IllegalActionError(f"the match reached its cap of {limit} steps",
                                     hint="it is over (truncated): start a new one")
        space = self.space
        if not space.staged:  # the usual case, first: one id, one action
            numbering = self.numbering or space.legal_numbering(state)
            position = numbering[1].get(i)
            if position is None:
                raise IllegalActionError(f"the id {i} is not legal now",
                                         hint="choose one of the legal ids (the action mask)")
            action, ids = numbering[2][position], (i,)
        else:
            if i not in space.legal_ids(state, self.prefix):
                raise IllegalActionError(f"the id {i} is not legal at this stage",
                                         hint="choose one of the legal ids (the action mask)")
            ids = self.prefix + (i,)
            table = space.legal_table(state)
            if ids not in table:
                self.steps += 1
                self.prefix = ids
                self.seen = {}
                return
            self.prefix, action = (), table[ids]
        # a whole action of the deciding seat, applied to the state itself (explicit chance: by the
        # step of chance.apply, which State.apply_action would call after its checks) or (_copy,
        # explicit chance) to a copy this match takes instead
        option = action.option
        self.history.append((state.decider, option.public, action, space.prompts[option], ids))
        if self.seen:
            self.seen = {}
        self.numbering = None
        self.steps += 1
        if record is None:
            state.apply_action(action)
        elif _copy:
            self.state = action_child(state, action)
        else:
            explicit_step(state, action)

    def clone(self) -> "Match":
        return Match(self.state.clone(), self.prefix, self.history, self.steps, self.limit, self.space)

    def child(self, i: int) -> "Match":
        """The match after id ``i``, this one unchanged (a copy, then ``apply_id``; in explicit chance
        the engine makes the state after an outcome or an action without copying this one first:
        :func:`~interpreter.runtime.chance.outcome_child`, :func:`~interpreter.runtime.chance.action_child`)."""
        record = self.state.chance
        if record is not None and record.count is not None:
            return Match(outcome_child(self.state, int(i)), self.prefix, self.history, self.steps, self.limit,
                         self.space)
        if record is not None and not self.space.staged:  # explicit chance: the step copies the state once
            child = Match(self.state, self.prefix, self.history, self.steps, self.limit, self.space)
            child.apply_id(i, True)
            return child
        child = self.clone()
        child.apply_id(i)
        return child

    def kept_child(self, i: int, budget) -> tuple:
        """The match after id ``i``, kept in ``children`` while the tree this match belongs to has
        room (``budget(self)``: how many matches a new tree may keep), and whether it was kept.  A
        kept match must never be changed: it is there for whoever asks for the same child again."""
        children = self.children
        if children is not None and i in children:
            return children[i], True
        child = self.child(i)
        tree = self.tree
        if tree is None:
            tree = self.tree = [budget(self)]
        if tree[0] <= 0:
            return child, False
        tree[0] -= 1
        child.tree = tree
        if children is None:
            children = self.children = {}
        children[i] = child
        return child, True

    def __deepcopy__(self, memo) -> "Match":
        return self.clone()  # the game is shared, never copied

    def __reduce__(self):
        """Pickled as its exact JSON and how to load its game, never the game itself."""
        game = self.game
        return (_restore, (game.path, game.num_players, json.dumps(game.params, sort_keys=True), self.to_dict()))

    def determinized(self, seat, rng) -> "Match":
        """A copy in which what ``seat`` cannot see is dealt anew (``State.determinize``)."""
        return Match(self.state.determinize(seat, rng), self.prefix, self.history, self.steps, self.limit, self.space)

    def returns(self) -> list:
        return [float(r) for r in self.state.returns()]

    # ---- what a seat sees ----------------------------------------------------------------------
    def _own_prefix(self, seat) -> str:
        if self.prefix and seat == self.state.current_player():
            return "choosing: " + " / ".join(self.space.describe_id(i) for i in self.prefix)
        return ""

    def _view_text(self, seat) -> str:
        key = ("view", seat)
        if key not in self.seen:
            self.seen[key] = observation_string(self.state, seat)
        return self.seen[key]

    def observation_string(self, seat) -> str:
        extra = self._own_prefix(seat)
        text = self._view_text(seat)
        return f"{text}\n{extra}" if extra else text

    def information_state_string(self, seat) -> str:
        key = ("information state", seat)
        if key not in self.seen:
            self.seen[key] = information_state_string(self._view_text(seat), seat, self.history,
                                                      self._own_prefix(seat))
        return self.seen[key]

    def to_dict(self) -> dict:
        return {"state": self.state.to_dict(), "prefix": list(self.prefix),
                "history": [[seat, public, action if isinstance(action, str) else action_text(action), prompt,
                             list(ids)] for seat, public, action, prompt, ids in self.history],
                "steps": self.steps, "limit": self.limit}

    @classmethod
    def from_dict(cls, game, data) -> "Match":
        return cls(game.state_from_json(data["state"]), tuple(data.get("prefix", ())),
                   [tuple(entry[:4]) + (tuple(entry[4]),) for entry in data.get("history", ())],
                   int(data.get("steps", 0)), data.get("limit"))


_GAMES: dict = {}


def cached_game(source, players=None, params=None):
    """A loaded game, loaded once per process for the same ruleset, players and parameters."""
    key = (str(source), players, json.dumps(params or {}, sort_keys=True))
    if key not in _GAMES:
        game = load_game(source, params=params or None, players=players)
        same = (str(Path(game.path).resolve()), game.num_players, json.dumps(game.params, sort_keys=True))
        _GAMES[key] = _GAMES.setdefault(same, game)
    return _GAMES[key]


def _restore(path, players, params, data) -> Match:
    return Match.from_dict(cached_game(path, players, json.loads(params)), data)


class MatchObserver:
    """The numeric observation of a seat in a match: the engine's :class:`Observer` vector, then (in
    a staged space) the deciding seat's own prefix as counts over the stage ids.  With
    ``history=True`` (the information-state tensor) two more blocks follow, counts over the ids of
    the actions the seat took and of the public actions of the others."""

    def __init__(self, game, history=False):
        self.space = game.action_space()
        self.observer = Observer(game, self.space.strings)
        self.history = history
        names = (["own partial choice"] if self.space.staged else []) + (
            ["own actions", "others' public actions"] if history else [])
        self.layout = list(self.observer.layout)  # (what, start, length) of each block
        self.size = self.observer.size
        for name in names:
            self.layout.append((f"{name} (counts over the ids)", self.size, self.space.size))
            self.size += self.space.size

    def encode(self, match, seat) -> list:
        key = ("vector", seat)
        if key not in match.seen:
            match.seen[key] = self.observer.encode(match.state, seat)
        out = list(match.seen[key])
        size = self.space.size
        if self.space.staged:
            prefix = [0.0] * size
            if seat == match.current_player():
                for i in match.prefix:
                    prefix[i] += 1.0
            out += prefix
        if self.history:
            own, public = [0.0] * size, [0.0] * size
            for actor, is_public, _, _, ids in match.history:
                if actor == seat or is_public:
                    counts = own if actor == seat else public
                    for i in ids:
                        counts[i] += 1.0
            out += own + public
        return out
