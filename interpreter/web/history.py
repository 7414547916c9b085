"""The states of a table's game, kept at intervals: bounded memory for undo and time travel.

A table needs the state after any of its actions (time travel, the game record), but keeping every
one costs a state per move for as long as the table lives.  :class:`StateHistory` keeps the first,
every ``EVERY``-th and the last, with the actions' texts, and recomputes the others on demand from
the nearest kept one (at most ``EVERY - 1`` actions replayed; the game is fully determined by its
seed and actions).
"""
from __future__ import annotations

EVERY = 16


class StateHistory:
    def __init__(self, first, every: int = EVERY):
        self.every = every
        self.kept = {0: first}
        self.texts: list = []
        self.last = first

    def append(self, text: str, state) -> None:
        """The state after the action ``text`` (a state of its own: it is kept, never changed)."""
        self.texts.append(text)
        self.last = state
        if len(self.texts) % self.every == 0:
            self.kept[len(self.texts)] = state

    def __len__(self) -> int:
        return len(self.texts) + 1

    def __getitem__(self, index: int):
        """The state after ``index`` actions (negative: from the end); never change it."""
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index == len(self) - 1:
            return self.last
        base = index - index % self.every
        if base == index:
            return self.kept[base]
        state = self.kept[base].clone()
        for text in self.texts[base:index]:
            state.apply_action(state.parse_action(text))
        return state

    def __iter__(self):
        """Every state in order, each recomputed once."""
        state = self.kept[0]
        yield state
        for number, text in enumerate(self.texts, 1):
            kept = self.kept.get(number) if number < len(self.texts) else self.last
            if kept is None:
                state = state.clone()
                state.apply_action(state.parse_action(text))
            else:
                state = kept
            yield state
