"""Camel Stack Race (rulesets/camel-race.yaml) against the published rules of Camel Up (2014).

Each test quotes the rule it checks (docs/games/camel-race.md gives the rulings).  The dice are
dictated: the games run with explicit chance, so the die that comes out of the pyramid (a draw from a
shuffled pile: one chance node over the dice still inside) and its face (``roll(3)``) are outcomes the
test picks.  The setup rolls are dictated the same way, so every position is one the rules can reach.
"""
from __future__ import annotations

from interpreter import load_game
from interpreter.runtime.lazy_pile import raw

_GAMES: dict = {}
COLOURS = ["blue", "green", "orange", "yellow", "white"]


def game_for(players=2, **params):
    key = (players, tuple(sorted(params.items())))
    if key not in _GAMES:
        _GAMES[key] = load_game("camel-race", players=players, params=params or None)
    return _GAMES[key]


def _pick_die(state, colour):
    """Resolve the chance node that takes a die out of the pyramid: the outcomes are the dice still
    inside, in the order of their ids (read without fixing the pile's order)."""
    game = state.game
    inside = sorted(raw(state.zones[game.zone_names.index("pyramid")]))
    names = [game.names[c] for c in inside]
    if len(names) == 1:             # the last die has nowhere else to be: no chance node
        assert names == [f"{colour} die"]
        return
    state.apply_action(state.chance_outcomes()[names.index(f"{colour} die")][0])


def _face(state, face):
    assert state.is_chance_node() and len(state.chance_outcomes()) == 3
    state.apply_action(state.chance_outcomes()[face - 1][0])


def start(*placed, players=2, **params):
    """A new game whose setup rolls place the camels as ``placed`` says: (colour, space) pairs in the
    order the dice were rolled (a later camel on the same space goes on top)."""
    state = game_for(players, **params).new_initial_state(0, explicit_chance=True)
    # the setup takes the dice from a shuffled pyramid, top first, and rolls them bottom first
    for colour, _ in reversed(placed[1:]):
        _pick_die(state, colour)
    for _, space in placed:
        _face(state, space)
    assert not state.is_chance_node()
    return state


def let_out(state, colour, face):
    """The active player takes a pyramid tile; the ``colour`` die comes out showing ``face``."""
    state.apply_action("take a pyramid tile and let a die out")
    _pick_die(state, colour)
    _face(state, face)


def lay(state, text):
    """The active player lays their desert tile: first the kind of action, then the side and space."""
    state.apply_action("lay your desert tile")
    state.apply_action(text)


def places(state) -> set:
    """The places the active player could lay their desert tile now (the answer is taken back)."""
    probe = state.clone()
    probe.apply_action("lay your desert tile")
    return {str(a) for a in probe.legal_actions()}


def camels(state) -> dict:
    """{colour: (space, level)}."""
    game = state.game
    out = {}
    for c in state.zones[game.zone_names.index("track")]:
        out[game.names[c].split()[0]] = (state.marks["space"][c], state.marks["level"][c])
    return out


def take_leg_tile(state, colour):
    """The active player takes the top leg betting tile of ``colour`` (the most valuable left)."""
    [action] = [str(a) for a in state.legal_actions() if str(a).startswith(f"take leg tile {colour} ")]
    state.apply_action(action)


def names(state, zone):
    g = state.game
    return [g.names[c] for c in raw(state.zones[g.zone_names.index(zone)])]


def money(state):
    return state.pvars["money"]


STANDARD = [("white", 1), ("blue", 1), ("green", 2), ("orange", 3), ("yellow", 3)]


def test_setup_rolls_each_die_once_and_later_camels_stack_on_top():
    """»Roll each die once and place the camel of its colour on the space the die shows; a camel
    placed on an occupied space goes on top of the camels there.« »Each player receives 3 Egyptian
    pounds.« »The leg betting tiles are sorted by colour into stacks, the 5 on top.«"""
    s = start(*STANDARD)
    assert camels(s) == {"white": (1, 0), "blue": (1, 1), "green": (2, 0), "orange": (3, 0), "yellow": (3, 1)}
    assert money(s) == [3, 3]
    assert [n for n in names(s, "leg_tiles") if n.startswith("blue")] == ["blue 5", "blue 3", "blue 2"]
    assert {str(a) for a in s.legal_actions() if str(a).startswith("take leg tile")} == {
        f"take leg tile {c} 5" for c in COLOURS}
    take_leg_tile(s, "blue")
    assert names(s, "leg_bets[P1]") == ["blue 5"]
    take_leg_tile(s, "blue")
    assert names(s, "leg_bets[P2]") == ["blue 3"]
    assert "take leg tile blue 2" in {str(a) for a in s.legal_actions()}


