"""The strength check: does a balance conclusion survive a stronger player?

The same seeds are played again with a stronger setting of the same bots (by default four times the
time per decision: ``flat`` -> ``flat:rollouts=16,budget=128``, ``mcts`` -> four times the
iterations; see :func:`interpreter.bots.stronger_spec`), and every row of the conclusion — a seat's
advantage over the fair share (simulate, sweep) or a variant's effect on a measure (compare) — is
shown at both strengths, with the difference between them tested as pairs over the seeds.

The verdict of a row, from the weak row W, the strong row S (each significant when its Holm p, over
the rows of its own table, is below 0.05) and the difference D = S - W (paired t over the seeds,
significant when its Holm p over the rows of the check is below 0.05):

- **holds**: W and S are both significant, in the same direction;
- **changes**: W and S are significant in opposite directions, or D is significant (the effect at
  the stronger setting differs from the effect at the weaker one) and the conclusion does not hold;
- **cannot tell yet**: anything else — one strength or both found nothing, and the two do not
  differ significantly.  ``games_to_tell`` then estimates, from the standard errors of this run,
  the games per strength at which the observed effects would be significant with 80% power: the
  games that make both W and S significant (when they point the same way) or D significant,
  whichever is fewer (None when the observed effects are zero).

Games that end within a few decisions (the sanity report's short games) get a reading of their own
(:func:`short_check`): fewer of them with the stronger bots (exact McNemar test over the seeds) point
at the bots' mistakes; as many or more, with the stronger share's interval above the warning level,
at rules that let a player end the game that early on purpose.  compare reads its base and its variant
and a sweep each setting (:func:`short_across`, Holm's correction over the games read), and compare
adds the variant's change in the short games at each strength (:func:`short_effect`).
"""
from __future__ import annotations

import json

from dsl.errors import ParameterError

from . import paired, sanity, seats, stats
from .playing import SIM_BOT
from ..bots import split_specs, stronger_spec

HOLDS, CHANGES, CANNOT_TELL = "holds", "changes", "cannot tell yet"
BOTS_END_EARLY = "fewer with the stronger bots: the early ends are the bots' doing more than the rules'"
RULES_END_EARLY = ("as many or more with the stronger bots: the rules let a player end the game this early "
                   "on purpose")


def stronger_seats(specs: list, text: str | None = None) -> list:
    """The seats of the check: ``text`` (one spec for every seat, or one per seat) when given, else a
    stronger setting of each seat's bot (a bot without one, such as ``random``, stays as it is)."""
    if text:
        given = split_specs(text)
        if len(given) == 1:
            return given * len(specs)
        if len(given) != len(specs):
            raise ParameterError(f"--check-strength lists {len(given)} bots for {len(specs)} seats",
                                 hint="give one bot spec for every seat, or one per seat")
        return given
    stronger = [stronger_spec(spec) for spec in specs]
    if not any(stronger):
        raise ParameterError(f"none of the bots {', '.join(specs)} has a setting that buys strength",
                             hint=f"name the stronger bot: --check-strength {SIM_BOT}")
    return [strong or spec for strong, spec in zip(stronger, specs)]


def verdict(weak: dict, strong: dict, difference: dict) -> tuple:
    """(verdict, games_to_tell) of one row; see the module's docstring."""
    direction = lambda row: (row["change"] > 0) - (row["change"] < 0)  # noqa: E731
    both = weak["significant"] and strong["significant"]
    if both and direction(weak) == direction(strong):
        return HOLDS, None
    if both or difference["significant"]:
        return CHANGES, None
    games = difference["games"]
    candidates = [stats.games_to_detect(difference["change"], difference["se"], games)]
    if direction(weak) * direction(strong) > 0:
        needed = [stats.games_to_detect(row["change"], row["se"], games) for row in (weak, strong)]
        candidates.append(None if None in needed else max(needed))
    known = [n for n in candidates if n is not None]
    return CANNOT_TELL, min(known) if known else None


def _difference(measure: str, label: str, weak_values: list, strong_values: list, span=None) -> dict:
    """strong - weak by the paired t-test; ``span``: the largest size the difference can have (a t
    interval of few games can reach past it, e.g. a win-share difference of -119 points), to which
    the interval is cut (0 lies inside the span, so the cut never changes whether it excludes 0)."""
    row = stats.paired_t(weak_values, strong_values)
    detectable = stats.detectable(row["se"])
    ci95 = row["ci95"]
    if span is not None and ci95 is not None:
        ci95 = [max(ci95[0], -span), min(ci95[1], span)]
    return {"measure": measure, "label": label, "games": len(weak_values), "change": row["difference"],
            "ci95": ci95, "p": row["p"], "se": row["se"], "test": "paired t over the seeds",
            "detectable": detectable}


def _rows(weak_rows: list, strong_rows: list, differences: list) -> list:
    paired.adjust(differences)
    rows = []
    for weak, strong, difference in zip(weak_rows, strong_rows, differences):
        said, games = verdict(weak, strong, difference)
        rows.append({"measure": weak["measure"], "label": weak["label"], "weak": weak, "strong": strong,
                     "difference": difference, "verdict": said, "games_to_tell": games})
    return rows


def _both_finished(*runs) -> list:
    """The runs cut to the games finished in every one of them (same seeds, so aligned)."""
    kept = [games for games in zip(*runs) if all(r.finished for r in games)]
    return [list(run) for run in zip(*kept)] if kept else [[] for _ in runs]


