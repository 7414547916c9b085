"""Variant files: ``extends: <ruleset>`` plus changes, merged into one document.

The rules (see docs/variants.md):
- mappings merge key by key, recursively; a key set to null (``~``) in the variant is removed;
- a scalar, or a plain list, in the variant replaces the base's value;
- an *edit list* changes a base list item by item; each of its items is one edit:
  ``{replace: SEL, with: ITEM}``, ``{remove: SEL}``, ``{edit: SEL, merge: MAPPING}``,
  ``{before: SEL, insert: [ITEMS]}``, ``{after: SEL, insert: [ITEMS]}``, ``{append: [ITEMS]}``,
  ``{prepend: [ITEMS]}``.  SEL picks exactly one item: a text names the item whose ``name`` or
  ``step`` is that text, or the statement with that exact text; a mapping picks the item that has
  all those keys and values (a row of a component table, say; ``~`` for a key it merely has, a
  nested mapping for part of what a key holds); a number picks the item at that position.

Every merged value keeps the file, line and column it came from, so errors point into the variant
file for what it changed and into the base file for the rest.
"""
from __future__ import annotations

import difflib
from pathlib import Path

from .errors import SchemaError
from .yaml_loader import Document

EDIT_KEYS = ("replace", "remove", "edit", "before", "after", "append", "prepend")
MAX_DEPTH = 8
MAX_WORK = 100_000
MAX_NAME = 255


class _Ref:
    """A value of one document at one path (what a merged value was taken from)."""

    __slots__ = ("doc", "path")

    def __init__(self, doc: Document, path: tuple):
        self.doc = doc
        self.path = path

    @property
    def value(self):
        value = self.doc.data
        for key in self.path:
            value = value[key]
        return value

    def position(self):
        return self.doc.position(self.path)


class _Merged:
    """A base item changed by an ``edit`` (merged lazily, like a mapping merge)."""

    __slots__ = ("base", "change")

    def __init__(self, base, change):
        self.base = base
        self.change = change


def is_edit_list(value) -> bool:
    return (isinstance(value, list) and bool(value) and
            all(isinstance(item, dict) and any(k in item for k in EDIT_KEYS) for item in value))


class Merger:
    def __init__(self, base: Document, variant: Document):
        self.base = base
        self.variant = variant
        self.out = Document(variant.file, None)
        self.index = {id(doc): _prefix_index(doc) for doc in (base, variant)}
        self.work = 0  # list items compared with selectors so far

    def merge(self) -> Document:
        self.out.data = self._build(_Merged(_Ref(self.base, ()), _Ref(self.variant, ())), ())
        self.out.positions[()] = self.variant.position(())
        return self.out

    # ---- building the merged tree --------------------------------------------------------------
    def _build(self, node, path):
        if isinstance(node, _Ref):
            return self._copy(node, path)
        base, change = node.base, node.change
        bval, cval = _value(base), _value(change)
        if isinstance(bval, dict) and isinstance(cval, dict):
            self._place(base, path)
            result = {}
            for key in bval:
                if key in cval:
                    if cval[key] is None:
                        continue
                    result[key] = self._build(_Merged(_child(base, key), _child(change, key)), path + (key,))
                else:
                    result[key] = self._build(_child(base, key), path + (key,))
                self._place_key(_child(change, key) if key in cval else _child(base, key), path + (key,))
            for key in cval:
                if key not in bval and cval[key] is not None and not (path == () and key == "extends"):
                    result[key] = self._build(_child(change, key), path + (key,))
                    self._place_key(_child(change, key), path + (key,))
            return result
        if isinstance(bval, list) and is_edit_list(cval):
            self._place(change, path)
            items = self._edit(base, change)
            return [self._build(item, path + (i,)) for i, item in enumerate(items)]
        return self._build(change, path)

    def _copy(self, ref: _Ref, path):
        doc = ref.doc
        n = len(ref.path)
        for old in self.index[id(doc)].get(ref.path, [ref.path]):
            new = path + old[n:]
            if old in doc.positions:
                self.out.positions[new] = doc.positions[old]
            if old in doc.key_positions:
                self.out.key_positions[new] = doc.key_positions[old]
            if old in doc.quoted:
                self.out.quoted[new] = doc.quoted[old]
            if old in doc.segments:
                self.out.segments[new] = doc.segments[old]
        return _deep_copy(ref.value)

    def _place(self, node, path):
        ref = node if isinstance(node, _Ref) else node.base
        self.out.positions[path] = ref.position()

    def _place_key(self, node, path):
        ref = node if isinstance(node, _Ref) else node.change
        if ref.path in ref.doc.key_positions:
            self.out.key_positions[path] = ref.doc.key_positions[ref.path]

    # ---- edit lists ----------------------------------------------------------------------------
    def _edit(self, base, change) -> list:
        items = [_child(base, i) for i in range(len(_value(base)))]
        for i, edit in enumerate(_value(change)):
            eref = _child(change, i)
            kind = next(k for k in EDIT_KEYS if k in edit)
            if kind in ("append", "prepend"):
                new = self._insertions(eref, kind)
                items = items + new if kind == "append" else new + items
                continue
            at = self._select(items, edit[kind], _child(eref, kind))
            if kind == "remove":
                del items[at]
            elif kind == "replace":
                items[at] = self._required(eref, "with")
            elif kind == "edit":
                if isinstance(items[at], _Merged):
                    raise _edited_twice(eref)
                items[at] = _Merged(items[at], self._required(eref, "merge"))
            else:
                new = self._insertions(eref, "insert")
                where = at if kind == "before" else at + 1
                items[where:where] = new
        return items

    def _required(self, eref, key):
        if key not in eref.value:
            raise SchemaError(f"this edit needs '{key}'", eref.position(),
                              "see docs/variants.md for the forms of an edit")
        return _child(eref, key)

    def _insertions(self, eref, key):
        listed = self._required(eref, key)
        if not isinstance(listed.value, list):
            raise SchemaError(f"'{key}' takes a list of items", listed.position())
        return [_child(listed, j) for j in range(len(listed.value))]

    def _select(self, items, selector, sref) -> int:
        if isinstance(selector, int) and not isinstance(selector, bool):
            if -len(items) <= selector < len(items):
                return selector % len(items)
            raise SchemaError(f"position {selector} is outside the list it edits, which has {len(items)} items",
                              sref.position(), "positions count from 0 (the first item); -1 is the last")
        self.work += len(items)
        if self.work > MAX_WORK:
            raise SchemaError(f"the variant's edits compare more than {MAX_WORK:,} list items", sref.position(),
                              "a variant changes a few items of its base; write a ruleset of its own instead")
        hits = [i for i, item in enumerate(items) if _matches(_value(item), selector)]
        if len(hits) != 1:
            what = "no item" if not hits else f"{len(hits)} items"
            raise SchemaError(f"{selector!r} matches {what} of the list it edits", sref.position(),
                              _selector_hint([_value(item) for item in items], selector, hits))
        return hits[0]