def test_a_camel_carries_the_camels_on_its_back_and_lands_on_top():
    """»If a camel moves that has other camels on top of it, it carries them along.« »If a camel
    lands on a space already occupied by other camels, it is placed on top of them.«"""
    s = start(*STANDARD)
    let_out(s, "white", 2)          # white carries blue onto the stack of orange and yellow
    assert camels(s)["white"] == (3, 2) and camels(s)["blue"] == (3, 3)
    assert camels(s)["orange"] == (3, 0) and camels(s)["yellow"] == (3, 1)
    assert s.pvars["pyramid_tiles"] == [1, 0] and names(s, "rolled") == ["white die"]
    let_out(s, "yellow", 1)         # P2: yellow leaves orange behind and carries white and blue
    assert camels(s)["orange"] == (3, 0)
    assert [camels(s)[c] for c in ("yellow", "white", "blue")] == [(4, 0), (4, 1), (4, 2)]


def test_desert_tiles_go_on_a_free_space_away_from_other_tiles():
    """»A desert tile may not be placed on the first space, on a space with a camel, or on or next to
    a space with another desert tile.« A player may move their own tile."""
    s = start(*STANDARD)
    legal = places(s)
    assert "lay your oasis on space 4" in legal and "lay your mirage on space 16" in legal
    assert not {"lay your oasis on space 1", "lay your oasis on space 2", "lay your oasis on space 3"} & legal
    lay(s, "lay your oasis on space 5")
    legal = places(s)
    assert not {"lay your mirage on space 4", "lay your mirage on space 5", "lay your mirage on space 6"} & legal
    assert "lay your mirage on space 7" in legal
    lay(s, "lay your mirage on space 7")
    lay(s, "lay your oasis on space 9")   # P1 moves their tile
    assert s.pvars["desert_space"] == [9, 7]


def test_an_oasis_moves_the_camels_on_and_a_mirage_back_beneath_the_stack():
    """»Oasis: the camel unit moves one space further and is placed on top. Mirage: it moves one space
    back and is placed beneath any camels there. The owner of the tile receives 1 Egyptian pound.«"""
    s = start(*STANDARD)
    lay(s, "lay your oasis on space 4")
    lay(s, "lay your mirage on space 6")
    let_out(s, "orange", 1)         # P1: orange carries yellow onto the oasis on 4, on to 5
    assert camels(s)["orange"] == (5, 0) and camels(s)["yellow"] == (5, 1)
    assert money(s) == [4, 3]
    let_out(s, "green", 3)          # P2: green reaches 5 on its own, on top
    assert camels(s)["green"] == (5, 2)
    let_out(s, "white", 3)          # P1: white and blue come to 4, the oasis: on to 5, on top
    assert camels(s)["white"] == (5, 3) and camels(s)["blue"] == (5, 4)
    assert money(s) == [5, 3]
    let_out(s, "yellow", 1)         # P2: yellow carries green, white, blue onto the mirage: back to 5
    assert [camels(s)[c] for c in ("yellow", "green", "white", "blue", "orange")] == [
        (5, 0), (5, 1), (5, 2), (5, 3), (5, 4)]
    assert money(s) == [5, 4]


def test_a_leg_ends_when_every_die_is_out_and_the_leg_bets_pay():
    """»The leg ends when the last die leaves the pyramid.« »Each leg betting tile of the leading camel
    earns its value, of the second camel 1 pound, every other tile costs its owner 1 pound.« »Each
    pyramid tile earns 1 pound.« A player cannot pay more than they have."""
    s = start(*STANDARD)
    take_leg_tile(s, "blue")        # P1: blue 5
    take_leg_tile(s, "orange")      # P2: orange 5
    take_leg_tile(s, "white")       # P1: white 5
    take_leg_tile(s, "green")       # P2: green 5
    s.pvars["money"] = [3, 0]
    s.legal_cache = None
    let_out(s, "green", 1)          # P1: green to 3 on top of yellow
    let_out(s, "blue", 3)           # P2: blue to 4, leading
    let_out(s, "orange", 1)         # P1: orange, yellow, green to 4 on top of blue
    let_out(s, "yellow", 1)         # P2: yellow and green to 5
    let_out(s, "white", 1)          # P1: white to 2: the leg ends
    assert camels(s)["green"] == (5, 1) and camels(s)["yellow"] == (5, 0)
    # green leads, yellow second: P1 (blue 5, white 5) loses 2 and gains 3 pyramid tiles; P2 (orange 5,
    # green 5) loses 1, gains 5 and 2 pyramid tiles, settled at once
    assert money(s) == [3 - 2 + 3, 0 - 1 + 5 + 2]
    assert s.pvars["pyramid_tiles"] == [0, 0] and len(names(s, "pyramid")) == 5
    assert names(s, "leg_tiles").count("blue 5") == 1 and names(s, "leg_bets[P1]") == []


