"""The kernel's policy played by the Python engine: the reference the kernel is tested against.

A uniform random seat takes ``legal[mixed(z) % len(legal)]``, ``z`` stepping by splitmix64's
increment from the policy's seed (the kernel's ``PICK``), so a seeded game played here and in the
kernel is the same game, action by action."""
from __future__ import annotations

from ..runtime.splitmix import GOLDEN_GAMMA, MASK64, mixed


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
