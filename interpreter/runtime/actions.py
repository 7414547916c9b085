"""Legal actions: enumerating the options of a decision and naming them.

An action is one option of a decision with a value for each of its parameters.  Bindings that
differ only in which of two interchangeable components they use (same name, same zone, same marks)
are offered once: at each parameter, a component interchangeable with one already tried is skipped.  ``str(action)`` is a stable readable text; texts are made for a whole list at once
so that two different actions never share one.
"""
from __future__ import annotations

from .views import field_text


class Action:
    """One legal action.  Its text (``_text``) is set when the batch names it: unset until then,
    so that making an action stores no more than it must."""

    __slots__ = ("option", "values", "batch", "_text")

    def __init__(self, option, values, batch):
        self.option = option
        self.values = values
        self.batch = batch

    @property
    def name(self) -> str:
        return self.option.name

    @property
    def public(self) -> bool:
        """Whether the ruleset declares this action to be taken openly (its text shown to all)."""
        return self.option.public

    def components(self) -> list:
        """The components this action names."""
        return [v for v, is_c in zip(self.values, self.option.component_params) if is_c and v is not None]

    def __str__(self) -> str:
        try:
            return self._text
        except AttributeError:  # not named yet
            self.batch.name(self)
            return self._text

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Action) and other.option is self.option and other.values == self.values)

    def __hash__(self) -> int:
        return hash((self.option.index, frozen(self.values)))


class ActionBatch:
    """The legal actions of one decision; names them all together on first use.  Made by
    :func:`legal_actions_at`: ``game``, ``actions``, ``cells`` (where the components stood, on a
    grid) and ``context`` (option index -> its text's other fields, as they were when asked).

    Each action refers to its batch and the batch to the list of actions: a cycle, which only the
    garbage collector could free.  When the state leaves the decision it calls :meth:`release`,
    which drops the list (keeping the options and values naming needs, unless every action is named
    already): then a list no one holds any more is freed at once, with its actions."""

    __slots__ = ("game", "actions", "cells", "context", "kept", "texts", "named")

    def name(self, action) -> None:
        """Give ``action`` its text (and its siblings theirs, while the batch holds them)."""
        actions = self.actions
        if actions is not None:
            for sibling, text in zip(actions, self._texts([(a.option, a.values) for a in actions])):
                sibling._text = text
            self.named = True
            return
        texts = self.texts  # released: by (id of option, id of values), made once for the batch
        if texts is None:
            kept = self.kept
            self.texts = texts = {(id(option), id(values)): text
                                  for (option, values), text in zip(kept, self._texts(kept))}
        action._text = texts[id(action.option), id(action.values)]

    def release(self) -> None:
        """Let go of the list of actions (see the class's text)."""
        actions = self.actions
        if actions and not self.named:
            self.kept = [(action.option, action.values) for action in actions]  # they keep the ids alive
            self.texts = None
        self.actions = None

    def _texts(self, entries) -> list:
        """The texts of the actions ``entries`` (option, values), ``[...]`` telling apart those that
        would read the same."""
        game, context = self.game, self.context
        texts = [game.action_text(option, values, context.get(option.index)) for option, values in entries]
        groups: dict = {}
        for entry, text in zip(entries, texts):
            groups.setdefault(text, []).append(entry)
        return [text if len(groups[text]) == 1 else f"{text} [{self._distinction(entry, groups[text])}]"
                for entry, text in zip(entries, texts)]

    def _distinction(self, entry, group) -> str:
        """What tells an action from others of the same text: the cells (on a grid) or ids of the
        components that differ between them."""
        option, values = entry
        parts = []
        for i, is_component in enumerate(option.component_params):
            if not is_component or len({other[i] for _, other in group}) == 1:
                continue
            c = values[i]
            cell = self.cells[c] if self.cells is not None and c is not None else None
            parts.append(self.game.cell_text(cell) if cell is not None else f"#{c}")
        return ", ".join(parts) or "again"


_new = object.__new__


def frozen(value):
    """A hashable copy of a value (lists become tuples)."""
    return tuple(frozen(v) for v in value) if isinstance(value, (list, tuple)) else value


def equivalence(s):
    """The key under which components are interchangeable in this state, as a function of the
    component: its name, zone, cell (on a grid) and marks are the same."""
    game = s.game
    columns = [game.name_index, s.loc] + ([s.cell_of] if game.has_grids else []) + list(s.marks.values())
    if len(columns) == 2:
        a, b = columns
        return lambda c: (a[c], b[c]) if c is not None else None
    if len(columns) == 3:
        a, b, d = columns
        return lambda c: (a[c], b[c], d[c]) if c is not None else None
    if len(columns) == 4:
        a, b, d, f = columns
        return lambda c: (a[c], b[c], d[c], f[c]) if c is not None else None
    return lambda c: tuple(column[c] for column in columns) if c is not None else None


def legal_actions_at(s, env, spec, player) -> list:
    """Every legal action of the decision ``spec`` for ``player`` in state ``s``."""
    out = []
    enumerate_ = spec.enumerate
    if enumerate_ is not None:  # generated by interpreter/codegen/actions.py, which changes neither s nor env
        batch = enumerate_(s, env, out)  # made with the first action: none where nothing is offered
        if batch is not None:
            for option in spec.with_context:  # the texts' other fields, as they are now
                batch.context[option.index] = _context(s, env, option, player)
        return out
    batch = new_batch(s, out)
    local = dict(env)
    key_of = equivalence(s)
    for option in spec.options:
        if option.context:
            batch.context[option.index] = _context(s, local, option, player)
        if option.decline:
            if out:
                out.append(Action(option, (), batch))
            continue
        checks = option.checks
        if checks[0] is not None and not checks[0](s, local):
            continue
        if not option.param_names:
            out.append(Action(option, (), batch))
            continue
        _bind(s, local, option, 0, (), key_of, out, batch)
    return out


def new_batch(s, actions: list) -> ActionBatch:
    """A new batch for the list ``actions`` of a decision in ``s``."""
    game = s.game
    batch = _new(ActionBatch)  # made without a call of its class: cheaper
    batch.game = game
    batch.actions = actions
    batch.named = False
    batch.cells = s.cell_of[:] if game.has_grids else None
    batch.context = {}
    return batch


def _context(s, env, option, player) -> dict:
    """The texts of the fields of an option's text that are no parameters, as they are now."""
    return {field: field_text(s, value, env, type_, player) for field, value, type_ in option.context}


def _bind(s, local, option, i, values, key_of, out, batch) -> None:
    """Bind parameter ``i`` of ``option`` to each value of its domain, then the next parameters.
    Interchangeable components are tried once per level: their completions are the same."""
    name, component, check, domain, last = option.levels[i]
    items = domain(s, local)
    tried = set() if len(items) > 1 else None
    for v in items:
        if tried is not None:
            key = key_of(v) if component else (frozen(v) if isinstance(v, list) else v)
            if key in tried:
                continue
            tried.add(key)
        if check is not None or not last:
            local[name] = v
            if check is not None and not check(s, local):
                continue
        if last:
            out.append(Action(option, values + (v,), batch))
        else:
            _bind(s, local, option, i + 1, values + (v,), key_of, out, batch)
