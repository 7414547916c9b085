"""The kernel's policy played by the Python engine: the reference the kernel is tested against.

A uniform random seat takes ``legal[mixed(z) % len(legal)]``, ``z`` stepping by splitmix64's
increment from the policy's seed (the kernel's ``PICK``), so a seeded game played here and in the
kernel is the same game, action by action."""
from __future__ import annotations

from ..runtime.splitmix import GOLDEN_GAMMA, MASK64, mixed
from .keyed import keyed_pick, seat_number


def play_python(game, seed: int, policy_seed: int, max_moves: int = 100_000):
    """One game in the Python engine: ``(actions, state)`` as :meth:`Kernel.play` gives them (a
    parameter's value that is a list as None)."""
    s = game.new_initial_state(seed)
    z = policy_seed & MASK64
    actions = []
    while not s.is_terminal() and len(actions) < max_moves:
        legal = s.legal_actions()
        z = (z + GOLDEN_GAMMA) & MASK64
        action = legal[mixed(z) % len(legal)]
        actions.append((action.option.name, tuple(None if isinstance(v, list) else v for v in action.values)))
        s.apply_action(action)
    return actions, s


def comparable(state) -> dict:
    """What a kernel's state and the Python engine's must share: all of ``to_dict`` but the
    narration, which the kernel mutes."""
    data = state.to_dict()
    data.pop("narrative")
    return data


def play_on(state, policy_seed: int, max_moves: int = 100_000, stop_seat=None, first=None, greedy=None,
            partners=False, rounds=1, own=0, looks=None, judged=None, keyed=False):
    """Play ``state`` on in the Python engine as :func:`.playout.playout` does in the kernel:
    ``first`` (an index into the legal actions) taken first if given, then the seeded uniform
    policy (``greedy``: the greedy one, see :func:`greedy_pick`) until the end, ``max_moves`` more
    decisions, or ``stop_seat`` to decide again after another seat decided (for the ``rounds``-th
    time).  ``own`` above 0 (with ``greedy`` and ``stop_seat``): only the next ``own`` decisions of
    ``stop_seat`` with a choice are greedy, the others uniform, but for a decision that offers
    again the option of ``first`` (or ``judged``, the option of the action just taken before the
    call), as the kernel skips one that offers the option it was forced to take.  ``looks`` (a
    one-item list): the actions the greedy policy looked ahead at are added to it, as the kernel
    counts them.  ``keyed``: the uniform picks are keyed ones (:func:`.keyed.keyed_pick`, each seat
    with its numbers from :func:`.keyed.seat_number`), as the kernel's with ``s->keyed``.  ``(actions, state)``; the state is changed in place."""
    z = policy_seed & MASK64
    actions, others_moved, taken, left, forced, picks = [], False, 0, own, judged, {}
    while not state.is_terminal():
        legal = state.legal_actions()
        if first is not None:
            action, first = legal[first], None
            forced = action.option
        else:
            if taken >= max_moves:
                break
            mover = state.current_player()
            if stop_seat is not None and partners and mover != stop_seat:
                break
            if stop_seat is not None and mover == stop_seat and others_moved:
                rounds -= 1
                if rounds <= 0:
                    break
                others_moved = False
            others_moved = others_moved or (stop_seat is not None and mover != stop_seat)
            if greedy is not None and len(legal) > 1 and (not own or (mover == stop_seat and left > 0 and not any(
                    a.option is forced for a in legal))):
                left -= 1 if own else 0
                z, action, looked = greedy_pick(state, legal, z, greedy)
                if looks is not None:
                    looks[0] += looked
            elif keyed:
                picks[mover] = picks.get(mover, 0) + 1
                action = keyed_pick(legal, seat_number(policy_seed, mover, picks[mover]))
            else:
                z = (z + GOLDEN_GAMMA) & MASK64
                action = legal[mixed(z) % len(legal)]
            taken += 1
        actions.append((action.option.name, tuple(None if isinstance(v, list) else v for v in action.values)))
        state.apply_action(action)
    return actions, state


def greedy_pick(state, legal, z: int, epsilon: float) -> tuple:
    """``(z, action, looks)``: the kernel's greedy policy (``GREEDY`` in resume.py) from the splitmix state
    ``z``: uniform with chance ``epsilon`` (in millionths), else the action after which the seat
    deciding has the highest evaluation (one step ahead: to the next decision or the end), uniform
    among equals; ``looks``: how many actions it looked ahead at (0 for a uniform pick)."""
    z = (z + GOLDEN_GAMMA) & MASK64
    if mixed(z) % 1_000_000 < min(1_000_000, max(0, round(epsilon * 1_000_000))):
        z = (z + GOLDEN_GAMMA) & MASK64
        return z, legal[mixed(z) % len(legal)], 0
    seat, values = state.current_player(), []
    for action in legal:
        after = state.clone()
        after.apply_action(action)
        values.append(after.evaluate(seat))
    best = max(values)
    tied = [a for a, v in zip(legal, values) if v == best]
    z = (z + GOLDEN_GAMMA) & MASK64
    return z, tied[mixed(z) % len(tied)], len(legal)
