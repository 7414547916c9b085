"""Flat Monte Carlo: a few short random playouts per legal action, judged by the ruleset's evaluation.

For each of ``rollouts`` samples the bot deals the hidden part of the game anew from what its seat
knows (``State.determinize``), and for every legal action applies it to a copy of that same world
and plays on at random, with one shared playout seed, until the bot's seat is to decide again after
another seat decided (one round of the table; in a cooperative game only to its partners' next
decision), the game ends, or ``depth`` decisions were played.
A finished playout is worth its outcome (1 for a sole win, ``shared``/k for a win shared by k
seats); a cut-off one is still open, so it is worth halfway between the share its evaluation
leaders would get and the fair share.  So ending the game in a tie or a loss is worse than playing
on, which is what keeps the bot from passing out a game that has free moves.  Comparing every
action on the same worlds and random numbers (common random numbers) makes a few samples enough.
Cost per decision: about ``budget`` playouts of one round; with many legal actions the bot takes
fewer samples each (at least one).  With ``seconds`` above 0 the bot instead samples worlds until that
much time has passed (at least one world), for comparisons at equal time per decision; its play then
depends on the machine's speed, like ``mcts:seconds``.  With ``race`` above 0 the bot races the
actions instead (:mod:`interpreter.bots.racing`; ``seconds`` then does not apply): worlds one at a
time, each judging only the actions not yet clearly behind, until one is left, ``most`` worlds were
dealt or the race would cost more than the decision's price; ``race`` is the number of standard
errors that counts as clear and ``tie`` the difference of values that does not matter.  The price is
what ``flat`` would spend on the decision, counted in playouts with a world's dealing counted as
``deal`` playouts, plus what earlier easy decisions left unspent (at most ``SAVINGS`` budgets): the
bot spends about ``flat``'s playouts and worlds over a game, few on easy decisions and many on close
ones, and a seed still gives the same game.  ``follow`` above 0 has the bot's own seat take its next
``follow`` decisions in each playout by the evaluation one step ahead (the other seats stay uniform):
the next stage of a staged decision (a tile judged with the best field for it, not a random one), the
next step of its turn.  Its looks ahead cost CPU beyond the playouts; a race charges ``look`` playouts
for each action looked at.  ``keyed`` 1 has the seats that pick uniformly in the playouts pick by
key instead (:mod:`interpreter.native.keyed`): the same reply to every judged action wherever it is
legal, where a pick by its place among the legal actions shifts when a judged action adds or removes one.
The playouts run in the native kernel where it is available (``engine``, see
:mod:`interpreter.bots.rollouts`), with the same decisions.
"""
from __future__ import annotations

from .base import Bot, register_bot
from .outcomes import finished_share, open_lead, rank_share, relative_lead, side_values, sole_win
from .racing import race
from .rollouts import checked_engine, round_judge, rollout_kernel

TIE_BREAK = 1e-3  # weight of the evaluation lead (squashed to -1..1) next to the outcome
SAVINGS = 4  # a racing bot keeps at most this many budgets' worth of what easy decisions left unspent


class RoundBot(Bot):
    """A bot that judges actions by playouts of one round of the table (``flat``, ``focus``): the
    rollout engine option, checked, and the worth of a playout's end."""

    def __init__(self, seat: int, seed: int, **options):
        super().__init__(seat, seed, **options)
        checked_engine(self.name, self.settings["engine"])

    def round_judge(self, state, seed: int):
        """``judge`` of :func:`.rollouts.round_judge` for this bot's seat and settings in ``state``'s
        game: the worth of an end is its outcome plus the evaluation lead as a tie-break; with a
        ``margin`` weight above 0 (``lookahead``), a cut-off end also gains that weight times the
        seat's :func:`.outcomes.relative_lead`, so how far it is ahead or behind counts; with a ``rank``
        weight above 0, any end also gains that weight times its :func:`.outcomes.rank_share` (by the
        score when finished, so winning outright stays worth the most), so passing any other seat
        counts, not only the leader."""
        seats, shared = state.game.num_players, self.settings["shared"]
        weight, rank = self.settings.get("margin", 0.0), self.settings.get("rank", 0.0)

        def worth(end):
            value, margin = _judged(end, self.seat, seats, shared)
            if weight and not end.is_terminal():
                value += weight * relative_lead(end, self.seat)
            if rank:
                value += rank * rank_share(end, self.seat)
            return value + TIE_BREAK * margin / (1 + abs(margin))
        settings = self.settings
        kernel = rollout_kernel(state.game, settings["engine"])
        everyone = settings.get("policy") == "greedy"
        own = 0 if everyone else settings.get("follow", 0)
        greedy = settings["epsilon"] if everyone else 0.0 if own else None
        return round_judge(kernel, seed, settings["depth"], self.seat, worth, state.game.ruleset.cooperative,
                           greedy, settings.get("playouts", 1), settings.get("rounds", 1), own,
                           bool(settings.get("keyed", 0)))


