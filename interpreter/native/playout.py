"""Playing on in the kernel from any state the Python engine reached at a decision.

:func:`loaded` turns a :class:`State` into the kernel's arrays, its stack as a resume point (see
:mod:`.resume`); :func:`playout` plays it on with a seeded uniform or greedy policy (the reference
in Python: :func:`.reference.play_on`), optionally taking a given legal action first and stopping
where a seat is to decide again after another seat decided (the rollouts of ``flat``), and gives
back the final :class:`State`.  A state that cannot be resumed raises :class:`NativeUnavailable`
with the reason, and the caller plays on in Python.
"""
from __future__ import annotations

import threading

from .judge import Judged
from .emit import MAXLOG
from .kernel import NativeUnavailable
from .resume import Unresumable, resume_plan

MASK = (1 << 64) - 1
_PER_THREAD = threading.local()  # each thread's buffers of each kernel (the kernel runs without the GIL)


def loaded(kernel, state, ks=None):
    """The kernel's arrays of ``state`` (at a decision, or finished) in ``ks`` (a new buffer if
    None), ready to :meth:`Runner.run`."""
    if state.failure is not None:
        raise NativeUnavailable("native: the state is broken by an earlier error; using Python")
    ks = kernel.arrays(state, ks)
    ks.moves = state.moves
    ks.n_log = 0
    if state.over:
        return ks
    try:
        plan = resume_plan(kernel, state)
    except Unresumable as exc:
        raise NativeUnavailable(f"native: this state cannot be resumed in the kernel: {exc}; using Python") from None
    ks.site = plan.site
    for i, value in enumerate(plan.fvals):
        ks.fvals[i] = value
    ks.rlen = len(plan.lists)
    for i, value in enumerate(plan.lists):
        ks.rarena[i] = value
    return ks


class Runner:
    """Plays copies of one loaded state, each with its own seed, first action, policy and stop.

    The two buffers (the state loaded, a copy played on) are made once per kernel and thread: a
    newer runner of the same kernel in the same thread takes them over, and an older one used again
    loads its state anew."""

    def __init__(self, kernel, state):
        self.kernel = kernel
        self.state_loaded = state
        mine = getattr(_PER_THREAD, "buffers", None)
        if mine is None:
            mine = _PER_THREAD.buffers = {}
        buffers = mine.get(kernel)
        if buffers is None:
            buffers = mine[kernel] = [kernel.ffi.new("KS *"), kernel.ffi.new("KS *"), None]
        self.buffers = buffers
        self.start, self.work = buffers[0], buffers[1]
        loaded(kernel, state, self.start)
        buffers[2] = self
        self.over = bool(state.over)

    def run(self, policy_seed: int, max_decisions: int = 100_000, stop_seat=None, force=None, values=False,
            greedy=None, partners=False, rounds=1, own=0, keyed=False):
        """Play on: returns the kernel's arrays after (``over`` set when the game ended), or a
        RulesRuntimeError of a rule that failed; with ``values``, every seat's score, tie-breaks,
        evaluation and team at the end, for :meth:`judged`.  ``greedy`` (an epsilon from 0 to 1):
        every seat greedy by the ruleset's evaluation one step ahead, uniform with that chance; ``own``
        above 0: only the next ``own`` decisions of ``stop_seat`` with a choice, the others uniform.
        ``partners`` (with ``stop_seat``): stop where any other seat is to decide (flat in a
        cooperative game).  ``rounds`` (with ``stop_seat``): stop where ``stop_seat`` is to decide again
        after another seat decided for the ``rounds``-th time.  ``keyed``: the seats that pick
        uniformly pick by :mod:`.keyed` instead."""
        ks = self.work
        if self.buffers[2] is not self:  # another runner took the buffers
            loaded(self.kernel, self.state_loaded, self.start)
            self.buffers[2] = self
        self.kernel.lib.k_copy_game(ks, self.start)
        ks.looks = 0
        if self.over:
            return ks
        self.kernel.ffi.memmove(ks.rarena, self.start.rarena, 8 * self.start.rlen)  # after the head
        ks.n_log = 0
        ks.policy_rng = policy_seed & MASK
        ks.force = -1 if force is None else force
        ks.cap = max(0, max_decisions) + (force is not None)
        ks.stop_seat = -1 if stop_seat is None else stop_seat
        ks.others_moved = 0
        ks.stop_rounds = max(1, rounds)
        ks.stop_partners = int(bool(partners))
        ks.want_values = values
        if greedy is not None and not self.kernel.sites.values_ok:
            raise NativeUnavailable("native: the kernel does not translate the evaluation; using Python")
        ks.greedy_ppm = -1 if greedy is None else min(1_000_000, max(0, round(greedy * 1_000_000)))
        ks.greedy_own = int(own > 0)
        ks.greedy_left = own
        ks.forced_option = -1
        ks.keyed = int(bool(keyed))
        if keyed:  # the seats' streams of numbers start anew (read only by a keyed pick)
            ks.keyed_seed = policy_seed & MASK
            size = 8 * self.kernel.game.num_players
            self.kernel.ffi.memmove(ks.seat_picks, bytes(size), size)
        if self.kernel.lib.k_resume(ks) == 1:
            raise self.kernel.error(ks)
        return ks

    def judged(self, ks):
        """The end of :meth:`run` (with ``values``) as the bots judge it (see :mod:`.judge`)."""
        return Judged(self.kernel, ks)

    def state(self, ks):
        """The kernel's arrays after :meth:`run` as a :class:`State`.  A finished game: from the
        arrays, exact but for the narration, which the kernel mutes.  A game stopped at a decision:
        the loaded state with the kernel's actions (their places among the legal actions) taken
        again in Python, so exact and playable, its stack included; beyond the first MAXLOG
        actions, the data of the arrays without a stack (enough to judge it, not to play on)."""
        if not ks.over and ks.n_log <= MAXLOG:
            s = self.state_loaded.clone()
            for i in range(ks.n_log):
                s.apply_action(s.legal_actions()[ks.picks[i]])
            return s
        s = self.kernel.state(ks)
        s.moves = int(ks.moves)
        return s


def playout(kernel, state, policy_seed: int, max_decisions: int = 100_000, stop_seat=None, force=None,
            greedy=None, partners=False):
    """Play ``state`` on in the kernel: ``(actions, State)`` (see :meth:`Runner.state`)."""
    runner = Runner(kernel, state)
    ks = runner.run(policy_seed, max_decisions, stop_seat, force, greedy=greedy, partners=partners)
    return kernel.actions(ks), runner.state(ks)

