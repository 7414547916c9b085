"""A zone's components in explicit chance mode, part of whose order is not decided yet (a lazy shuffle).

A shuffle that no seat sees does not order its pile in explicit chance mode (:mod:`interpreter.runtime.chance`):
the pile is *undetermined* from position ``lo`` up to, not including, ``hi`` (0 is the bottom), and the
components there are kept sorted by id, an order that means nothing.  The first read that needs to know
which component lies at an undetermined position becomes a chance node over the components still
undetermined, each equally likely (outcome ``j``: the ``j``-th of them by id); that fixes the position.
The top of the block is fixed first for a read of the top (a draw), the bottom first for a read of the
bottom; a position inside fixes the positions between it and the nearer end first.  So dealing n cards
from a shuffled deck asks n chance questions of n, n - 1, ... outcomes, as dealing one card at a time
does, and a pile of which only the top cards are ever drawn never orders the rest.

What does not depend on the order fixes nothing: the size, ``in``, ``count``, taking a named component
out (the rest stays undetermined, uniformly), putting components on top or under the bottom, moving the
whole pile (``move_all``, see :func:`move_pile`) and shuffling again.  Everything
else that reads positions (iterating, an index, a slice, ``index``, concatenation, ``==``) fixes what
it reads, the whole block for iteration, so every reader of zones (the rules' compiled code, views,
narration) stays correct unchanged.  Internal reads that do not depend on the order use :func:`raw`.  Seeded mode keeps plain lists and never builds one of these.
"""
from __future__ import annotations

from weakref import ref

_get, _pop, _insert, _index = list.__getitem__, list.pop, list.insert, list.index


def _nobody():
    return None


class LazyPile(list):
    """A zone's list in explicit chance mode; ``state`` is the state it belongs to (whose ``chance``
    hands out the outcomes), ``lo``/``hi`` its undetermined block (``0, 0``: none).  The pile holds
    its state by a weak reference (``owner``): the state holds the pile, and a cycle would leave
    every copy of a state to Python's slower cycle collector."""

    __slots__ = ("owner", "lo", "hi")

    def __init__(self, items=(), state=None, lo: int = 0, hi: int = 0):
        list.__init__(self)
        list.extend(self, items)  # ``items`` is a plain list (see raw())
        self.state, self.lo, self.hi = state, lo, hi

    @property
    def state(self):
        return self.owner()

    @state.setter
    def state(self, state) -> None:
        self.owner = _nobody if state is None else ref(state)

    # ---- the undetermined block --------------------------------------------------------------
    def undetermined(self) -> int:
        """How many components have no fixed position."""
        return self.hi - self.lo

    def mark_undetermined(self, lo: int, hi: int) -> None:
        """Forget the order of positions ``lo`` to ``hi`` (exclusive)."""
        list.__setitem__(self, slice(lo, hi), sorted(_get(self, slice(lo, hi))))
        self.lo, self.hi = lo, hi
        self._normal()

    def _normal(self) -> None:
        if self.hi - self.lo < 2:  # one component left undetermined has only one place
            self.lo = self.hi = 0

    def _pick(self) -> int:
        """Ask chance which undetermined component comes next (its position)."""
        return self.lo + self.owner().chance.next(self.hi - self.lo)

    def _fix_top(self) -> None:
        _insert(self, self.hi - 1, _pop(self, self._pick()))
        self.hi -= 1
        self._normal()

    def _fix_bottom(self) -> None:
        _insert(self, self.lo, _pop(self, self._pick()))
        self.lo += 1
        self._normal()

    def fix(self, i: int) -> None:
        """Decide which component lies at position ``i`` (0 <= i < len), by chance if undetermined."""
        while self.lo <= i < self.hi:
            if i - self.lo < self.hi - 1 - i:
                self._fix_bottom()
            else:
                self._fix_top()

    def fix_all(self) -> None:
        """Decide the whole order, the top first (as dealing does)."""
        while self.hi:
            self._fix_top()

    def top_is(self, c) -> bool:
        """Whether ``c`` is known to be the top component (no chance asked)."""
        n = len(self)
        return n > 0 and self.hi < n and _get(self, n - 1) == c

    # ---- reads that depend on the order ---------------------------------------------------------
    def __getitem__(self, key):
        if self.hi:
            if type(key) is int:
                self.fix(key + len(self) if key < 0 else key)
            elif type(key) is slice:
                for i in range(*key.indices(len(self))):
                    self.fix(i)
        return _get(self, key)

    def __iter__(self):
        if self.hi:
            self.fix_all()
        return list.__iter__(self)

    def __reversed__(self):
        if self.hi:
            self.fix_all()
        return list.__reversed__(self)

    def index(self, *args):
        self.fix_all()
        return _index(self, *args)

    def copy(self) -> list:
        self.fix_all()
        return list.copy(self)

    def __add__(self, other):
        self.fix_all()
        return list.__add__(list.copy(self), list(other))

    def __radd__(self, other):
        self.fix_all()
        return list(other) + list.copy(self)

    def __mul__(self, n):
        self.fix_all()
        return list.__mul__(self, n)

    __rmul__ = __mul__

    def __eq__(self, other):
        self.fix_all()
        return list.__eq__(self, other)

    def __ne__(self, other):
        self.fix_all()
        return list.__ne__(self, other)

    __hash__ = None

    # ---- changes -------------------------------------------------------------------------------
    def pop(self, i: int = -1):
        p = i + len(self) if i < 0 else i
        if self.lo <= p < self.hi:
            self.fix(p)
        c = _pop(self, i)
        if p < self.lo:
            self.lo -= 1
            self.hi -= 1
        self._normal()
        return c

    def remove(self, c) -> None:
        p = _index(self, c)
        list.__delitem__(self, p)
        if p < self.lo:
            self.lo -= 1
            self.hi -= 1
        elif p < self.hi:
            self.hi -= 1
        self._normal()

    def insert(self, i: int, c) -> None:
        n = len(self)
        p = max(0, min(n, i + n if i < 0 else i))
        if self.lo < p < self.hi:
            self.fix_all()
        _insert(self, i, c)
        if self.hi and p <= self.lo:
            self.lo += 1
            self.hi += 1

    def __setitem__(self, key, value) -> None:
        self.fix_all()
        list.__setitem__(self, key, value)

    def __delitem__(self, key) -> None:
        self.fix_all()
        list.__delitem__(self, key)

    def clear(self) -> None:
        list.clear(self)
        self.lo = self.hi = 0

    def reverse(self) -> None:
        self.fix_all()
        list.reverse(self)

    def sort(self, **how) -> None:
        self.fix_all()
        list.sort(self, **how)

    def __imul__(self, n):
        self.fix_all()
        return list.__imul__(self, n)

    def __reduce__(self):
        return (LazyPile, (), (self.state, self.lo, self.hi), iter(raw(self)))

    def __setstate__(self, state) -> None:
        self.state, self.lo, self.hi = state


