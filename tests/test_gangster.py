"""Gangster – Die Bosse von Chicago (rulesets/gangster.yaml) against its rulebook.

Every test quotes the German sentence of /work/shared/rulebooks/gangster-bosse-von-chicago.txt
(or the ruling of docs/games/gangster.md) it checks.  Positions on the 6×6 map are written as six
rows of codes: ``R1`` is "red 1", ``B2`` "blue 2", ``Y3`` "yellow 3", ``G1`` "grey 1", a trailing
``x`` marks a dead (shot) gangster, ``.`` an empty field.  Cells are written ``r3c4`` (row 3,
column 4, counted from 1) as in the game's action texts.  Seats: 0 Red, 1 Blue, 2 Yellow, 3 Grey.
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from interpreter import IllegalActionError, load_game
from interpreter.runtime.positions import arrange

ROOT = Path(__file__).resolve().parent.parent
RED, BLUE, YELLOW, GREY = 0, 1, 2, 3
GANG = {"R": "red", "B": "blue", "Y": "yellow", "G": "grey"}
EVERY_TILE = Counter({f"{g} {p}": 3 for g in GANG.values() for p in (1, 2, 3)})

# ---- helpers ---------------------------------------------------------------------------------------

_GAMES: dict = {}


def game_for(players=4, **params):
    key = (players, tuple(sorted(params.items())))
    if key not in _GAMES:
        _GAMES[key] = load_game("gangster", players=players, params=params or None)
    return _GAMES[key]


def cell_of(game, text: str) -> int:
    """The cell index of 'r3c4' on the map."""
    row, col = text[1:].split("c")
    first = game.zone_grid[game.zone_names.index("city")][0]
    return first + (int(row) - 1) * 6 + (int(col) - 1)


def parse_board(rows) -> dict:
    """{'r1c2': ('red 1', dead)} from six rows of codes (see the module docstring)."""
    assert len(rows) == 6, "a map has six rows"
    out = {}
    for r, line in enumerate(rows, 1):
        codes = line.split()
        assert len(codes) == 6, f"row {r} needs six fields: {line!r}"
        for c, code in enumerate(codes, 1):
            if code == ".":
                continue
            out[f"r{r}c{c}"] = (f"{GANG[code[0]]} {code[1]}", code.endswith("x"))
    return out


EMPTY = [". . . . . ."] * 6

# tiles for the map are taken from these zones first, so that supplies keep their tiles
_PULL_ORDER = ["box", "stack_a", "stack_b", "open_supply", "drawn"]


def _put_on_map(state, name: str, cell_text: str) -> int:
    game = state.game
    city = game.zone_names.index("city")
    order = [game.zone_names.index(z) for z in _PULL_ORDER]
    order += [z for z in range(len(game.zone_names)) if z not in order and z != city]
    for zone in order:
        for c in reversed(state.zones[zone]):
            if game.names[c] == name:
                cell = cell_of(game, cell_text)
                state.move_component(c, game.cell_zone[cell], False, cell)
                return c
    raise AssertionError(f"no '{name}' left off the map for {cell_text}")


def start(players=4, board=None, zones=None, params=None, seed=0, active=None, last_moved=None,
          score=None, reached_at=None, bullets=None, turn_number=None):
    """A game after setup, rearranged: ``zones`` (ordinary zones, as positions.arrange takes them;
    the tiles pushed out go to the box, out of play), then ``board`` (six rows of codes), then the
    variables.  ``score``/``reached_at``/``bullets`` are {seat: value}; ``last_moved`` a cell."""
    game = game_for(players, **(params or {}))

    def fn(state):
        if zones is not None:
            arrange(state, {"zones": zones, "overflow": "box"})
        for cell_text, (name, dead) in parse_board(board or EMPTY).items():
            c = _put_on_map(state, name, cell_text)
            if dead:
                state.marks["dead"][c] = True
        if active is not None:
            state.vars["active"] = active
        if last_moved is not None:
            state.vars["last_moved"] = state.cells[cell_of(game, last_moved)]
        if turn_number is not None:
            state.vars["turn_number"] = turn_number
        for var, values in (("score", score), ("reached_at", reached_at), ("bullets", bullets)):
            for seat, value in (values or {}).items():
                state.pvars[var][seat] = value
        if reached_at:
            state.vars["score_changes"] = max(reached_at.values())

    return game.new_initial_state(seed, arrange=fn)


def legal(state) -> list:
    return [str(a) for a in state.legal_actions()]


def play(state, *texts) -> None:
    for text in texts:
        state.apply_action(text)


def at(state, cell_text: str):
    """The name of the tile on a cell, or None."""
    c = state.cells[cell_of(state.game, cell_text)]
    return None if c is None else state.game.names[c]


def dead(state, cell_text: str) -> bool:
    return bool(state.marks["dead"][state.cells[cell_of(state.game, cell_text)]])


def names_in(state, zone: str) -> list:
    return [state.game.names[c] for c in state.zones[state.game.zone_names.index(zone)]]


def count_in(state, zone: str) -> int:
    return len(state.zones[state.game.zone_names.index(zone)])


def rejected(state, text: str) -> str:
    """Assert ``text`` is refused with IllegalActionError and the state is unchanged; the message."""
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(text)
    assert state.to_json() == before
    message = str(info.value)
    assert text in message and "not a legal action" in message
    return message


def moves_of(state, tile: str, cell_text: str) -> set:
    prefix = f"move {tile} from {cell_text} to "
    return {t[len(prefix):] for t in legal(state) if t.startswith(prefix)}


def shots(state) -> set:
    return {t for t in legal(state) if t.startswith("shoot ")}


# ---- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players, bullets, stack_sizes", [(2, 2, (14, 14)), (3, 1, (13, 12)), (4, 1, (11, 11))])
def test_setup(players, bullets, stack_sizes):
    """»Jeder Spieler erhält: 1 Gangster mit Machtfaktor 1, 1 Gangster mit Machtfaktor 2 und 1 Gangster
    mit Machtfaktor 3. Diese 3 Gangster legt jeder Spieler offen vor sich ab. [...] Alle übrigen Gangster
    werden gut gemischt und zu 2 Stapeln verdeckt neben den Spielplan gelegt. Von diesen Stapeln werden
    nun 2 Gangster aufgedeckt. Diese bilden den allgemeinen Vorrat.« »Zusätzlich erhält jeder Spieler eine
    Patrone. (Bei 2 Spielern erhält jeder Spieler 2 Patronen.)« »[...] die er auf Position „0“ der Rangliste
    stellt.« Ruling: the colours no one plays go into the stacks too (»alle übrigen Gangster«)."""
    state = start(players)
    game = state.game
    colours = ["red", "blue", "yellow", "grey"]
    for seat in range(players):
        assert sorted(names_in(state, f"supply[{game.player_names[seat]}]")) == \
            [f"{colours[seat]} {p}" for p in (1, 2, 3)]
    rest = Counter(names_in(state, "stack_a") + names_in(state, "stack_b") + names_in(state, "open_supply"))
    expected = EVERY_TILE - Counter(f"{colours[s]} {p}" for s in range(players) for p in (1, 2, 3))
    assert rest == expected and sum(rest.values()) == 36 - 3 * players
    assert (count_in(state, "stack_a"), count_in(state, "stack_b")) == stack_sizes
    assert count_in(state, "open_supply") == 2
    assert count_in(state, "city") == count_in(state, "box") == count_in(state, "drawn") == 0
    assert state.pvars["bullets"] == [bullets] * players
    assert state.pvars["score"] == [0] * players
    assert state.current_player() == RED and not state.is_terminal()
    # the stacks are face down, the open supply and the own supplies face up
    view = state.view(BLUE)
    assert view["zones"]["stack_a"] == {"count": stack_sizes[0]}
    assert [t["name"] for t in view["zones"]["open_supply"]] == names_in(state, "open_supply")
    assert [t["name"] for t in view["zones"]["supply"]["Red"]] == names_in(state, "supply[Red]")


def test_setup_shuffles_the_stacks():
    """»Alle übrigen Gangster werden gut gemischt«: other seeds give other stacks."""
    orders = {tuple(names_in(start(4, seed=seed), "stack_a")) for seed in range(5)}
    assert len(orders) > 1


# ---- 1. Möglichkeit: Gangster legen ------------------------------------------------------------------


def test_place_from_own_supply_which_is_not_refilled():
    """»A. Einen seiner Gangster aus dem eigenen Vorrat. (Achtung: Der eigene Vorrat an Gangstern wird
    nicht wieder aufgefüllt.)« »Ein Gangster wird immer offen [...] auf ein beliebiges freies Feld des
    Spielplans gelegt.« Ruling: placing takes two decisions, the tile and then the field."""
    state = start(2)
    play(state, "place red 2 from your supply")
    assert state.current_player() == RED
    assert sorted(legal(state)) == sorted(f"put red 2 on r{r}c{c}" for r in range(1, 7) for c in range(1, 7))
    play(state, "put red 2 on r3c4")
    assert at(state, "r3c4") == "red 2"
    assert sorted(names_in(state, "supply[Red]")) == ["red 1", "red 3"]
    assert state.current_player() == BLUE
    play(state, "place blue 1 from your supply", "put blue 1 on r6c6",
         "place red 1 from your supply", "put red 1 on r1c1",
         "place blue 2 from your supply", "put blue 2 on r6c5",
         "place red 3 from your supply", "put red 3 on r1c2")
    assert names_in(state, "supply[Red]") == []
    play(state, "place blue 3 from your supply", "put blue 3 on r6c4")
    assert state.current_player() == RED
    assert not any(t.endswith("from your supply") for t in legal(state))
    rejected(state, "place red 1 from your supply")


def test_place_from_open_supply_refills_it_from_a_stack():
    """»B. Einen der 2 offen liegenden Gangster des allgemeinen Vorrats. Danach vom verdeckten Stapel den
    allgemeinen Vorrat wieder auf 2 offen liegende Gangster auffüllen. (Es ist erlaubt und manchmal
    strategisch günstig, Gangster anderer Spielfarben zu legen).« Ruling: the refill comes from the
    larger face-down stack (stack A when both are equal)."""
    state = start(4, zones={"open_supply": ["grey 1", "yellow 3"], "stack_a": ["blue 2", "yellow 1"],
                            "stack_b": ["grey 2", "red 1", "grey 3"]})
    assert "place grey 1 from the open supply" in legal(state)
    play(state, "place grey 1 from the open supply", "put grey 1 on r2c2")
    assert at(state, "r2c2") == "grey 1"
    assert sorted(names_in(state, "open_supply")) == ["grey 3", "yellow 3"]  # the top of the larger stack B
    assert (count_in(state, "stack_a"), count_in(state, "stack_b")) == (2, 2)
    play(state, "place yellow 3 from the open supply", "put yellow 3 on r5c5")
    assert sorted(names_in(state, "open_supply")) == ["grey 3", "yellow 1"]  # equal stacks: stack A
    assert (count_in(state, "stack_a"), count_in(state, "stack_b")) == (1, 2)


def test_open_supply_stays_short_when_both_stacks_are_empty():
    """»Danach vom verdeckten Stapel den allgemeinen Vorrat wieder auf 2 [...] auffüllen« — as far as the
    stacks go: with both stacks empty nothing is drawn and no stack can be drawn from."""
    state = start(2, zones={"open_supply": ["grey 1", "yellow 3"], "stack_a": [], "stack_b": []})
    assert not any(t.startswith("draw") for t in legal(state))
    play(state, "place grey 1 from the open supply", "put grey 1 on r1c1")
    assert names_in(state, "open_supply") == ["yellow 3"]


def test_draw_the_top_of_a_face_down_stack_and_see_it_before_choosing_the_field():
    """»C. Den obersten Gangster eines verdeckten Stapels ziehen, der dann ebenfalls auf den Spielplan
    positioniert wird.« Ruling: the drawn tile is turned face up before its field is chosen."""
    state = start(4, zones={"stack_a": ["red 2", "blue 3"], "stack_b": ["grey 2"],
                            "open_supply": ["yellow 1", "yellow 2"]},
                  board=["R1 . . . . .", *[". . . . . ."] * 5])
    play(state, "draw from stack A")
    assert names_in(state, "drawn") == ["blue 3"]
    assert [t["name"] for t in state.view(YELLOW)["zones"]["drawn"]] == ["blue 3"]
    assert state.current_player() == RED
    assert len(legal(state)) == 35 and all(t.startswith("put blue 3 on ") for t in legal(state))
    rejected(state, "put blue 3 on r1c1")  # »auf ein beliebiges freies Feld«
    play(state, "put blue 3 on r4c4")
    assert at(state, "r4c4") == "blue 3" and names_in(state, "drawn") == []
    assert names_in(state, "stack_a") == ["red 2"]
    assert sorted(names_in(state, "open_supply")) == ["yellow 1", "yellow 2"]  # not touched
    play(state, "draw from stack B", "put grey 2 on r6c6")
    assert names_in(state, "stack_b") == []
    assert "draw from stack B" not in legal(state) and "draw from stack A" in legal(state)


def test_placing_on_an_occupied_field_is_rejected():
    """»auf ein beliebiges freies Feld des Spielplans«: an occupied field is refused."""
    state = start(4, board=[". . . . . .", ". . . . . .", ". . . Y2 . .", *[". . . . . ."] * 3])
    play(state, "place red 1 from your supply")
    assert "put red 1 on r3c4" not in legal(state)
    rejected(state, "put red 1 on r3c4")
    assert at(state, "r3c4") == "yellow 2"


def test_no_tiles_from_another_players_supply_even_when_all_else_is_used_up():
    """»Gangster aus den Vorräten anderer Spieler dürfen nicht gelegt werden. Auch dann nicht, wenn der
    eigene und der allgemeine Vorrat an offen liegenden und verdeckten Gangstern erschöpft ist.«"""
    state = start(2, zones={"supply[Red]": [], "open_supply": [], "stack_a": [], "stack_b": []},
                  board=[". . . . . .", ". . . . . .", ". . R2 . . .", *[". . . . . ."] * 3])
    assert not any(t.startswith(("place", "draw")) for t in legal(state))
    assert all(t.startswith(("move", "shoot")) for t in legal(state))
    rejected(state, "place blue 1 from your supply")
    # at the start as well: only one's own supply is offered
    fresh = start(4)
    own = [t for t in legal(fresh) if t.endswith("from your supply")]
    assert sorted(own) == ["place red 1 from your supply", "place red 2 from your supply",
                           "place red 3 from your supply"]


# ---- 2. Möglichkeit: Gangster bewegen ----------------------------------------------------------------


def test_move_any_living_gangster_one_field_orthogonally_to_a_free_field():
    """»Ein Gangster egal welcher Farbe kann um ein Feld waagrecht oder senkrecht bewegt werden, sofern
    dieses Feld frei ist.«"""
    state = start(4, board=[". . . . . .",
                            ". . . . . .",
                            ". . Y2 G1 . .",
                            ". . . . . .",
                            ". . . . . .",
                            ". . . . . B3"])
    assert moves_of(state, "yellow 2", "r3c3") == {"r2c3", "r4c3", "r3c2"}  # not r3c4: taken
    assert moves_of(state, "grey 1", "r3c4") == {"r2c4", "r4c4", "r3c5"}
    assert moves_of(state, "blue 3", "r6c6") == {"r5c6", "r6c5"}  # the edge of the map
    rejected(state, "move yellow 2 from r3c3 to r2c2")  # not diagonally
    rejected(state, "move yellow 2 from r3c3 to r1c3")  # not two fields
    rejected(state, "move yellow 2 from r3c3 to r3c4")  # not onto a gangster
    play(state, "move blue 3 from r6c6 to r5c6")  # Red moves a blue gangster
    assert at(state, "r5c6") == "blue 3" and at(state, "r6c6") is None
    assert state.game.names[state.vars["last_moved"]] == "blue 3"
    assert state.current_player() == BLUE


def test_the_gangster_just_placed_or_moved_is_not_moved_by_the_next_player_but_by_the_one_after():
    """»Ein Gangster, der gerade bewegt oder gelegt wurde, kann vom darauf folgenden Spieler nicht bewegt
    werden, wohl aber vom Übernächsten.«"""
    state = start(3, board=[". . . . . .", ". . . . . .", ". . . . . .",
                            ". . . . . .", ". . . . . .", "Y1 . . . . ."])
    play(state, "place red 1 from your supply", "put red 1 on r3c3")  # Red places
    assert moves_of(state, "red 1", "r3c3") == set()  # Blue may not move it
    message = rejected(state, "move red 1 from r3c3 to r3c4")
    assert "move yellow 1 from r6c1 to r5c1" in legal(state)  # other tiles still move
    play(state, "move yellow 1 from r6c1 to r5c1")  # Blue moves
    assert moves_of(state, "red 1", "r3c3") == {"r2c3", "r4c3", "r3c2", "r3c4"}  # Yellow may
    assert moves_of(state, "yellow 1", "r5c1") == set()  # but not what Blue just moved
    play(state, "move red 1 from r3c3 to r3c4")  # Yellow moves it on
    assert moves_of(state, "red 1", "r3c4") == set()  # Red, next, may not
    assert moves_of(state, "yellow 1", "r5c1") != set()  # Blue's move is two turns back
    assert "not a legal action" in message


def test_two_players_the_one_after_next_is_oneself():
    """»[...] wohl aber vom Übernächsten«: with two players that is the player who placed it."""
    state = start(2)
    play(state, "place red 1 from your supply", "put red 1 on r3c3")
    assert moves_of(state, "red 1", "r3c3") == set()
    play(state, "place blue 1 from your supply", "put blue 1 on r5c5")
    assert moves_of(state, "red 1", "r3c3") == {"r2c3", "r4c3", "r3c2", "r3c4"}
    assert moves_of(state, "blue 1", "r5c5") == set()


def test_no_gangster_moves_out_of_a_complete_line():
    """»Aus einer kompletten Reihe von 6 Gangstern darf kein Gangster mehr bewegt werden!« — a row or a
    column (»Reihe (waagrecht oder senkrecht)«)."""
    state = start(4, board=[". . . . . B3",
                            "R1 B2 Y3 G1 R2 B1",
                            ". . . . . G2",
                            ". . . . . Y1",
                            ". . . . . Y2",
                            ". . . . . G3"])
    for c, tile in enumerate(["red 1", "blue 2", "yellow 3", "grey 1", "red 2"], 1):
        assert moves_of(state, tile, f"r2c{c}") == set()  # row 2 is complete
    for r, tile in ((1, "blue 3"), (3, "grey 2"), (4, "yellow 1"), (5, "yellow 2"), (6, "grey 3")):
        assert moves_of(state, tile, f"r{r}c6") == set()  # column 6 is complete
    assert not any(t.startswith("move") for t in legal(state))
    rejected(state, "move yellow 3 from r2c3 to r1c3")
    rejected(state, "move grey 3 from r6c6 to r6c5")


def test_dead_gangsters_never_move():
    """»Ein toter Gangster kann weder verschoben werden noch schießen.«"""
    state = start(4, board=[". . . . . .", ". . . . . .", ". . G1x . . .", *[". . . . . ."] * 3])
    assert moves_of(state, "grey 1", "r3c3") == set()
    rejected(state, "move grey 1 from r3c3 to r3c4")


# ---- 3. Möglichkeit: Gangster erschießen --------------------------------------------------------------

PICTURE = [". . . . . .",
           ". . Y3 . . .",
           ". . R2 G1 . .",
           ". . . . . .",
           ". . B1 . . .",
           ". . . . . ."]


def test_shoot_an_orthogonally_adjacent_gangster():
    """»Ein Gangster kann einen anderen Gangster erschießen, wenn dieser sich auf einem angrenzenden Feld
    (waagrecht oder senkrecht) befindet. Hierfür benutzt der Spieler seine Patrone und stellt diese auf
    den betreffenden Gangster.« The picture: »Spieler Rot ist am Zug und kann Grau oder Gelb erschießen.
    Blau kann er nicht erschießen, da dieser sich nicht auf einem angrenzenden Feld befindet.«
    Ruling: a living gangster of the mover's own colour next to the target shoots."""
    state = start(4, board=PICTURE)
    assert shots(state) == {"shoot yellow 3 at r2c3 with red 2", "shoot grey 1 at r3c4 with red 2"}
    rejected(state, "shoot blue 1 at r5c3 with red 2")
    play(state, "shoot grey 1 at r3c4 with red 2")
    assert at(state, "r3c4") == "grey 1" and dead(state, "r3c4")  # the tile stays with the bullet on it
    assert state.pvars["bullets"] == [0, 1, 1, 1]
    assert state.vars["last_moved"] is None
    assert state.current_player() == BLUE


