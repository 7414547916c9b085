"""The sanity report of a simulation: do the numbers describe the rules, or the bots?

Weak bots make a game look different from the one people play: they pass out a game that still
has free moves, share wins because nobody scored, or never finish.  The report counts what gives
that away (games that ended within a few decisions, shared wins, how each game ended by the reason
``end_game(reason)`` gave, how often options without parameters such as a pass were taken when
other actions were legal, games cut off by the cap on decisions) and says in plain words when the
figures look like bot artefacts.
"""
from __future__ import annotations

from ..bots import stronger_spec
from .playing import SIM_BOT

SHORT_PER_PLAYER = 8       # a game "ends within a few decisions" at most this many per player ...
SHORT_MAX = 32             # ... and at most this many in all (the limit of four players)
SHORT_WARN = 0.2           # warn when more than this share of games are short
SHARED_WARN = 0.2          # ... or shared
NO_REASON = "unknown"      # the ruleset's end_game() gave no reason


def report(results: list, players: int, seats=None) -> dict:
    """The report of ``results``; ``seats`` (the bot specs) let a warning name stronger settings."""
    games = len(results)
    short_limit = short_limit_of(players)
    short = sum(1 for r in results if r.finished and r.decisions <= short_limit)
    finished = [r for r in results if r.finished]
    shared = sum(1 for r in finished if len({_side(r, p) for p in r.winners}) > 1)
    reasons: dict = {}
    for r in results:
        key = (r.end_reason or NO_REASON) if r.finished else "unfinished (cut off by --max-decisions)"
        reasons[key] = reasons.get(key, 0) + 1
    plain: dict = {}
    for r in results:
        for name, (offered, chosen) in r.plain_choices.items():
            count = plain.setdefault(name, [0, 0])
            count[0] += offered
            count[1] += chosen
    choices = sorted(({"option": name, "offered": o, "chosen": c, "rate": round(c / o, 4)}
                      for name, (o, c) in plain.items() if o), key=lambda row: -row["offered"])
    result = {
        "short_limit": short_limit,
        "short_games": short,
        "short_rate": round(short / games, 4) if games else 0.0,
        "shared_wins": shared,
        "shared_rate": round(shared / len(finished), 4) if finished else 0.0,
        "unfinished": games - len(finished),
        "end_reasons": dict(sorted(reasons.items(), key=lambda item: -item[1])),
        "plain_choices": choices,
    }
    result["warnings"] = warnings(result, games, seats)
    return result


def short_limit_of(players: int) -> int:
    """The most decisions of a game that "ended within a few decisions": eight per player, but no
    more than 32 (four players' worth).  A game of rounds grows with the table, but a race, or a game
    that ends when the deck runs out, lasts as many decisions at eight players as at four (docs/balance.md),
    so a limit that grew without bound would call its every game short; a game that ends within 32
    decisions still is, at any table size."""
    return min(SHORT_PER_PLAYER * players, SHORT_MAX)


def _side(result, seat):
    """The side a seat played for: a team or a cooperative table wins as one, so its win is no tie."""
    return result.sides[seat] if getattr(result, "sides", None) else seat


def stronger_advice(seats) -> str:
    """What to try instead of the bots ``seats``: the stronger setting of each that ``--check-strength``
    would play (the balance commands' default bot, :data:`SIM_BOT`, for a bot with no setting that buys
    strength)."""
    if not seats:
        return "Try stronger bots, or --check-strength to see whether the figures change with them."
    suggestion = ",".join(stronger_spec(spec) or SIM_BOT for spec in seats)
    return (f"Try stronger settings of these bots (--seats {suggestion}), or --check-strength to see "
            "whether the figures change with them (it also says whether the short games are the "
            "bots' doing).")


def warnings(sanity: dict, games: int, seats=None) -> list:
    """Plain-words warnings when the figures look like artefacts of the bots or of the cap."""
    found = []
    if games and sanity["short_rate"] > SHORT_WARN:
        plain = max(sanity["plain_choices"], key=lambda row: row["chosen"], default=None)  # the most taken
        taken = f" ('{plain['option']}' was taken in {100 * plain['rate']:.0f}% of the decisions that offered " \
                "it next to other actions)" if plain else ""
        found.append(f"{100 * sanity['short_rate']:.0f}% of the games ended within {sanity['short_limit']} "
                     f"decisions: the bots may be ending the game early (passing){taken} rather than playing "
                     "it, and then these figures describe the bots more than the rules; if stronger bots end it "
                     f"as early, the rules let a player end it on purpose. {stronger_advice(seats)}")
    if sanity["shared_rate"] > SHARED_WARN:
        found.append(f"{100 * sanity['shared_rate']:.0f}% of the finished games were shared wins: often a sign "
                     "that nobody scored, i.e. of bots that do not play for points.")
    if sanity["unfinished"]:
        found.append(f"{sanity['unfinished']} game(s) did not end within the cap on decisions "
                     "(--max-decisions) and are left out of win rates and scores: the rules may not "
                     "always reach an end, or the bots may be stalling.")
    return found


def lines(sanity: dict, games: int) -> list:
    """The report as lines of text for the terminal and the HTML report."""
    out = [f"games that ended within {sanity['short_limit']} decisions: {sanity['short_games']} of {games} "
           f"({100 * sanity['short_rate']:.1f}%)",
           f"shared wins: {sanity['shared_wins']} ({100 * sanity['shared_rate']:.1f}% of finished games)"]
    if sanity["unfinished"]:
        out.append(f"unfinished (cut off by --max-decisions): {sanity['unfinished']}")
    ends = ", ".join(f"{reason}: {count}" for reason, count in sanity["end_reasons"].items())
    out.append(f"how games ended: {ends}")
    if sanity["plain_choices"]:
        rates = ", ".join(f"{row['option']} {100 * row['rate']:.0f}% of {row['offered']}"
                          for row in sanity["plain_choices"][:4])
        out.append(f"options without parameters taken when others were legal: {rates}")
    return out