@register_bot
class FlatBot(RoundBot):
    """Flat Monte Carlo over determinized copies, with common random numbers across actions."""

    name = "flat"
    description = ("flat Monte Carlo: for each legal action, `rollouts` random playouts until its next "
                   "turn (at most `depth` decisions; fewer playouts, down to one, when `rollouts` × "
                   "actions exceeds `budget`; or as many as `seconds` per decision allow) on copies with the "
                   "hidden cards dealt anew, judged by who leads by the ruleset's evaluation; the fast "
                   "default for simulations; `engine`: auto (the native kernel where available), python; "
                   "`race` above 0: deal worlds one at a time and drop the actions `race` standard errors "
                   "behind the leader (or no more than `tie` ahead), until one is left, `most` worlds were "
                   "dealt or the race would cost more than flat's playouts here (a world counted as `deal` "
                   "playouts) plus what easy decisions left unspent; `follow` above 0: in the playouts its own "
                   "seat takes its next `follow` decisions by the evaluation one step ahead (a race charging "
                   "`look` playouts for each action looked at); `keyed` 1: the uniform picks in the playouts take the "
                   "legal action with the smallest key (a hash of the action and the playout's random number), so "
                   "every judged action meets the same replies where they are legal")
    options = {"rollouts": 4, "depth": 20, "budget": 32, "shared": 0.5, "seconds": 0.0, "engine": "auto",
               "race": 0.0, "tie": 0.1, "most": 16, "deal": 10.0, "follow": 0, "look": 0.1, "keyed": 0}
    limits = {"rollouts": (1, 10**5), "depth": (0, 10**6), "budget": (1, 10**7), "shared": (0, 1),
              "seconds": (0, 86400), "race": (0, 100), "tie": (0, 1),
              "most": (1, 10**5), "deal": (0, 10**6), "follow": (0, 10**4), "look": (0, 10**3), "keyed": (0, 1)}
    strength = ("rollouts", "budget")

    def __init__(self, seat: int, seed: int, **options):
        super().__init__(seat, seed, **options)
        self.saved = 0.0  # racing: what easy decisions left of their price, for harder ones

    def choose(self, state):
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        settings = self.settings
        playouts = settings.get("playouts", 1)

        judges = []

        def make_judge():  # one playout seed per world: every action meets the same luck
            judges.append(self.round_judge(state, self.rng.getrandbits(64)))
            return judges[-1]

        def looked():  # what the greedy policy's looks ahead cost so far, in playouts
            return settings["look"] * sum(judge.looks[0] for judge in judges)

        samples = max(1, min(settings["rollouts"], settings["budget"] // (len(actions) * playouts)))
        if settings["race"]:
            price = samples * (settings["deal"] + len(actions) * playouts)  # what flat would spend here
            allowance = price + self.saved
            chosen, cost = race(self, state, make_judge, settings["race"], settings["tie"], settings["most"],
                                allowance, settings["deal"], playouts, looked)
            self.saved = min(SAVINGS * settings["budget"], allowance - cost)
            return chosen
        return self.best_by_samples(state, samples, make_judge, settings["seconds"])


def _judged(state, seat: int, seats: int, shared: float) -> tuple:
    """``(value, margin)`` of a playout's end for ``seat``, from one reading of the winners or the
    evaluations.  A finished game is worth its outcome (a win shared by k seats ``shared / k``); a
    cut-off one is still open, so it is worth halfway between the outcome the evaluation's leaders
    would get (tied leaders splitting evenly) and the fair share: losing outright is worse than
    being behind, winning outright better than leading.  The margin is that of
    :func:`interpreter.bots.greedy.lead`: how far the seat is ahead of the best other seat."""
    cooperative = state.game.ruleset.cooperative
    if state.is_terminal():
        value = finished_share(state, seat, shared)
        if cooperative:
            return value, 0.0
        margin = (1e9 if sole_win(state, seat) else 0.0) if seat in state.winners() else -1e9
        return value, margin
    share, margin = open_lead(state, seat)
    if cooperative:
        return share, 0.0
    sides = seats if state.game.ruleset.team is None else len(side_values(state, [0] * seats)[1])
    return 0.5 * share + 0.5 / sides, margin
