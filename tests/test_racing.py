"""Racing the actions over dealt worlds (`flat:race=Z`, interpreter/bots/racing.py): the stopping rule
stops early on a decision with one clearly best action, deals more worlds on a close one, never goes
past its caps of worlds and cost, and plays the same for the same seed; a racing bot spends on hard
decisions what easy ones left.  That it takes the one winning move among twelve and plays a real game
the same for a seed is tested with the other bots in tests/test_focus_bot.py."""
import random

import pytest

from dsl.errors import ParameterError
from interpreter import load_game
from interpreter.bots import make_bot, stronger_spec
from interpreter.bots.racing import clearly_behind, contenders, race


class Scripted:
    """A stand-in for a bot and its state: each dealt world gives action i the value ``worth(i, rng)``;
    it counts the worlds and the playouts (actions judged)."""

    def __init__(self, count, worth, seed=1):
        self.actions = [f"a{i}" for i in range(count)]
        self.worth = worth
        self.rng = random.Random(seed)
        self.world_rng = random.Random(seed + 1000)
        self.worlds = self.playouts = 0

    def legal_actions(self):
        return self.actions

    def judge_world(self, state, actions, indices, totals, make_judge):
        self.worlds += 1
        if self.worth is None:  # a dealing the rules cannot go on from
            return False
        for i in indices:
            self.playouts += 1
            totals[i] += self.worth(i, self.world_rng)
        return True

    def choose(self, z=1.0, tie=0.1, most_worlds=12, allowance=1000, deal=0.0, extra=None):
        chosen, self.cost = race(self, self, None, z, tie, most_worlds, allowance, deal, extra=extra)
        return chosen


def test_a_clear_deficit_is_behind_and_a_close_one_is_not():
    assert clearly_behind([0.75, 0.75], [0.25, 0.25], z=1.0, tie=0.0)
    assert not clearly_behind([0.75, 0.25], [0.25, 0.75], z=1.0, tie=0.0)
    assert not clearly_behind([0.75, 0.75], [0.74, 0.74], z=1.0, tie=0.0)
    assert clearly_behind([0.75] * 8, [0.74] * 8, z=1.0, tie=0.1)  # within the tie: either will do
    values = [[0.75, 0.75], [0.25, 0.25], [0.75, 0.70]]
    assert contenders(values, [sum(v) for v in values], [0, 1, 2], 1.0, 0.0) == [0, 2]


def test_one_clearly_best_action_is_settled_by_the_first_worlds():
    bot = Scripted(4, lambda i, rng: 0.75 if i == 2 else 0.25)
    assert bot.choose() == "a2"
    assert bot.worlds <= 2 and bot.playouts <= 5


def test_worlds_that_cannot_be_dealt_judge_nothing_and_end_at_the_caps():
    """A dealing that fails adds no evidence: no action is dropped on zeros, the race still ends at its
    caps, and the choice is random among the actions (as flat's is)."""
    stuck = Scripted(3, None)
    assert stuck.choose(most_worlds=5) in stuck.actions
    assert stuck.worlds == 5 and stuck.playouts == 0
    chosen = {Scripted(3, None, seed=s).choose(most_worlds=2) for s in range(20)}
    assert chosen == set(stuck.actions)


def test_a_close_decision_deals_more_worlds_up_to_the_cap():
    def noisy(i, rng):  # two actions a hair apart under noise, two far behind
        return (0.5 + 0.01 * (i == 1) if i < 2 else 0.0) + rng.choice([-0.25, 0.25])
    clear = Scripted(4, lambda i, rng: 0.75 if i == 1 else 0.25)
    clear.choose(z=2.0, tie=0.0)
    closes = [Scripted(4, noisy, seed) for seed in range(10)]
    for close in closes:
        close.choose(z=2.0, tie=0.0, most_worlds=12)
    assert max(close.worlds for close in closes) == 12
    assert sum(close.worlds for close in closes) / len(closes) >= 3 * clear.worlds
    assert all(close.playouts < 4 * close.worlds for close in closes)  # the actions far behind left the race


@pytest.mark.parametrize("most_worlds,allowance,deal", [(1, 100, 0), (3, 100, 0), (12, 10, 0), (12, 4, 0),
                                                        (12, 50, 10), (12, 14, 10)])
def test_the_race_never_passes_its_caps(most_worlds, allowance, deal):
    bot = Scripted(4, lambda i, rng: rng.random())
    bot.choose(z=3.0, tie=0.0, most_worlds=most_worlds, allowance=allowance, deal=deal)
    assert 1 <= bot.worlds <= most_worlds
    assert bot.cost == bot.playouts + deal * bot.worlds
    assert bot.worlds == 1 or bot.cost <= allowance  # at least one world is always dealt


def test_the_race_charges_what_its_judges_spent_beyond_the_playouts():
    """``extra``: what the judges spent so far beyond their playouts (flat:follow's looks ahead,
    in playouts) counts towards the allowance and the cost."""
    free, charged = Scripted(4, lambda i, rng: rng.random()), Scripted(4, lambda i, rng: rng.random())
    free.choose(z=3.0, tie=0.0, most_worlds=12, allowance=60, deal=5)
    charged.choose(z=3.0, tie=0.0, most_worlds=12, allowance=60, deal=5, extra=lambda: 3.0 * charged.playouts)
    assert charged.cost == 4 * charged.playouts + 5 * charged.worlds
    assert charged.worlds == 1 or charged.cost <= 60
    assert charged.worlds < free.worlds


def test_the_same_seed_races_alike():
    def run(seed):
        bot = Scripted(6, lambda i, rng: rng.random() * (1 + i / 10), seed)
        return bot.choose(z=2.0), bot.worlds, bot.playouts
    assert run(3) == run(3)
    assert len({run(seed) for seed in range(8)}) > 1


def test_a_racing_bot_spends_on_hard_decisions_what_easy_ones_left():
    game = load_game("la-famiglia", players=2)
    bot = make_bot("flat:race=1.5", 0, 4)
    state = game.new_initial_state(1)
    saved = []
    while not state.is_terminal() and len(saved) < 40:
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            state.apply_action(bot.choose(state))
            saved.append(bot.saved)
        else:
            state.apply_action(state.legal_actions()[0])
    assert all(0 <= s <= 4 * 32 for s in saved)
    assert any(b < a for a, b in zip(saved, saved[1:]))  # some decision spent more than its own price


def test_the_race_options_are_checked_and_scale_with_strength():
    assert stronger_spec("flat:race=1,rollouts=8") == "flat:race=1,rollouts=32,budget=128"
    with pytest.raises(ParameterError):
        make_bot("flat:race=-1", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("flat:tie=2", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("flat:follow=-1", 0, 1)
    with pytest.raises(ParameterError):
        make_bot("flat:look=-1", 0, 1)


def test_the_web_table_caps_the_worlds_and_the_price_of_a_race():
    from interpreter.web.limits import check_bot_spec
    assert check_bot_spec("flat:race=1,most=5000") == "bot 'flat': most is at most 1,000 on this server, not 5000"
    assert check_bot_spec("lookahead:race=1,most=5000") is not None
    assert check_bot_spec("flat:race=1,deal=1000000") == "bot 'flat': deal is at most 100 on this server, not 1000000"
    assert check_bot_spec("lookahead:race=1,deal=1000") is not None
    assert check_bot_spec("flat:race=1.5") is None
    assert check_bot_spec("flat:race=1,follow=100") == "bot 'flat': follow is at most 20 on this server, not 100"
    assert check_bot_spec("flat:race=1,follow=1") is None