def _label(item) -> str:
    """How an item of a list reads in a hint: its name or step, its text, or its first key."""
    if isinstance(item, str):
        return item.strip()
    if isinstance(item, dict):
        for key in ("name", "step"):
            if isinstance(item.get(key), str):
                return item[key]
        if item:
            key = next(iter(item))
            value = item[key]
            shown = value if isinstance(value, (str, int, bool)) or value is None else "..."
            return f"{{{key}: {shown}}}"
    return repr(item)


def _selector_hint(items, selector, hits) -> str:
    labels = [_label(item) for item in items]
    if isinstance(selector, str):
        close = difflib.get_close_matches(selector.strip(), labels, n=1, cutoff=0.6)
        if close:
            return f"did you mean {close[0]!r}?"
    shown = [f"{i}: {labels[i]}" for i in (hits or range(len(items)))][:8]
    return ("pick one item by its name or step, its exact text, key: value pairs only it has "
            "({choose: ~} for the item that has a key, nested mappings for what it contains), or its "
            f"position; {'the matches' if hits else 'the list holds'}: {'; '.join(shown)}")


def _value(node):
    if isinstance(node, _Ref):
        return node.value
    return _value(node.base)


def _child(node, key):
    if isinstance(node, _Ref):
        return _Ref(node.doc, node.path + (key,))
    raise _edited_twice(node.change)


def _edited_twice(ref) -> SchemaError:
    return SchemaError("a variant may edit the same list item only once", ref.position(),
                       "combine the two edits into one")


def _matches(item, selector) -> bool:
    """Whether a list item is what a selector describes: a text names it (its name or step, or its
    exact text); a mapping lists what it contains: ``~`` for a key it merely has, a nested mapping
    for a part of a mapping it holds, and equal values otherwise."""
    if isinstance(selector, str):
        if isinstance(item, str):
            return item.strip() == selector.strip()
        return isinstance(item, dict) and selector in (item.get("name"), item.get("step"))
    if isinstance(selector, dict) and isinstance(item, dict):
        return all(k in item and (v is None or _contains(item[k], v)) for k, v in selector.items())
    return False


def _contains(value, wanted) -> bool:
    if isinstance(wanted, dict) and isinstance(value, dict):
        return all(k in value and (v is None or _contains(value[k], v)) for k, v in wanted.items())
    if isinstance(wanted, str) and isinstance(value, str):
        return value.strip() == wanted.strip()
    return value == wanted


def _deep_copy(value):
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def _prefix_index(doc: Document) -> dict:
    index: dict = {}
    for path in set(doc.positions) | set(doc.key_positions):
        for n in range(len(path) + 1):
            index.setdefault(path[:n], []).append(path)
    return index


def resolve_extends(doc: Document, load, find, depth: int = 0) -> Document:
    """Merge a variant with the chain of rulesets it extends; a plain ruleset is returned as is.

    ``load(path)`` reads a Document; ``find(name, relative_to)`` gives the path of a base."""
    if not isinstance(doc.data, dict) or "extends" not in doc.data:
        return doc
    if depth >= MAX_DEPTH:
        raise SchemaError(f"variants extend each other more than {MAX_DEPTH} deep",
                          doc.position(("extends",)), "check for a cycle of 'extends'")
    target = doc.data["extends"]
    if not isinstance(target, str) or not target.strip():
        raise SchemaError("'extends' names a ruleset", doc.position(("extends",)))
    if len(target) > MAX_NAME or any(ord(char) < 32 for char in target):
        raise SchemaError(f"'extends' names no ruleset: a name or path has at most {MAX_NAME} characters and "
                          "no control characters", doc.position(("extends",)))
    try:
        base_path = find(target, Path(doc.file).parent)
    except (OSError, ValueError):  # a name the file system refuses
        base_path = None
    if base_path is None:
        raise SchemaError(f"'extends: {target}' names no ruleset", doc.position(("extends",)),
                          "give a ruleset name from rulesets/ or a path relative to this file")
    base = resolve_extends(load(base_path), load, find, depth + 1)
    if not isinstance(base.data, dict):
        raise SchemaError(f"'extends: {target}' names a file that holds no ruleset (not a mapping of keys)",
                          doc.position(("extends",)), "extend a ruleset: a file with game:, components:, flow: ...")
    return Merger(base, doc).merge()
