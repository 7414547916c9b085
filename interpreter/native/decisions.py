"""The fixed C of every kernel that takes decisions: the values a decision offers once (a value
repeated in a parameter's domain, interchangeable components), the candidates, the policy's pick; and
the kernel's entry points.  It follows :data:`.prelude.PRELUDE` and the generated setup and flow."""

DECISIONS = r"""
/* two components are interchangeable as legal actions: same name, zone, cell and marks */
static int64_t SAME(Ctx *C, int64_t a, int64_t b) {
    if (a < 0 || b < 0) return a == b;
    KS *s = C->s;
    if (NAME_INDEX[a] != NAME_INDEX[b] || s->loc[a] != s->loc[b]) return 0;
    if (HAS_GRIDS && s->cell_of[a] != s->cell_of[b]) return 0;
    for (int64_t m = 0; m < NMARK; m++)
        if (s->has_mark[m][a] != s->has_mark[m][b] || (s->has_mark[m][a] && s->marks[m][a] != s->marks[m][b])) return 0;
    return 1;
}
/* whether a parameter's value v repeats one tried before at this level of a decision's enumeration
   (the Python engine offers each value once): a stamp per value for small numbers (generation gen),
   else a comparison with the values tried, kept in the list tried */
static inline int64_t TRIED(Ctx *C, int64_t *tried, int64_t n, int64_t *nt, int64_t v) {
    if (*tried < 0) *tried = NEWLIST(C, n);  /* made at its first use */
    ITEM(*tried, (*nt)++) = v;
    return 0;
}
static inline int64_t SEEN_VALUE(Ctx *C, int64_t level, int64_t gen, int64_t *tried, int64_t n, int64_t *nt, int64_t v) {
    if (v >= 0 && v < NSTAMP) {
        if (C->stamp[level][v] == gen) return 1;
        C->stamp[level][v] = gen;
        return 0;
    }
    for (int64_t q = 0; q < *nt; q++) if (ITEM(*tried, q) == v) return 1;
    return TRIED(C, tried, n, nt, v);
}
/* components: interchangeable ones (SAME) count as one; a component on a cell is like no other */
static inline int64_t SEEN_COMPONENT(Ctx *C, int64_t level, int64_t gen, int64_t *tried, int64_t n, int64_t *nt, int64_t v) {
    if (v >= 0 && v < NC) {
        if (C->stamp[level][v] == gen) return 1;
        C->stamp[level][v] = gen;
        if (HAS_GRIDS && C->s->cell_of[v] >= 0) return 0;
    }
    for (int64_t q = 0; q < *nt; q++) if (SAME(C, ITEM(*tried, q), v)) return 1;
    return TRIED(C, tried, n, nt, v);
}
static inline int64_t SEEN_LIST(Ctx *C, int64_t level, int64_t gen, int64_t *tried, int64_t n, int64_t *nt, int64_t v) {
    for (int64_t q = 0; q < *nt; q++) if (LISTEQ(C, ITEM(*tried, q), v)) return 1;
    return TRIED(C, tried, n, nt, v);
}
/* a candidate action: option, then its parameters' values */
static void CANDIDATE(Ctx *C, int64_t option, int64_t n, const int64_t *values) {
    KS *s = C->s;
    if (s->cand_n >= MAXCAND || n > MAXP) fail(C, E_memory, 0, 0);
    s->cand[s->cand_n][0] = option;
    for (int64_t i = 0; i < n; i++) s->cand[s->cand_n][1 + i] = values[i];
    s->cand_n += 1;
}
/* whether a candidate of the decision is of the option (a choice offered again, as in a loop) */
static inline int OFFERS(const KS *s, int64_t option) {
    for (int64_t k = 0; k < s->cand_n; k++) if (s->cand[k][0] == option) return 1;
    return 0;
}
/* the keyed pick (s->keyed): the candidate with the smallest key, the mix of the deciding seat's next
   number (a stream per seat from s->keyed_seed) and an FNV-1a hash of the option's name and the
   parameters' values: the same action whenever it is legal (the reference in Python: keyed.py) */
static int64_t KEYED(Ctx *C) {
    KS *s = C->s;
    int64_t seat = CK(C, s->decider, NP);
    s->seat_picks[seat] += 1;  /* each seat's own stream of numbers (keyed.seat_number) */
    uint64_t z = s->keyed_seed + SEAT_STRIDE * (uint64_t)(seat + 1) + GAMMA * (uint64_t)s->seat_picks[seat];
    uint64_t best = 0;
    int64_t chosen = 0;
    for (int64_t k = 0; k < s->cand_n; k++) {
        int64_t o = s->cand[k][0];
        uint64_t h = OPTKEY[o];
        for (int64_t j = 0; j < OPTNP[o]; j++) {
            int64_t v = s->cand[k][1 + j], code = OPTPKIND[o][j];
            uint64_t part = code == 2 ? LIST_KEY
                : (code == 1 && v >= 0 && v < NTEXTS) ? TEXTKEY[v] : (uint64_t)v;
            h = (h ^ part) * FNV_PRIME;
        }
        h = mix64(z ^ h);
        if (k == 0 || h < best) { best = h; chosen = k; }
    }
    return chosen;
}
/* the seat's policy picks a candidate: the one forced (s->force, once), else uniform from the
   policy's own splitmix stream (keyed with s->keyed), or greedy by the evaluation (s->greedy_ppm >= 0;
   with s->greedy_own, only the next s->greedy_left decisions of s->stop_seat with a choice that do not offer again the
   option forced first); it stops at
   s->cap decisions, or where s->stop_seat is to decide again after another seat decided (for the
   s->stop_rounds-th time), or (s->stop_partners) where another seat is to decide (a bot's rollout:
   interpreter/bots/flat.py) */
static int64_t PICK(Ctx *C) {
    KS *s = C->s;
    if (s->n_log >= s->cap) longjmp(C->jb, 3);  /* the cap on decisions: the game is cut off */
    int64_t i = s->force;
    if (i >= 0) {
        s->force = -1;
        if (i >= s->cand_n) fail(C, E_index, i, s->cand_n);
        s->forced_option = s->cand[i][0];
    } else {
        if (s->stop_seat >= 0) {
            if (s->decider != s->stop_seat) {
                if (s->stop_partners) longjmp(C->jb, 3);  /* a cooperative game: a partner's turn */
                s->others_moved = 1;
            } else if (s->others_moved) {
                if (--s->stop_rounds <= 0) longjmp(C->jb, 3);
                s->others_moved = 0;  /* another round of the table */
            }
        }
        if (s->greedy_ppm >= 0 && s->cand_n > 1
            && (!s->greedy_own || (s->decider == s->stop_seat && !OFFERS(s, s->forced_option) && s->greedy_left-- > 0)))
            i = GREEDY(C);
        else if (s->keyed)
            i = KEYED(C);
        else {
            s->policy_rng += GAMMA;
            i = (int64_t)(mix64(s->policy_rng) % (uint64_t)s->cand_n);
        }
    }
    if (s->n_log < MAXLOG) {  /* the first MAXLOG kept: the action, and its place among the legal ones */
        memcpy(s->log[s->n_log], s->cand[i], sizeof(s->cand[i]));
        s->picks[s->n_log] = i;
    }
    s->n_log += 1;
    s->moves += 1;
    return i;
}
"""