def test_the_race_ends_at_the_finish_and_overall_bets_pay_in_the_order_laid():
    """»As soon as a camel crosses the finish line, the game ends.« »The first correct bet on the
    overall winner earns 8, the second 5, then 3, 2 and 1; each wrong bet costs 1 pound.« Same for
    the loser. The richest player wins. (A short track of 4 spaces.)"""
    s = start(*STANDARD, players=3, track_length=4)
    s.apply_action("bet yellow race card on the overall winner")    # P1, right
    s.apply_action("bet blue race card on the overall winner")      # P2, wrong
    s.apply_action("bet yellow race card on the overall winner")    # P3, right, second
    assert s.view(1)["zones"]["winner_bets"] == {"count": 3}
    s.apply_action("bet white race card on the overall loser")      # P1, right
    let_out(s, "orange", 2)         # P2: orange carries yellow to 5: over the line
    assert s.is_terminal()
    # P1: 3 + 8 (winner) + 8 (loser); P2: 3 - 1 + 1 pyramid tile; P3: 3 + 5
    assert s.returns() == [19, 3, 8] and s.winners() == [0]


def test_a_desert_tile_on_the_track_moves_to_a_different_space():
    """»If your spectator tile is already on the game board, you may use this action to move it to a
    different space (following the same rules).« (second edition; the first edition's desert tile is
    the same tile): the tile cannot be turned over where it lies."""
    s = start(*STANDARD)
    lay(s, "lay your oasis on space 5")
    s.apply_action("take a pyramid tile and let a die out")   # P2; P1 is next
    _pick_die(s, "white")
    _face(s, 1)
    assert not {"lay your oasis on space 5", "lay your mirage on space 5"} & places(s)
    lay(s, "lay your mirage on space 6")
    assert s.pvars["desert_space"] == [6, 0] and s.pvars["desert_face"] == [-1, 1]
    assert s.view(1)["players"][0]["desert_tile"] == "mirage on space 6"


def test_the_table_lists_the_camels_in_race_order_and_the_dice_with_their_faces():
    """The track zone keeps the camels in race order, the leader first (the top of a stack before the
    camels beneath it), so the terminal and the web table show the race as it stands."""
    s = start(*STANDARD)
    assert names(s, "track") == ["yellow camel", "orange camel", "green camel", "blue camel", "white camel"]
    let_out(s, "white", 2)          # white carries blue onto orange and yellow
    assert names(s, "track") == ["blue camel", "white camel", "yellow camel", "orange camel", "green camel"]
    assert [(d["name"], d["showing"]) for d in s.view(0)["zones"]["rolled"]] == [("white die", 2)]


def test_the_terminal_board_reads_as_the_race_stands():
    """`rulebook play camel-race` in a 120-column terminal: the race track has one character per
    space (a camel on space 3 is three steps from the start), the camels are listed leader first, the
    leg betting tiles lie in their own row and a desert tile is told in words."""
    import io
    import re

    from rich.console import Console

    from interpreter.cli.render import render_view
    s = start(*STANDARD)
    lay(s, "lay your oasis on space 5")
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(render_view(s.view(1), s.game, menu=False))
    text = console.export_text()
    path = dict(re.findall(r"(\w+) camel +([·●|]+) \d+/17", text))
    assert path["yellow"].index("●") == 3 and path["white"].index("●") == 1 and path["yellow"].index("|") == 17
    assert text.index("yellow camel (space 3, level 1)") < text.index("white camel (space 1)")
    assert "Leg betting tiles" in text and "blue 5, blue 3, blue 2" in text and "camel [" not in text
    assert "Desert tile oasis on space 5" in text and "Desert tile not laid" in text
    assert "Desert tile on space" not in text and "desert_face" not in text
