"""What a finished or cut-off game is worth to a seat, for every bot: sides, not seats, win.

A seat plays for its *side* (``Game.side_of``): itself, its team (``scoring: team:``), or the whole
table in a cooperative game (``scoring: cooperative: true``).  A finished game is worth 1 to every
seat of a sole winning side and ``shared / k`` when k sides tie; in a cooperative game it is worth
the shared score as a share of the best possible (``scoring: best:``; without it the score squashed
into 0..1), so the bots play for the highest shared score, not merely for "a win".  A cut-off game
is judged the same way from the ruleset's evaluation, summed over each side.
"""
from __future__ import annotations


def scaled(value, best) -> float:
    """A shared score as a share of 0..1: of ``best`` when declared, else squashed."""
    if best:
        return max(0.0, min(1.0, value / best))
    return 0.5 + 0.5 * value / (1 + abs(value))


def evaluations(state) -> list:
    """Every seat's evaluation of ``state`` (a :class:`State` or a kernel playout's end, which keeps
    them ready: :meth:`interpreter.native.judge.Judged.evaluations`)."""
    ready = getattr(state, "evaluations", None)
    if ready is not None:
        return ready()
    return [state.evaluate(p) for p in range(state.game.num_players)]


def side_values(state, values) -> tuple:
    """``(side of each seat, value of each side)`` for per-seat ``values`` (summed over a side)."""
    game = state.game
    if game.ruleset.team is None and not game.ruleset.cooperative:  # every seat its own side
        return list(range(game.num_players)), dict(enumerate(values))
    sides = [game.side_of(state, p) for p in range(game.num_players)]
    totals: dict = {}
    for side, value in zip(sides, values):
        totals[side] = totals.get(side, 0) + value
    return sides, totals


def finished_share(state, seat: int, shared: float) -> float:
    """What a finished game is worth to ``seat``."""
    game = state.game
    if game.ruleset.cooperative:
        return scaled(state.returns()[0], game.ruleset.best)
    winners = state.winners()
    if seat not in winners:
        return 0.0
    sides = {game.side_of(state, p) for p in winners}
    return 1.0 if len(sides) == 1 else shared / len(sides)


def open_lead(state, seat: int) -> tuple:
    """``(share, margin)`` of a cut-off game for ``seat`` by the evaluation: the share its side would
    get if the leading sides won now (tied leaders splitting evenly), and how far its side is ahead
    of the best other side.  In a cooperative game: the scaled evaluation, and no margin."""
    game = state.game
    values = evaluations(state)
    if game.ruleset.cooperative:
        return scaled(values[0], game.ruleset.best), 0.0
    sides, totals = side_values(state, values)
    mine = totals[sides[seat]]
    others = [v for side, v in totals.items() if side != sides[seat]]
    best = max(totals.values())
    leaders = sum(1 for v in totals.values() if v == best)
    share = (1.0 if leaders == 1 else 1.0 / leaders) if mine == best else 0.0
    return share, mine - (max(others) if others else 0)


def relative_lead(state, seat: int) -> float:
    """How far ``seat``'s side is ahead of the best other side by the evaluation, relative to their
    size: ``(mine - best other) / (|mine| + |best other| + 1)``, from -1 to 1 (0 in a cooperative
    game or without another side).  Unlike the lead's share it keeps how far ahead or behind a seat
    is, and unlike the raw margin it is on the same scale in a game of points and one of money."""
    game = state.game
    if game.ruleset.cooperative:
        return 0.0
    sides, totals = side_values(state, evaluations(state))
    mine = totals[sides[seat]]
    others = [v for side, v in totals.items() if side != sides[seat]]
    if not others:
        return 0.0
    best = max(others)
    return (mine - best) / (abs(mine) + abs(best) + 1)


def rank_share(state, seat: int) -> float:
    """The share of the other sides that ``seat``'s side is ahead of (a tie counts half), from 0
    (behind every other side) to 1 (ahead of all): by the evaluation in a cut-off game, by the score
    in a finished one (so winning outright is worth as much as leading everyone); 0.5 in a
    cooperative game or without another side.  Unlike the lead's share it changes when the seat
    passes or falls behind any side, not only the leader, which in a game of four seats is most of
    what one action changes."""
    game = state.game
    if game.ruleset.cooperative:
        return 0.5
    finished = state.is_terminal()
    sides, totals = side_values(state, [state.game.score(state, p) for p in range(game.num_players)]
                                if finished else evaluations(state))
    mine = totals[sides[seat]]
    others = [v for side, v in totals.items() if side != sides[seat]]
    if not others:
        return 0.5
    return sum(1.0 if mine > v else 0.5 if mine == v else 0.0 for v in others) / len(others)


def rewards(state, shared: float) -> list:
    """Every seat's reward for a finished or cut-off game (the search bots' outcome): a cut-off
    game counts the sides leading by the evaluation as its winners."""
    game = state.game
    seats = game.num_players
    if state.is_terminal():
        return [finished_share(state, p, shared) for p in range(seats)]
    values = evaluations(state)
    if game.ruleset.cooperative:
        return [scaled(values[0], game.ruleset.best)] * seats
    sides, totals = side_values(state, values)
    best = max(totals.values())
    leading = sum(1 for v in totals.values() if v == best)
    share = 1.0 if leading == 1 else shared / leading
    return [share if totals[sides[p]] == best else 0.0 for p in range(seats)]


def sole_win(state, seat: int) -> bool:
    """Whether ``seat``'s side won a finished game alone."""
    winners = state.winners()
    return seat in winners and len({state.game.side_of(state, p) for p in winners}) == 1