def seat_check(weak: list, strong: list, players: int, seat_list=None) -> list:
    """Each seat's advantage over the fair share at both strengths (``seat_list``: the seats to
    check, counted from 1; default all)."""
    weak, strong = _both_finished(weak, strong)
    chosen = seat_list or range(1, players + 1)
    weak_all, strong_all = seats.advantage_rows(weak, players), seats.advantage_rows(strong, players)
    weak_rows, strong_rows = [weak_all[s - 1] for s in chosen], [strong_all[s - 1] for s in chosen]
    differences = [_difference(row["measure"], row["label"], seats.per_game_shares(weak, s - 1),
                               seats.per_game_shares(strong, s - 1), span=1.0)
                   for row, s in zip(weak_rows, chosen)]
    return _rows(weak_rows, strong_rows, differences)


def setting_label(params: dict) -> str:
    """A sweep's setting as its check's rows name it, each value as the sweep's table prints it
    (JSON): ``street=7, open_hands=true``."""
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in params.items())


def across_points(checks: list) -> list:
    """Rows of a sweep's check, one per setting (``(params, row)`` pairs), labelled by the setting,
    with Holm's correction across the settings (as in the sweep's own table) at each strength and of
    the differences."""
    rows = [{**row, "label": setting_label(params)} for params, row in checks]
    for key in ("weak", "strong"):
        paired.adjust([row[key] for row in rows])
    differences = paired.adjust([row["difference"] for row in rows])
    for row, difference in zip(rows, differences):
        row["verdict"], row["games_to_tell"] = verdict(row["weak"], row["strong"], difference)
    return rows


def effect_check(base_weak: list, variant_weak: list, base_strong: list, variant_strong: list,
                 players: int) -> list:
    """Each measure's change from base to variant at both strengths, and how the change differs."""
    base_weak, variant_weak, base_strong, variant_strong = _both_finished(
        base_weak, variant_weak, base_strong, variant_strong)
    weak_rows = paired.compare(base_weak, variant_weak, players)["rows"]
    strong_rows = paired.compare(base_strong, variant_strong, players)["rows"]
    differences = []
    for row in weak_rows:
        change = lambda base, variant: [float(v) - float(b) for b, v in zip(  # noqa: E731
            paired.values(base, row["measure"]), paired.values(variant, row["measure"]))]
        span = 2.0 if row["measure"].startswith("win") else None  # a change of a win is -1, 0 or +1
        differences.append(_difference(row["measure"], row["label"], change(base_weak, variant_weak),
                                       change(base_strong, variant_strong), span))
    return _rows(weak_rows, strong_rows, differences)


def length_check(weak: list, strong: list) -> dict:
    """Game length at both strengths: the bots' share in a property of the rules."""
    weak, strong = _both_finished(weak, strong)
    lengths = lambda results: [r.decisions for r in results]  # noqa: E731
    difference = paired.adjust([_difference("length", "decisions", lengths(weak), lengths(strong))])[0]
    return {"weak": stats.t_interval(lengths(weak)), "strong": stats.t_interval(lengths(strong)),
            "difference": difference}


def _short_change(first: list, second: list, limit: int) -> dict:
    """The games of ``first`` and of ``second`` (aligned by seed) that ended within ``limit``
    decisions, and the paired change second - first (exact McNemar, its interval inverting the test)."""
    xs, ys = ([r.decisions <= limit for r in run] for run in (first, second))
    test = stats.mcnemar_exact(xs, ys)
    return {"first": sum(xs), "second": sum(ys), "games": len(xs),
            "difference": {"change": test["difference"], "ci95": test["ci95"], "p": test["p"],
                           "test": "exact McNemar over the seeds"}}


def _reading(check: dict) -> str:
    """What the short games at both strengths say, from the drop's p (Holm's when several are read)."""
    difference = check["difference"]
    if difference.get("p_holm", difference["p"]) < stats.ALPHA and difference["change"] < 0:
        return BOTS_END_EARLY
    if stats.wilson_interval(check["strong"], check["games"])[0] > sanity.SHORT_WARN:  # and no significant drop
        return RULES_END_EARLY
    return CANNOT_TELL


def short_check(weak: list, strong: list, players: int) -> dict | None:
    """The games that ended within the sanity report's few decisions at both strengths, the paired
    change (exact McNemar test over the seeds, its interval inverting the test) and a reading: the
    bots' doing, the rules', or cannot tell yet.  None when neither strength has more of them than
    the sanity report warns about."""
    limit = sanity.short_limit_of(players)
    change = _short_change(*_both_finished(weak, strong), limit)
    games = change["games"]
    if not games or max(change["first"], change["second"]) <= sanity.SHORT_WARN * games:
        return None
    check = {"limit": limit, "games": games, "weak": change["first"], "strong": change["second"],
             "difference": change["difference"]}
    check["reading"] = _reading(check)
    return check


def short_across(labelled: list) -> list:
    """The short-game readings of several games (compare's base and variant, a sweep's settings):
    ``(fields, check)`` pairs, ``fields`` naming the game (``label``, and a sweep's ``params``); the
    checks None (nothing to read) left out, the others' p corrected by Holm over those read together,
    and read again."""
    checks = [{**fields, **check} for fields, check in labelled if check]
    paired.adjust([check["difference"] for check in checks])
    for check in checks:
        check["reading"] = _reading(check)
    return checks


def short_effect(base_weak: list, variant_weak: list, base_strong: list, variant_strong: list,
                 players: int) -> dict:
    """The variant's change in the short games at each strength (variant - base, as pairs)."""
    limit = sanity.short_limit_of(players)
    rows = {}
    for name, base, variant in (("weak", base_weak, variant_weak), ("strong", base_strong, variant_strong)):
        change = _short_change(*_both_finished(base, variant), limit)
        rows[name] = {"games": change["games"], "base": change["first"], "variant": change["second"],
                      "difference": change["difference"]}
    return {"limit": limit, **rows}
