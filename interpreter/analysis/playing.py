"""One game of a run: what a worker needs to play it (:class:`RunSpec`), and what it reports
(:class:`GameResult`).  Both the executors (:mod:`.executor`) and the summaries
(:mod:`.simulation`) build on this module."""
from __future__ import annotations

from dataclasses import dataclass, field

from dsl.errors import RulebookError

from ..bots import MAX_DECISIONS, bot_seed, make_bot, play_game
from ..bots.rollouts import with_engine
from ..game import load_game
from .match_log import MatchRecorder, log_header

SIM_BOT = "flat:race=1,follow=1,keyed=1"  # the default bot of every seat in simulate, compare and sweep, and in the web designer


@dataclass
class GameResult:
    seed: int
    winners: list
    returns: list
    decisions: int
    finished: bool = True
    end_reason: str | None = None
    plain_choices: dict = field(default_factory=dict)  # option -> [offered with others, chosen]
    log: dict | None = None
    sides: list | None = None  # per seat, the side it played for ("team 1", "all"); None: every seat alone


@dataclass
class RunSpec:
    """Everything a worker needs to play its share of a run."""

    ruleset: str
    params: dict
    players: int
    seats: list
    seed: int
    logs: bool = False
    max_decisions: int = MAX_DECISIONS
    engine: str = "auto"  # where the search bots roll out (python: there, whatever the kernel)


class ChoiceCounter:
    """The ``on_step`` of a simulated game: how often each option without parameters (a pass, a
    'keep', a 'stop') was offered next to other actions, and how often it was taken."""

    def __init__(self, then=None):
        self.counts: dict = {}
        self.then = then

    def __call__(self, seat, legal, action, state) -> None:
        if len(legal) > 1:
            for offered in legal:
                if not offered.option.param_names:
                    count = self.counts.setdefault(offered.name, [0, 0])
                    count[0] += 1
                    count[1] += offered is action
        if self.then is not None:
            self.then(seat, legal, action, state)


def play_one(game, spec: RunSpec, index: int) -> GameResult:
    agents = [make_bot(with_engine(bot, spec.engine), seat, bot_seed(spec.seed, index, seat))
              for seat, bot in enumerate(spec.seats)]
    state = game.new_initial_state(spec.seed + index)
    recorder = MatchRecorder(log_header(game, spec.seats), spec.seed + index) if spec.logs else None
    counter = ChoiceCounter(recorder.record if recorder else None)
    try:
        play_game(state, agents, counter, spec.max_decisions)
    except RulebookError as exc:
        exc.message = f"game {index + 1} (seed {spec.seed + index}): {exc.message}"
        raise
    finished = state.is_terminal()
    return GameResult(spec.seed + index, state.winners() if finished else [], state.returns(), state.moves,
                      finished, getattr(state, "end_reason", None), counter.counts,
                      recorder.log(state) if recorder else None, sides_of(state))


def sides_of(state):
    """Per seat, the side it plays for as text (``team 0``, ``all``), or None in a game of seats alone."""
    game = state.game
    if game.ruleset.cooperative:
        return ["all"] * game.num_players
    if game.ruleset.team is None:
        return None
    return [f"team {game.side_of(state, p)[1]}" for p in range(game.num_players)]


_GAMES: dict = {}


def loaded_game(spec: RunSpec):
    """The game of a spec, loaded once per process."""
    key = (spec.ruleset, tuple(sorted(spec.params.items())), spec.players)
    if key not in _GAMES:
        _GAMES[key] = load_game(spec.ruleset, spec.params, spec.players)
    return _GAMES[key]


def keep_loaded(spec: RunSpec, game) -> None:
    """Let the workers of this process play ``game`` for ``spec`` instead of loading it again."""
    _GAMES.setdefault((spec.ruleset, tuple(sorted(spec.params.items())), spec.players), game)
