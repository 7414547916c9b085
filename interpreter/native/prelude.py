"""The fixed part of every kernel's C source: the run context, errors, splitmix, lists in an arena,
bounds-checked reads and overflow-checked arithmetic.  The generated part (:mod:`.emit`) defines
the sizes (NC, NZ, NCELL, ...) and the game's tables before including this text."""

from .decisions import DECISIONS, ENTRY  # noqa: F401 (ENTRY: the kernel's entry points, read from here)

ERRORS = ("no_kind", "no_mark", "no_attribute", "holds", "inside_itself", "no_zone", "trigger_depth", "overflow",
          "index", "division", "top_empty", "last_empty", "cell_taken", "steps", "no_option", "memory", "range",
          "place_none", "grid_needs_cell", "list_long", "iterations", "first_empty", "bottom_empty", "repeat",
          "die", "call_depth", "seat_none", "no_element", "no_seat", "show_to_none", "show_none")
ERROR_CODE = {name: i + 1 for i, name in enumerate(ERRORS)}

STATE = r"""
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <setjmp.h>

#define GAMMA 0x9E3779B97F4A7C15ULL
#define ARENA (1 << 20)
#define MAX_STEPS 200000
#define MAX_ITEMS 100000
#define MAX_ITER 1000000
typedef struct {
    KS *s;
    jmp_buf jb;
    int64_t *arena;
    int64_t top;
    int64_t steps;
    int64_t iters;
    int64_t pos;
    int64_t depth;
    int64_t calls;  /* the frames standing, as the Python engine counts them (calls.py) */
    int64_t frames;  /* the native frames of recursive procedures */
    int64_t frame;  /* the procedure a loop runs in, for the error of one that never ends */
    int64_t base;  /* the arena below it holds the constant lists (made once per game) */
    int64_t consts[NCONST + 1];
    int64_t gen;  /* the generation of the stamps below (SEEN_VALUE) */
    int64_t stamp[MAXP][NSTAMP];
    int64_t lines[NCELL][2];  /* the constant lists of lines_through(cell) */
} Ctx;
static void FIRE(Ctx *C, int64_t c, int64_t src, int64_t dest);
/* a trigger runs in a frame of its own, its steps counted apart, at most 50 deep (runtime/limits.py) */
#define RUN_TRIGGER(C, fn, comp, own, where, number) do { \
    if ((C)->depth >= 50) { (C)->pos = (where); fail((C), E_trigger_depth, (number), 0); } \
    int64_t pos_ = (C)->pos, steps_ = (C)->steps, iters_ = (C)->iters, calls_ = (C)->calls; \
    (C)->depth++; (C)->steps = 0; (C)->calls = 1; fn((C), (comp), (own)); \
    (C)->depth--; (C)->pos = pos_; (C)->steps = steps_; (C)->iters = iters_; (C)->calls = calls_; } while (0)

static void fail(Ctx *C, int64_t code, int64_t a, int64_t b) {
    C->s->err = code; C->s->err_pos = C->pos; C->s->err_a = a; C->s->err_b = b;
    longjmp(C->jb, 1);
}
static void game_over(Ctx *C) { longjmp(C->jb, 2); }

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline int64_t random_below(Ctx *C, int64_t n) {
    C->s->rng += GAMMA;
    return (int64_t)(mix64(C->s->rng) % (uint64_t)n);
}
static inline int64_t CK(Ctx *C, int64_t i, int64_t n) {
    if (i < 0 || i >= n) fail(C, E_index, i, n);
    return i;
}
static inline int64_t ADD(Ctx *C, int64_t a, int64_t b) { int64_t r; if (__builtin_add_overflow(a, b, &r)) fail(C, E_overflow, 0, 0); return r; }
static inline int64_t SUB(Ctx *C, int64_t a, int64_t b) { int64_t r; if (__builtin_sub_overflow(a, b, &r)) fail(C, E_overflow, 0, 0); return r; }
static inline int64_t MUL(Ctx *C, int64_t a, int64_t b) { int64_t r; if (__builtin_mul_overflow(a, b, &r)) fail(C, E_overflow, 0, 0); return r; }
static inline int64_t NEG(Ctx *C, int64_t a) { return SUB(C, 0, a); }
static inline int64_t FDIV(Ctx *C, int64_t a, int64_t b) {
    if (b == 0) fail(C, E_division, 0, 0);
    if (a == INT64_MIN && b == -1) fail(C, E_overflow, 0, 0);
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
static inline int64_t FMOD(Ctx *C, int64_t a, int64_t b) {
    if (b == 0) fail(C, E_division, 0, 0);
    if (b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
static inline int64_t ABS(Ctx *C, int64_t a) { return a < 0 ? NEG(C, a) : a; }

/* the arena of lists: one per thread, made at its first game and kept (its pages stay mapped);
   a second for the games a greedy policy plays one step ahead inside a game (NEST 1), which start
   from a copy of the outer arena (NEST_SRC, NEST_LEN: see GREEDY in resume.py) */
static __thread int64_t *ARENA_MEM[2] = {NULL, NULL};
static __thread int NEST = 0;
static __thread const int64_t *NEST_SRC = NULL;
static __thread int64_t NEST_LEN = 0;
static int64_t *arena_get(void) {
    if (!ARENA_MEM[NEST]) ARENA_MEM[NEST] = (int64_t *)malloc(ARENA * sizeof(int64_t));
    return ARENA_MEM[NEST];
}
static int64_t GREEDY(Ctx *C);
/* a run's context on the state s (1: no memory for its arena) */
static int ctx_start(Ctx *C, KS *s) {
    memset(C->stamp, 0, sizeof(C->stamp)); C->gen = 0;
    C->s = s; C->top = 0; C->steps = 0; C->iters = 0; C->pos = -1; C->depth = 0; C->frame = 0; C->calls = 1; C->frames = 0;
    C->arena = arena_get();
    s->n_log = 0; s->err = 0;
    if (!C->arena) { s->err = E_memory; return 1; }
    return 0;
}

/* lists: a handle h into the arena, arena[h] the length, arena[h + 1 ...] the items */
static inline int64_t NEWLIST(Ctx *C, int64_t n) {
    if (n > MAX_ITEMS) fail(C, E_list_long, n, 0);
    if (n < 0) n = 0;
    if (C->top + n + 1 > ARENA) fail(C, E_memory, 0, 0);
    int64_t h = C->top;
    C->arena[h] = n;
    C->top += n + 1;
    return h;
}
/* a list of n items, n known to lie within 0 and the length of a list or zone that exists */
static inline int64_t SUBLIST(Ctx *C, int64_t n) {
    if (C->top + n + 1 > ARENA) fail(C, E_memory, 0, 0);
    int64_t h = C->top;
    C->arena[h] = n;
    C->top += n + 1;
    return h;
}
#define LEN(h) (C->arena[(h)])
#define ITEM(h, i) (C->arena[(h) + 1 + (i)])
static inline int64_t LIST_AT(Ctx *C, int64_t h, int64_t i) {
    int64_t n = LEN(h);
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail(C, E_index, i, n);
    return ITEM(h, i);
}
static inline int64_t CONCAT(Ctx *C, int64_t a, int64_t b) {
    int64_t na = LEN(a), nb = LEN(b);
    int64_t h = NEWLIST(C, na + nb);
    memcpy(&ITEM(h, 0), &ITEM(a, 0), na * sizeof(int64_t));
    memcpy(&ITEM(h, na), &ITEM(b, 0), nb * sizeof(int64_t));
    return h;
}
static inline int64_t CONTAINS(Ctx *C, int64_t h, int64_t v) {
    for (int64_t i = 0; i < LEN(h); i++) if (ITEM(h, i) == v) return 1;
    return 0;
}
static inline int64_t LISTEQ(Ctx *C, int64_t a, int64_t b) {
    if (LEN(a) != LEN(b)) return 0;
    for (int64_t i = 0; i < LEN(a); i++) if (ITEM(a, i) != ITEM(b, i)) return 0;
    return 1;
}
static inline int64_t RANGE(Ctx *C, int64_t a, int64_t b) {
    if (b > a && (uint64_t)b - (uint64_t)a > 10000) fail(C, E_range, 0, 0);
    int64_t h = NEWLIST(C, b > a ? b - a : 0);
    for (int64_t i = 0; i < LEN(h); i++) ITEM(h, i) = a + i;
    return h;
}
static inline int64_t ZLIST(Ctx *C, int64_t z) {
    z = CK(C, z, NZ);
    int64_t n = C->s->zlen[z];
    int64_t h = NEWLIST(C, n);
    memcpy(&ITEM(h, 0), C->s->zitems[z], n * sizeof(int64_t));
    return h;
}
static inline void ITERS(Ctx *C, int64_t n) { if ((C->iters += n) > MAX_ITER) fail(C, E_iterations, 0, 0); }
static inline void STEP(Ctx *C) { if (++C->steps > MAX_STEPS) fail(C, E_steps, C->frame, 0); }
static inline int64_t LASTOF(Ctx *C, int64_t h) { if (LEN(h) == 0) fail(C, E_last_empty, 0, 0); return ITEM(h, LEN(h) - 1); }
static inline int64_t FIRSTOF(Ctx *C, int64_t h) { if (LEN(h) == 0) fail(C, E_first_empty, 0, 0); return ITEM(h, 0); }
static inline int64_t TOP(Ctx *C, int64_t z) {
    z = CK(C, z, NZ);
    if (C->s->zlen[z] == 0) fail(C, E_top_empty, z, 0);
    return C->s->zitems[z][C->s->zlen[z] - 1];
}
static inline int64_t BOTTOM(Ctx *C, int64_t z) {
    z = CK(C, z, NZ);
    if (C->s->zlen[z] == 0) fail(C, E_bottom_empty, z, 0);
    return C->s->zitems[z][0];
}
static inline int64_t ZSIZE(Ctx *C, int64_t z) { return C->s->zlen[CK(C, z, NZ)]; }
static inline int64_t AT(Ctx *C, int64_t cell) { return C->s->cells[CK(C, cell, NCELL)]; }
static inline int64_t SUMOF(Ctx *C, int64_t h) { int64_t r = 0; for (int64_t i = 0; i < LEN(h); i++) r = ADD(C, r, ITEM(h, i)); return r; }
static inline int64_t MINOF(Ctx *C, int64_t h) { if (!LEN(h)) return 0; int64_t r = ITEM(h, 0); for (int64_t i = 1; i < LEN(h); i++) if (ITEM(h, i) < r) r = ITEM(h, i); return r; }
static inline int64_t MAXOF(Ctx *C, int64_t h) { if (!LEN(h)) return 0; int64_t r = ITEM(h, 0); for (int64_t i = 1; i < LEN(h); i++) if (ITEM(h, i) > r) r = ITEM(h, i); return r; }
static inline int64_t ANYOF(Ctx *C, int64_t h) { for (int64_t i = 0; i < LEN(h); i++) if (ITEM(h, i)) return 1; return 0; }
static inline int64_t ALLOF(Ctx *C, int64_t h) { for (int64_t i = 0; i < LEN(h); i++) if (!ITEM(h, i)) return 0; return 1; }
static inline int64_t COPYLIST(Ctx *C, int64_t h) {
    int64_t r = NEWLIST(C, LEN(h));
    memcpy(&ITEM(r, 0), &ITEM(h, 0), LEN(h) * sizeof(int64_t));
    return r;
}
static inline int64_t NEIGHBORS(Ctx *C, int64_t cell, int64_t diagonal) {
    cell = CK(C, cell, NCELL);
    const int64_t *start = diagonal ? ALL_START : ORTH_START, *cells = diagonal ? ALL_CELLS : ORTH_CELLS;
    int64_t h = NEWLIST(C, start[cell + 1] - start[cell]);
    for (int64_t i = 0; i < LEN(h); i++) ITEM(h, i) = cells[start[cell] + i];
    return h;
}
/* the row and the column through each cell (lines_through), made once per game among the constants */
static void LINES_INIT(Ctx *C) {
    for (int64_t cell = 0; cell < NCELL; cell++) {
        int64_t first = CELL_FIRST[cell], rows = CELL_ROWS[cell], columns = CELL_COLUMNS[cell];
        int64_t r = CELL_ROW[cell], c = CELL_COLUMN[cell];
        int64_t row = NEWLIST(C, columns), column = NEWLIST(C, rows);
        for (int64_t i = 0; i < columns; i++) ITEM(row, i) = first + r * columns + i;
        for (int64_t i = 0; i < rows; i++) ITEM(column, i) = first + i * columns + c;
        C->lines[cell][0] = row; C->lines[cell][1] = column;
    }
}
static inline int64_t LINES_THROUGH(Ctx *C, int64_t cell) {
    cell = CK(C, cell, NCELL);
    int64_t h = NEWLIST(C, 2);
    ITEM(h, 0) = C->lines[cell][0]; ITEM(h, 1) = C->lines[cell][1];
    return h;
}
/* a list variable: a buffer of LCAP items, [0] its length */
static inline int64_t VLIST(Ctx *C, const int64_t *buffer) {
    int64_t h = NEWLIST(C, buffer[0]);
    memcpy(&ITEM(h, 0), &buffer[1], buffer[0] * sizeof(int64_t));
    return h;
}
static inline void STORELIST(Ctx *C, int64_t *buffer, int64_t h) {
    if (LEN(h) > LCAP) fail(C, E_memory, LEN(h), 0);
    buffer[0] = LEN(h);
    memcpy(&buffer[1], &ITEM(h, 0), LEN(h) * sizeof(int64_t));
}
static inline int64_t SLICE(Ctx *C, int64_t h, int64_t a, int64_t b) {
    int64_t n = LEN(h);
    if (a < 0) { a += n; if (a < 0) a = 0; } else if (a > n) a = n;
    if (b < 0) { b += n; if (b < 0) b = 0; } else if (b > n) b = n;
    int64_t r = NEWLIST(C, b > a ? b - a : 0);
    memcpy(&ITEM(r, 0), &ITEM(h, a), LEN(r) * sizeof(int64_t));
    return r;
}
static inline int64_t SEAT(Ctx *C, int64_t p) { if (p < 0) fail(C, E_seat_none, 0, 0); return p; }
/* a copy of a list with one item replaced (with_item, and xs[i] = v) */
static inline int64_t WITH_ITEM(Ctx *C, int64_t h, int64_t i, int64_t v) {
    int64_t n = LEN(h);
    if (i < -n || i >= n) fail(C, E_no_element, i, n);
    int64_t r = COPYLIST(C, h);
    ITEM(r, i < 0 ? i + n : i) = v;
    return r;
}
/* the steps-th seat from p in direction dir (1, -1) among the seats of the list h (texts.next_among):
   after the first step the walk cycles through the k seats listed, so steps beyond k are reduced */
static inline int64_t NEXT_AMONG(Ctx *C, int64_t p, int64_t steps, int64_t h, int64_t dir) {
    if (LEN(h) == 0) fail(C, E_no_seat, 0, 0);
    int64_t wanted[NP], k = 0;
    for (int64_t q = 0; q < NP; q++) { wanted[q] = CONTAINS(C, h, q); k += wanted[q]; }
    if (k == 0 || steps <= 0) return p;
    if (steps > k) steps = (steps - 1) % k + 1;
    for (int64_t s = 0; s < steps; s++)
        for (int64_t j = 0; j < NP; j++) { p = FMOD(C, p + dir, NP); if (wanted[p]) break; }
    return p;
}
static inline int64_t ROLL(Ctx *C, int64_t sides) {
    if (sides < 1 || sides > 1000000) fail(C, E_die, sides, 0);
    return random_below(C, sides) + 1;
}

/* the seat a zone belongs to now (Layout.zone_owner_now), -1 for none */
static int64_t OWNER_NOW(Ctx *C, int64_t zone) {
    for (int i = 0; i < 16; i++) {
        int64_t host = ZONE_HOST[zone];
        if (host < 0) return ZONE_OWNER[zone];
        zone = C->s->loc[host];
    }
    return -1;
}
static int64_t COMPONENT_MASK(Ctx *C, int64_t c, int depth);
/* the seats that see a zone's whole contents now (views.zone_mask) */
static int64_t VISIBLE_MASK(Ctx *C, int64_t zone, int depth) {
    if (ZONE_MASK[zone] >= 0) return ZONE_MASK[zone];
    if (depth > 64) fail(C, E_inside_itself, ZONE_HOST[zone], zone);
    int64_t mask;
    if (ZONE_VIS[zone] == 0) mask = ALL_SEATS;
    else if (ZONE_VIS[zone] == 1) { int64_t owner = OWNER_NOW(C, zone); mask = owner < 0 ? 0 : (1LL << owner); }
    else return 0;
    int64_t host = ZONE_HOST[zone];
    return (host < 0 || !mask) ? mask : (mask & COMPONENT_MASK(C, host, depth + 1));
}
static int64_t COMPONENT_MASK(Ctx *C, int64_t c, int depth) {
    int64_t zone = C->s->loc[c];
    int64_t mask = VISIBLE_MASK(C, zone, depth + 1);
    int64_t n = C->s->zlen[zone];
    if (ZONE_VIS[zone] == 2 && n > 0 && C->s->zitems[zone][n - 1] == c) {
        int64_t host = ZONE_HOST[zone];
        mask |= host < 0 ? ALL_SEATS : COMPONENT_MASK(C, host, depth + 1);
    }
    return mask;
}
/* show(items, to): the seat learns the components and where they lie (effects.show) */
static void SHOW(Ctx *C, int64_t h, int64_t to) {
    if (to < 0) fail(C, E_show_to_none, 0, 0);
    to = CK(C, to, NP);
    for (int64_t i = 0; i < LEN(h); i++) if (ITEM(h, i) < 0) fail(C, E_show_none, 0, 0);
    for (int64_t i = 0; i < LEN(h); i++) {
        int64_t c = CK(C, ITEM(h, i), NC);
        C->s->known[c] |= 1LL << to;
        C->s->blind_to[C->s->loc[c]] &= ~(1LL << to);
    }
}
/* a component's zone of a per-component family: base + its index among its kind, if of that kind */
static inline int64_t ATTACHED(Ctx *C, const int64_t *table, int64_t c) {
    c = CK(C, c, NC);
    if (table[c] < 0) fail(C, E_no_zone, c, 0);
    return table[c];
}
/* a mark of a component (one it lacks: an error, where Python would read none; a write sets it) */
static inline int64_t *MARKP(Ctx *C, int64_t m, int64_t c, int write) {
    c = CK(C, c, NC);
    if (write) C->s->has_mark[m][c] = 1;
    else if (!C->s->has_mark[m][c]) fail(C, E_no_mark, c, m);
    return &C->s->marks[m][c];
}
/* an attribute that some components lack: Layout.missing_attribute for those */
static inline int64_t ATTRP(Ctx *C, const int64_t *table, const int64_t *has, int64_t c, int64_t which) {
    c = CK(C, c, NC);
    if (!has[c]) fail(C, E_no_attribute, c, which);
    return table[c];
}
static inline int64_t COMPONENTS(Ctx *C, int64_t kind) {
    if (kind < 0 || kind >= NTEXTS || !KIND_NAMED[kind]) fail(C, E_no_kind, kind, 0);
    int64_t h = NEWLIST(C, KIND_START[kind + 1] - KIND_START[kind]);
    for (int64_t i = 0; i < LEN(h); i++) ITEM(h, i) = KIND_IDS[KIND_START[kind] + i];
    return h;
}
/* a move of component c into zone dest (onto cell, or -1): State.move_component with static masks */
static void MOVE(Ctx *C, int64_t c, int64_t dest, int64_t bottom, int64_t cell) {
    KS *s = C->s;
    c = CK(C, c, NC);
    dest = CK(C, dest, NZ);
    int64_t src = s->loc[c];
    if (ZONE_HOST[dest] >= 0) {  /* State._check_not_inside_itself */
        int64_t host = ZONE_HOST[dest];
        for (int i = 0; i < 64 && host >= 0; i++) {
            if (host == c) fail(C, E_inside_itself, c, dest);
            host = ZONE_HOST[s->loc[host]];
        }
    }
    if (!ZONE_HOLDS[dest][c]) fail(C, E_holds, c, dest);
    if (HAS_GRIDS) {
        if (ZONE_GRID[dest] && cell < 0) fail(C, E_grid_needs_cell, dest, 0);
        if (cell >= 0) { cell = CK(C, cell, NCELL); if (s->cells[cell] >= 0 && s->cells[cell] != c) fail(C, E_cell_taken, cell, s->cells[cell]); }
        int64_t old = s->cell_of[c];
        if (old >= 0) s->cells[old] = -1;
        s->cell_of[c] = cell;
        if (cell >= 0) s->cells[cell] = c;
    }
    int64_t seen = VISIBLE_MASK(C, src, 0);
    int64_t n = s->zlen[src];
    int64_t *cards = s->zitems[src];
    if (n > 0 && cards[n - 1] == c) {
        seen |= TOP_MASK[src];
        s->zlen[src] = n - 1;
    } else {
        int64_t i = 0;
        while (i < n && cards[i] != c) i++;
        if (i == n) fail(C, E_index, c, src);
        memmove(&cards[i], &cards[i + 1], (n - 1 - i) * sizeof(int64_t));
        s->zlen[src] = n - 1;
    }
    int64_t m = s->zlen[dest];
    int64_t *target = s->zitems[dest];
    if (m >= NC) fail(C, E_memory, 0, 0);
    if (bottom) {
        memmove(&target[1], &target[0], m * sizeof(int64_t));
        target[0] = c;
        if (m == 0) seen |= TOP_MASK[dest];
    } else {
        target[m] = c;
        seen |= TOP_MASK[dest];
    }
    s->zlen[dest] = m + 1;
    s->loc[c] = dest;
    seen |= VISIBLE_MASK(C, dest, 0);
    s->known[c] = seen;
    s->blind_to[dest] &= ~seen;
    int64_t blind = ALL_SEATS & ~seen;
    if (blind & ~s->blind_to[src]) {
        int64_t keep = ~blind;
        for (int64_t i = 0; i < s->zlen[src]; i++) s->known[cards[i]] &= keep;
        s->blind_to[src] |= blind;
    }
    if (HAS_TRIGGERS) FIRE(C, c, src, dest);
}
static void SHUFFLE(Ctx *C, int64_t z) {
    KS *s = C->s;
    z = CK(C, z, NZ);
    int64_t *cards = s->zitems[z];
    int64_t n = s->zlen[z];
    int64_t keep = VISIBLE_MASK(C, z, 0);
    for (int64_t i = 0; i < n; i++) { if (keep) s->known[cards[i]] &= keep; else s->known[cards[i]] = 0; }
    s->blind_to[z] |= ALL_SEATS & ~keep;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = random_below(C, i + 1);
        int64_t t = cards[i]; cards[i] = cards[j]; cards[j] = t;
    }
}
static void PLACE(Ctx *C, int64_t c, int64_t cell) {
    if (c < 0 || cell < 0) fail(C, E_place_none, 0, 0);
    cell = CK(C, cell, NCELL);
    MOVE(C, c, CELL_ZONE[cell], 0, cell);
}
static void MOVE_ALL(Ctx *C, int64_t src, int64_t dest, int64_t bottom) {
    src = CK(C, src, NZ);
    while (C->s->zlen[src] > 0) MOVE(C, C->s->zitems[src][C->s->zlen[src] - 1], dest, bottom, -1);
}
static void DRAW(Ctx *C, int64_t src, int64_t dest, int64_t count, int64_t bottom) {
    src = CK(C, src, NZ);
    if (count > MAX_ITEMS) fail(C, E_list_long, count, 0);
    for (int64_t i = 0; i < count; i++) {
        if (C->s->zlen[src] == 0) return;
        MOVE(C, C->s->zitems[src][C->s->zlen[src] - 1], dest, bottom, -1);
    }
}
static void MOVE_ONE(Ctx *C, int64_t c, int64_t dest, int64_t bottom) {
    if (c < 0) fail(C, E_place_none, 0, 0);
    MOVE(C, c, dest, bottom, -1);
}
static void MOVE_LIST(Ctx *C, int64_t h, int64_t dest, int64_t bottom) {
    int64_t copy = COPYLIST(C, h);
    for (int64_t i = 0; i < LEN(copy); i++) MOVE(C, ITEM(copy, i), dest, bottom, -1);
}
"""

PRELUDE = STATE + DECISIONS  # all of it, before the generated code (ENTRY comes after it)