def test_only_gangsters_of_the_movers_colour_shoot():
    """Ruling (shooter_own_colour, default true): Blue cannot use the red gangster next to yellow 3;
    its own blue 1 has no neighbour."""
    state = start(4, board=PICTURE, active=BLUE)
    assert shots(state) == set()
    state = start(4, board=PICTURE, active=YELLOW)
    assert shots(state) == {"shoot red 2 at r3c3 with yellow 3"}


def test_a_gangster_may_shoot_one_of_its_own_gang():
    """»Ein Gangster kann einen anderen Gangster erschießen« — any other gangster. Ruling (added): also
    one of the mover's own colour."""
    state = start(4, board=[". . . . . .", ". . . . . .", ". . R2 R1 . .", *[". . . . . ."] * 3])
    assert shots(state) == {"shoot red 1 at r3c4 with red 2", "shoot red 2 at r3c3 with red 1"}


def test_any_living_neighbour_shoots_with_shooter_own_colour_false():
    """Parameter shooter_own_colour=false: »Ein Gangster kann einen anderen Gangster erschießen« read as
    any gangster, whatever its colour."""
    state = start(4, board=PICTURE, active=BLUE, params={"shooter_own_colour": False})
    assert shots(state) == {"shoot yellow 3 at r2c3 with red 2", "shoot grey 1 at r3c4 with red 2",
                            "shoot red 2 at r3c3 with yellow 3", "shoot red 2 at r3c3 with grey 1"}