# the kernel's entry points, after the generated setup, flow and scoring
ENTRY = r"""
/* play the game in s (a state before setup) to its end: 0 when it ended, 1 on an error (s->err),
   2 when it reached s->cap decisions (cut off, not scored) */
int64_t k_play(KS *s) {
    Ctx ctx;
    Ctx *C = &ctx;
    if (ctx_start(C, s)) return 1;
    s->decider = -1; s->end_reason = -1;
    int r = setjmp(C->jb);
    if (r == 0) {
        constants(C);
        if (USES_LINES) LINES_INIT(C);
        C->base = C->top;
        setup(C);
        C->steps = 0;
        flow(C);
    }
    if (r == 1 || r == 3) return r == 1 ? 1 : 2;
    s->over = 1; s->decider = -1;
    r = setjmp(C->jb);
    if (r != 0) return 1;
    for (int64_t p = 0; p < NP; p++) { C->top = C->base; C->iters = 0; s->returns[p] = score_of(C, p); }
    return 0;
}

/* play n games from the state in start, seeds seed0, seed0 + 1, ...; sums of returns in totals */
int64_t k_play_many(const KS *start, int64_t n, uint64_t seed0, uint64_t policy0, int64_t *totals, KS *work) {
    for (int64_t i = 0; i < n; i++) {
        memcpy(work, start, offsetof(KS, n_log));
        work->rng = seed0 + (uint64_t)i;
        work->policy_rng = policy0 + (uint64_t)i;
        if (k_play(work)) return i;  /* an error, or a game cut off */
        for (int64_t p = 0; p < NP; p++) totals[p] += work->returns[p];
    }
    return n;
}
"""