def raw(pile) -> list:
    """The components of a zone as stored (an undetermined block in id order), fixing nothing."""
    return _get(pile, slice(None))


# A state's zones in explicit chance mode (interpreter.runtime.chance): copied, saved, loaded, shuffled, moved.

def raw_zones(s) -> list:
    """Copies of the zones' lists as stored (``State.to_dict()['zones']``), fixing nothing."""
    return [raw(pile) for pile in s.zones]


def copy_piles(zones, new) -> list:
    """The zones of ``new``, a copy of a state whose zones are ``zones``: a lazy pile for each zone
    with an undetermined block (made without calling ``LazyPile``, which costs seven times as much),
    a plain list for the others (a zone becomes a lazy pile when it gets a block: see
    :func:`shuffle_lazily` and :func:`move_pile`).  This runs at every copy of a state."""
    copies = []
    for pile in zones:
        if type(pile) is LazyPile and pile.hi:
            copy = _new_pile(LazyPile)
            _extend(copy, _all(pile, _WHOLE))
            copy.owner = ref(new)
            copy.lo, copy.hi = pile.lo, pile.hi
        else:
            copy = _all(pile, _WHOLE)
        copies.append(copy)
    return copies


_new_pile, _extend, _all, _WHOLE = LazyPile.__new__, list.extend, list.__getitem__, slice(None)


def restore_piles(s, blocks) -> str:
    """Give the zones of ``s`` (a saved state being loaded) their saved undetermined blocks (as lazy
    piles); the reason the blocks are wrong, or ''."""
    s.zones = copy_piles(s.zones, s)
    for key, (lo, hi) in (blocks or {}).items():
        zone = int(key) if key.isdigit() and key.isascii() else -1
        if not 0 <= zone < len(s.zones) or s.game.zone_grid[zone] is not None:
            return f"{key[:20]} is no zone number of a zone that is not a grid"
        pile = s.zones[zone]
        if not 0 <= lo < hi <= len(pile) or hi - lo < 2 or raw(pile)[lo:hi] != sorted(raw(pile)[lo:hi]):
            return f"zone {zone}: [{lo}, {hi}] is no block of two or more of its components in id order"
        s.zones[zone] = LazyPile(raw(pile), s, lo, hi)
    return ""


def shuffle_lazily(s, zone: int) -> bool:
    """Shuffle a zone in explicit mode by forgetting its order (False for a grid, shuffled as before)."""
    if s.game.zone_grid[zone] is not None:
        return False
    pile = s.zones[zone]
    if type(pile) is not LazyPile:  # a list set up by an arrangement
        pile = s.zones[zone] = LazyPile(pile, s)
    keep = s.game.visible_mask(s, zone)
    known = s.known
    for c in raw(pile):
        known[c] &= keep
    pile.mark_undetermined(0, len(pile))
    return True


def move_pile(s, source: int, to: int, bottom: bool) -> bool:
    """``move_all`` in explicit mode of a zone with an undetermined block, keeping the block
    undetermined where it lands; False (move card by card) if a trigger must see each component, the
    target is a grid or has an undetermined block of its own (two blocks do not make one)."""
    game = s.game
    pile, target = s.zones[source], s.zones[to]
    if (type(pile) is not LazyPile or not pile.hi or (type(target) is LazyPile and target.hi)
            or game.zone_grid[to] is not None or game.zone_triggers[source] is not None
            or game.zone_triggers[to] is not None or source == to):
        return False
    if type(target) is not LazyPile:
        target = s.zones[to] = LazyPile(target, s)
    n, lo, hi, before = len(pile), pile.lo, pile.hi, len(target)
    while pile:
        s.move_component(raw(pile)[-1], to, bottom)
    if bottom:
        target.mark_undetermined(lo, hi)
    else:
        target.mark_undetermined(before + n - hi, before + n - lo)
    return True


def forget_order(s, rng) -> None:
    """Order every undetermined block of ``s`` with ``rng`` (a ``random.Random``), asking no chance:
    a determinization deals hidden components anew anyway."""
    for pile in s.zones:
        if type(pile) is LazyPile and pile.hi:
            block = raw(pile)[pile.lo:pile.hi]
            rng.shuffle(block)
            list.__setitem__(pile, slice(pile.lo, pile.hi), block)
            pile.lo = pile.hi = 0