def test_dead_gangsters_neither_shoot_nor_are_shot_again():
    """»Diesen Gangster ereilt das Schicksal eines vorzeitigen Todes. Die Patrone bleibt bis zum Ende des
    Spiels auf dem toten Gangster stehen. Ein toter Gangster kann weder verschoben werden noch schießen.«"""
    state = start(4, board=[". . . . . .", ". . Y3 . . .", ". . R2x G1 . .", *[". . . . . ."] * 3],
                  active=RED)
    assert shots(state) == set()  # the red gangster is dead
    state = start(4, board=[". . . . . .", ". . Y3 . . .", ". . R2 G1x . .", *[". . . . . ."] * 3],
                  active=GREY)
    assert shots(state) == set()  # the grey one is dead
    state = start(4, board=[". . . . . .", ". . Y3x . . .", ". . R2 G1x . .", *[". . . . . ."] * 3],
                  active=RED)
    assert shots(state) == set()  # both neighbours are already dead


def test_shooting_inside_complete_lines():
    """»Auch aus bereits kompletten Reihen können Gangster schießen oder erschossen werden.«"""
    state = start(4, board=[". . . . . .",
                            "R1 B2 Y3 G1 R2 B1",
                            ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . ."])
    assert shots(state) == {"shoot blue 2 at r2c2 with red 1", "shoot grey 1 at r2c4 with red 2",
                            "shoot blue 1 at r2c6 with red 2"}
    play(state, "shoot blue 2 at r2c2 with red 1")
    assert dead(state, "r2c2")
    assert state.pvars["score"] == [0, 0, 0, 0]  # a shot completes nothing and scores nothing


def test_no_bullet_no_shot():
    """»Hierfür benutzt der Spieler seine Patrone«: without a bullet left there is no shooting."""
    state = start(4, board=PICTURE, bullets={RED: 0})
    assert shots(state) == set()
    rejected(state, "shoot grey 1 at r3c4 with red 2")
    # two bullets with two players: two shots, then none
    state = start(2, board=[". . . . . .", ". . Y3 . . .", ". . R2 G1 . .", ". . B1 . . .",
                            ". . . . . .", ". . . . . ."])
    play(state, "shoot yellow 3 at r2c3 with red 2", "place blue 1 from your supply", "put blue 1 on r6c6",
         "shoot grey 1 at r3c4 with red 2", "place blue 2 from your supply", "put blue 2 on r6c5")
    assert state.pvars["bullets"] == [0, 2]
    assert shots(state) == set()
    rejected(state, "shoot blue 1 at r4c3 with red 2")


def test_after_a_shot_no_gangster_is_protected():
    """Ruling: a shot neither places nor moves a gangster (»der gerade bewegt oder gelegt wurde«), so after
    a shooting turn the next player may move any living gangster, the shooter included."""
    state = start(3, board=[". . . . . .", ". . . . . .", ". . . B2 R1 .", *[". . . . . ."] * 3],
                  last_moved="r3c5")
    play(state, "place red 3 from your supply", "put red 3 on r6c6")  # Red
    play(state, "shoot red 1 at r3c5 with blue 2")  # Blue shoots
    assert state.vars["last_moved"] is None
    assert moves_of(state, "blue 2", "r3c4") == {"r2c4", "r4c4", "r3c3"}  # Yellow may move the shooter
    assert moves_of(state, "red 3", "r6c6") == {"r5c6", "r6c5"}


# ---- no passing, skipping -----------------------------------------------------------------------------

# 34 gangsters on the map; r1c1 and r6c6 free.  Every gangster next to a free field stands in a
# complete line, so nothing can be moved.  The two missing tiles are red 1 and red 2.
NEARLY_FULL = ["  .  Y3 Y3 G1 B1 Y1",
               "  Y2 Y1 G1 G3 G2 Y2",
               "  Y2 G2 G2 B1 B2 G1",
               "  G3 B2 B3 B3 R3 B1",
               "  B2 R3 R1 R2 R2 R1",
               "  Y1 G3 Y3 B3 R3 .  "]


def test_no_passing_the_only_possible_turn_must_be_taken():
    """»Ein Spieler darf auf seinen Spielzug nicht verzichten.« Red has nothing to place (the blue 1 in
    Blue's supply is not his) and nothing to move: he must shoot."""
    board = [r.replace("Y1 G3 Y3 B3 R3 .", "Y1 G3 Y3 B3 R3 R2").replace(".  Y3 Y3 G1 B1", ".  Y3 Y3 G1 R1")
             for r in NEARLY_FULL]
    state = start(2, board=board, zones={"supply[Red]": [], "supply[Blue]": ["blue 1"], "open_supply": [],
                                         "stack_a": [], "stack_b": []})
    assert count_in(state, "city") == 35 and count_in(state, "box") == 0
    actions = legal(state)
    assert actions and all(t.startswith("shoot ") for t in actions)
    assert "shoot blue 3 at r6c4 with red 3" in actions
    for text in ("pass", "place blue 1 from your supply", "move red 1 from r1c5 to r1c4"):
        rejected(state, text)
    # and no turn anywhere offers to pass
    for seed in range(3):
        assert not any("pass" in t for t in legal(start(4, seed=seed)))


def test_a_player_with_nothing_to_do_is_skipped_and_the_other_plays_several_turns_in_a_row():
    """»Dadurch kommt es vor, dass gegen Spielende ein Spieler noch mehrere Spielzüge hintereinander
    ausführen kann.« Ruling: a player with no legal turn is skipped."""
    state = start(2, board=NEARLY_FULL, zones={"supply[Red]": ["red 1", "red 2"], "supply[Blue]": [],
                                               "open_supply": [], "stack_a": [], "stack_b": []},
                  bullets={RED: 0, BLUE: 0}, turn_number=20)
    assert count_in(state, "box") == 0
    play(state, "place red 1 from your supply", "put red 1 on r1c1",
         "score the line r1c1 to r1c6 first")
    assert state.current_player() == RED  # Blue could not place, move or shoot
    assert state.vars["turn_number"] == 23 and state.vars["skipped_in_a_row"] == 1
    assert state.vars["last_moved"] is None  # a skipped turn ends the protection of red 1
    assert not state.is_terminal()


# Three fields free (r1c1, r1c2, r2c1); red 1 on r2c2 is the only gangster that can move (every other
# gangster next to a free field stands in a complete line).  Nobody has a bullet or a tile to place.
ONE_MOVABLE = [".  .  Y3 G1 B1 Y1",
               ".  R1 G1 G3 G2 Y2",
               "Y2 G2 G2 B1 B2 G1",
               "G3 B2 B3 B3 R3 B1",
               "B2 R3 R1 R2 R2 R1",
               "Y1 G3 Y3 B3 R3 R2"]
NOTHING_TO_PLACE = {"supply[Red]": [], "supply[Blue]": [], "supply[Yellow]": [], "open_supply": [],
                    "stack_a": [], "stack_b": []}


def _one_movable(params=None, yellow_supply=()):
    state = start(3, board=ONE_MOVABLE, zones={**NOTHING_TO_PLACE, "supply[Yellow]": list(yellow_supply)},
                  bullets={RED: 0, BLUE: 0, YELLOW: 0}, params=params)
    assert legal(state) == ["move red 1 from r2c2 to r1c2", "move red 1 from r2c2 to r2c1"]
    play(state, "move red 1 from r2c2 to r2c1")  # Red; Blue's only move would be this red 1
    return state


def test_a_skipped_following_player_uses_up_the_protection():
    """»Ein Gangster, der gerade bewegt oder gelegt wurde, kann vom darauf folgenden Spieler nicht bewegt
    werden, wohl aber vom Übernächsten.« Ruling 6 (default, skipped_turn_keeps_protection: false): Blue,
    the following player, is skipped since the protected red 1 was his only move; Yellow, the player
    after next, may move it."""
    state = _one_movable()
    assert state.current_player() == YELLOW and state.vars["skipped_in_a_row"] == 1
    assert moves_of(state, "red 1", "r2c1") == {"r1c1", "r2c2"}


def test_protection_for_the_next_turn_actually_taken_with_skipped_turn_keeps_protection():
    """»... kann vom darauf folgenden Spieler nicht bewegt werden, wohl aber vom Übernächsten.« The other
    reading (variant gangster-protection-outlasts-skip): the protection holds for the next turn actually
    taken, so Yellow may not move red 1 either and must place her tile."""
    state = _one_movable({"skipped_turn_keeps_protection": True}, yellow_supply=["yellow 2"])
    assert state.current_player() == YELLOW and state.vars["skipped_in_a_row"] == 1
    assert moves_of(state, "red 1", "r2c1") == set()
    assert legal(state) == ["place yellow 2 from your supply"]
    rejected(state, "move red 1 from r2c1 to r1c1")
    play(state, "place yellow 2 from your supply", "put yellow 2 on r1c1")
    assert moves_of(state, "red 1", "r2c1") == set()  # column 1 is complete now
    assert state.game.names[state.vars["last_moved"]] == "yellow 2"


def test_a_player_whose_only_move_is_the_protected_tile_is_skipped_too_with_skipped_turn_keeps_protection():
    """The same reading: a player whose only move was the protected gangster is skipped too; here Yellow
    and then Red, so every player is skipped in a row and the game ends (ruling 3)."""
    state = _one_movable({"skipped_turn_keeps_protection": True})
    assert state.is_terminal()
    assert state.vars["skipped_in_a_row"] == 3
    default = _one_movable()
    assert not default.is_terminal()


def test_the_game_ends_when_every_player_in_a_row_is_skipped():
    """Ruling: if no player can do anything the game ends (cannot happen with tiles left to place; here the
    remaining tiles are out of play)."""
    state = start(2, board=[". . . . . .", ". . . . . .", ". . R2x . . .", *[". . . . . ."] * 3],
                  zones={"supply[Red]": [], "supply[Blue]": [], "open_supply": [], "stack_a": [],
                         "stack_b": []})
    assert state.is_terminal()
    assert state.winners() == [RED, BLUE]


# ---- scoring ------------------------------------------------------------------------------------------


def test_example_1_red_6_against_blue_4_scores_2():
    """»Sobald der sechste Gangster in eine Reihe bewegt oder gelegt wird (waagrecht oder senkrecht),
    kommt es zur sofortigen Auswertung des MF in diesem „Revier“ (Reihe). [...] Nur die Bande mit dem
    höchsten MF erhält Siegpunkte. Und zwar so viele Siegpunkte, wie die Differenz zur Bande mit dem
    zweithöchsten MF beträgt.« »Beispiel 1: Rot hat den höchsten MF mit 6, Blau hat den zweithöchsten MF
    mit 4. MF 6 - MF 4 = MF 2. Rot erhält 2 Siegpunkte«"""
    state = start(4, board=["R2 R1 B3 B1 Y1 .", *[". . . . . ."] * 5])
    play(state, "place red 3 from your supply", "put red 3 on r1c6")
    assert state.pvars["score"] == [2, 0, 0, 0]
    assert state.pvars["reached_at"][RED] == 1
    assert state.current_player() == BLUE


def test_example_1_completed_by_a_move():
    """»Sobald der sechste Gangster in eine Reihe bewegt [...] wird«: a move completes the row; the column
    it left is not complete, nothing else scores."""
    state = start(4, board=["R2 R1 B3 B1 Y1 .", ". . . . . R3", *[". . . . . ."] * 4], active=BLUE)
    play(state, "move red 3 from r2c6 to r1c6")  # Blue's move makes Red score
    assert state.pvars["score"] == [2, 0, 0, 0]


def test_example_2_tied_leaders_cancel_and_yellow_scores_1():
    """»Beispiel 2: Rot und Blau haben beide den höchsten MF von 3 und stechen sich gegenseitig aus. Gelb
    erhält mit MF 2 noch einen Siegpunkt, da Grau mit MF 1 noch von Gelb abgezogen wird.« »Banden mit
    gleich hohem MF stechen sich gegenseitig aus, so dass die Bande mit dem zweithöchsten MF Siegpunkte
    erhält.«"""
    for cancel_lower_ties in (False, True):
        state = start(4, board=["R1 R2 B1 B2 G1 .", *[". . . . . ."] * 5],
                      params={"cancel_lower_ties": cancel_lower_ties}, active=YELLOW)
        play(state, "place yellow 2 from your supply", "put yellow 2 on r1c6")
        assert state.pvars["score"] == [0, 0, 1, 0], cancel_lower_ties


def test_lower_ties_cancel_only_with_cancel_lower_ties():
    """»Nur die Bande mit dem höchsten MF erhält Siegpunkte. Und zwar so viele Siegpunkte, wie die Differenz
    zur Bande mit dem zweithöchsten MF beträgt.« Red 5, Blue 2, Yellow 2, Grey 1. Ruling: by default only
    gangs tied for the lead cancel, so Red scores 5 − 2 = 3; with cancel_lower_ties Blue and Yellow also
    cancel and Red scores 5 − 1 = 4."""
    for cancel_lower_ties, points in ((False, 3), (True, 4)):
        state = start(4, board=[". R2 B1 B1 Y2 G1", *[". . . . . ."] * 5],
                      params={"cancel_lower_ties": cancel_lower_ties})
        play(state, "place red 3 from your supply", "put red 3 on r1c1")
        assert state.pvars["score"] == [points, 0, 0, 0], cancel_lower_ties


def test_all_gangs_tied_nobody_scores():
    """»Banden mit gleich hohem MF stechen sich gegenseitig aus«: red 3 = blue 3 and yellow 2 = grey 2."""
    state = start(4, board=["R1 R2 B1 B2 Y2 .", *[". . . . . ."] * 5], active=GREY)
    play(state, "place grey 2 from your supply", "put grey 2 on r1c6")
    assert state.pvars["score"] == [0, 0, 0, 0]


def test_three_gangs_tied_for_the_lead_cancel():
    """»Banden mit gleich hohem MF stechen sich gegenseitig aus, so dass die Bande mit dem zweithöchsten MF
    Siegpunkte erhält.«: red 3, blue 3 and grey 3 cancel; yellow 2 scores 2 − 0."""
    state = start(4, board=["R1 R2 B3 Y2 G2 .", *[". . . . . ."] * 5], active=GREY)
    play(state, "place grey 1 from your supply", "put grey 1 on r1c6")
    assert state.pvars["score"] == [0, 0, 2, 0]


def test_dead_gangsters_count_nothing_but_fill_the_line():
    """»Außerdem wird sein MF nicht mitgewertet (siehe unter Wertungen).« The dead red 3 still makes the
    sixth gangster of the row: Blue 2 beats Red 1 by one."""
    state = start(4, board=["R3x R1 B2 . . .", *[". . . . . ."] * 5], active=BLUE,
                  zones={"open_supply": ["yellow 1", "grey 1"]})
    play(state, "place blue 1 from your supply", "put blue 1 on r1c4")
    play(state, "place grey 1 from the open supply", "put grey 1 on r1c5")  # Yellow
    assert state.pvars["score"] == [0, 0, 0, 0]
    play(state, "place yellow 1 from the open supply", "put yellow 1 on r1c6")  # Grey
    # red 1 (the 3 is dead), blue 3, yellow 1, grey 1: Blue scores 3 − 1
    assert state.pvars["score"] == [0, 2, 0, 0]


@pytest.mark.parametrize("players", [2, 3])
def test_a_gang_no_one_plays_wins_the_line_and_no_one_scores(players):
    """»Alle übrigen Gangster werden gut gemischt« (the colours no one plays included). Ruling
    (unplayed_gangs_compete, default true): their gangs count in a line; when one of them wins it,
    nobody scores."""
    state = start(players, board=["G3 G3 R2 B1 Y1 .", *[". . . . . ."] * 5])
    play(state, "place red 1 from your supply", "put red 1 on r1c6")
    assert state.pvars["score"] == [0] * players  # grey 6 beats red 3


@pytest.mark.parametrize("players", [2, 3])
def test_gangs_no_one_plays_are_ignored_with_unplayed_gangs_compete_false(players):
    """Parameter unplayed_gangs_compete=false: grey (never played with 2 or 3) is left out of the line,
    so Red 3 beats Blue 1 (and yellow 1) and scores 2."""
    state = start(players, board=["G3 G3 R2 B1 Y1 .", *[". . . . . ."] * 5],
                  params={"unplayed_gangs_compete": False})
    play(state, "place red 1 from your supply", "put red 1 on r1c6")
    assert state.pvars["score"][RED] == 2 and sum(state.pvars["score"]) == 2


def test_an_unplayed_gang_tied_for_the_lead_cancels_too():
    """»Banden mit gleich hohem MF stechen sich gegenseitig aus«, with the ruling that unplayed gangs
    compete: with two players yellow 3 and red 3 (the red 1 at r1c5 is dead) cancel, so Blue 2 scores
    2 − 1 (grey 1)."""
    state = start(2, board=["Y3 R2 B2 G1 R1x .", *[". . . . . ."] * 5])
    play(state, "place red 1 from your supply", "put red 1 on r1c6")
    assert state.pvars["score"] == [0, 1]


# Row 1 (completed at r1c6 by red 1): R2 B1 B1 G1 Y1 → red 3, blue 2: Red +1.
# Column 6 (completed at r1c6 as well): B3 B1 R2 G1 Y2 → blue 4, red 3: Blue +1.
TWO_LINES = ["R2 B1 B1 G1 Y1 .",
             ". . . . . B3",
             ". . . . . B1",
             ". . . . . R2",
             ". . . . . G1",
             ". . . . . Y2"]


def test_two_completed_lines_the_mover_chooses_which_scores_first():
    """»Werden durch das Legen eines Gangsters gleich 2 Reviere komplettiert (waagrecht und senkrecht),
    werden beide nacheinander ausgewertet. Es entscheidet der Spieler am Spielzug, welches der beiden
    Reviere zuerst gewertet wird.«"""
    state = start(2, board=TWO_LINES, zones={"supply[Red]": ["red 1"]})
    play(state, "place red 1 from your supply", "put red 1 on r1c6")
    assert state.current_player() == RED
    assert sorted(legal(state)) == ["score the line r1c1 to r1c6 first", "score the line r1c6 to r6c6 first"]
    play(state, "score the line r1c6 to r6c6 first")
    assert state.pvars["score"] == [1, 1]  # both lines were scored
    assert state.current_player() == BLUE


@pytest.mark.parametrize("first, winner", [("score the line r1c1 to r1c6 first", RED),
                                           ("score the line r1c6 to r6c6 first", BLUE)])
def test_the_order_matters_when_the_first_line_reaches_17(first, winner):
    """»Es entscheidet der Spieler am Spielzug, welches der beiden Reviere zuerst gewertet wird.« with
    »Das Spiel endet sofort, wenn ein Spieler die „17“ auf der Rangliste erreicht hat.«: both stand at 16;
    the line scored first decides the winner, the second is not scored."""
    state = start(2, board=TWO_LINES, zones={"supply[Red]": ["red 1"]}, score={RED: 16, BLUE: 16})
    play(state, "place red 1 from your supply", "put red 1 on r1c6", first)
    assert state.is_terminal() and state.current_player() is None
    assert state.winners() == [winner]
    assert state.pvars["score"] == [17 if winner == RED else 16, 17 if winner == BLUE else 16]


# ---- the end ------------------------------------------------------------------------------------------


def test_the_game_ends_at_once_at_17():
    """»Das Spiel endet sofort, wenn ein Spieler die „17“ auf der Rangliste erreicht hat. Dieser Spieler
    ist der Gewinner und wird von nun an „Al Capone“ genannt.«"""
    state = start(4, board=["R2 R1 B3 B1 Y1 .", *[". . . . . ."] * 5], score={RED: 15, BLUE: 16})
    play(state, "place red 3 from your supply", "put red 3 on r1c6")
    assert state.is_terminal()
    assert state.pvars["score"] == [17, 16, 0, 0]
    assert state.winners() == [RED]
    assert state.returns() == [17, 16, 0, 0]
    assert count_in(state, "city") == 6  # long before the map is full


def test_target_parameter():
    """Parameter target: the score that ends the game (»die „17“«); 16 is not enough by default."""
    state = start(4, board=["R2 R1 B3 B1 Y1 .", *[". . . . . ."] * 5], score={RED: 14})
    play(state, "place red 3 from your supply", "put red 3 on r1c6")
    assert state.pvars["score"][RED] == 16 and not state.is_terminal()
    state = start(4, board=["R2 R1 B3 B1 Y1 .", *[". . . . . ."] * 5], params={"target": 5},
                  score={RED: 3})
    play(state, "place red 3 from your supply", "put red 3 on r1c6")
    assert state.is_terminal() and state.winners() == [RED]


def _last_two_placements(blue_score):
    """The NEARLY_FULL map: Red places red 1 on r1c1 (row 1 and column 1 won by yellow: nothing), Blue is
    skipped, Red places red 2 on r6c6 (row 6: red 5 against yellow 4 → Red +1; column 6: red 3 and
    yellow 3 cancel, then blue 1 and grey 1: nothing).  Red had reached 7 in turn 3, Blue
    ``blue_score`` in turn 6."""
    state = start(2, board=NEARLY_FULL, zones={"supply[Red]": ["red 1", "red 2"], "supply[Blue]": [],
                                               "open_supply": [], "stack_a": [], "stack_b": []},
                  bullets={RED: 0, BLUE: 0}, score={RED: 7, BLUE: blue_score},
                  reached_at={RED: 3, BLUE: 6}, turn_number=20)
    play(state, "place red 1 from your supply", "put red 1 on r1c1", "score the line r1c1 to r6c1 first")
    assert state.pvars["score"] == [7, blue_score] and state.current_player() == RED
    play(state, "place red 2 from your supply", "put red 2 on r6c6")
    assert sorted(legal(state)) == ["score the line r1c6 to r6c6 first", "score the line r6c1 to r6c6 first"]
    play(state, "score the line r6c1 to r6c6 first")
    assert count_in(state, "city") == 36
    return state


def test_the_game_ends_when_all_36_gangsters_are_placed_and_the_highest_score_wins():
    """»Das Spiel endet spätestens, wenn alle 36 Gangster auf dem Stadtplan von Chicago platziert sind. In
    diesem Fall gewinnt der ranghöchste Spieler.«"""
    state = _last_two_placements(blue_score=7)
    assert state.is_terminal()
    assert state.returns() == [8, 7]
    assert state.winners() == [RED]


def test_a_tie_at_the_end_goes_to_who_reached_the_score_first():
    """»Bei Punktegleichstand auf der Rangliste gewinnt der Spieler, der als erster diesen Punktestand
    erreicht hat.« Blue reached 8 long ago, Red only now."""
    state = _last_two_placements(blue_score=8)
    assert state.is_terminal()
    assert state.returns() == [8, 8]
    assert state.pvars["reached_at"][RED] > state.pvars["reached_at"][BLUE]
    assert state.winners() == [BLUE]


# 35 gangsters, r6c6 free; the last one is Red's red 1.  Row 6 + red 1: red 3, blue 2 → Red +1;
# column 6 + red 1: blue 3, red 2 (yellow 2) → Blue +1.
FULL_BUT_ONE = ["R1 R2 R2 R3 R3 B2",
                "R3 B2 B2 B3 B3 B1",
                "B3 Y1 Y1 Y2 Y2 R1",
                "Y3 Y3 Y3 G1 G2 Y2",
                "G2 G2 G3 G3 G3 G1",
                "R2 B1 Y1 G1 B1 . "]


@pytest.mark.parametrize("first, winner", [("score the line r6c1 to r6c6 first", RED),
                                           ("score the line r1c6 to r6c6 first", BLUE)])
def test_a_tie_reached_in_the_same_turn_goes_to_the_line_scored_first(first, winner):
    """»Bei Punktegleichstand auf der Rangliste gewinnt der Spieler, der als erster diesen Punktestand
    erreicht hat.« with »werden beide nacheinander ausgewertet«: the last placement completes row 6
    (Red 7 → 8) and column 6 (Blue 7 → 8). Whoever's line was scored first reached 8 first."""
    state = start(2, board=FULL_BUT_ONE, zones={"supply[Red]": ["red 1"], "supply[Blue]": [],
                                                "open_supply": [], "stack_a": [], "stack_b": []},
                  score={RED: 7, BLUE: 7}, reached_at={RED: 3, BLUE: 6}, turn_number=30)
    assert count_in(state, "box") == 0 and count_in(state, "city") == 35
    play(state, "place red 1 from your supply", "put red 1 on r6c6", first)
    assert state.is_terminal() and state.returns() == [8, 8]
    assert state.winners() == [winner]


@pytest.mark.parametrize("variant, param", [("gangster-any-shooter", "shooter_own_colour"),
                                            ("gangster-cancel-all-ties", "cancel_lower_ties"),
                                            ("gangster-unplayed-gangs-ignored", "unplayed_gangs_compete"),
                                            ("gangster-protection-outlasts-skip", "skipped_turn_keeps_protection")])
def test_ruling_variants_flip_one_parameter(variant, param):
    """The shipped ruling variants (rulesets/variants/) load and change exactly their parameter."""
    base = game_for(4).params
    game = load_game(str(ROOT / "rulesets" / "variants" / f"{variant}.yaml"), players=4)
    assert {k: v for k, v in game.params.items() if base[k] != v} == {param: not base[param]}


# ---- readable actions, whole games --------------------------------------------------------------------


def test_two_equal_shooters_give_readable_actions():
    """Action texts should read as the game's sentences and be told apart without ids: two red 1 on both
    sides of grey 1 (»Ein Gangster kann einen anderen Gangster erschießen, wenn dieser sich auf einem
    angrenzenden Feld [...] befindet«) make the same shot; it should be offered once as »shoot grey 1 at
    r3c3 with red 1« (or name the shooters' fields), never with an engine id appended (»... #28,1«)."""
    state = start(4, board=[". . . . . .", ". . . . . .", ". R1 G1 R1 . .", *[". . . . . ."] * 3])
    assert shots(state) and all(t.startswith("shoot grey 1 at r3c3 with red 1") for t in shots(state))
    assert not any("#" in t for t in legal(state)), sorted(shots(state))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_properly(players):
    """Whole games with random moves: the 36 gangsters are always somewhere; every game ends with a player
    at 17 (only one, the winner) or with all 36 on the map."""
    game = game_for(players)
    rng = random.Random(players)
    for seed in range(6):
        state = game.new_initial_state(seed)
        steps = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            assert steps < 2000
        assert sum(len(z) for z in state.zones) == 36
        scores = state.returns()
        if max(scores) >= 17:
            assert [p for p, s in enumerate(scores) if s >= 17] == state.winners()
        else:
            assert count_in(state, "city") == 36
