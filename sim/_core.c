/* The compiled timing core of the simulator (ktc.sim.compiled drives it).

   It runs the engines' programs with exactly the rules of the Python engines
   (ktc.sim.engines, ktc.sim.machine, ktc.sim.fifo): one event queue ordered by
   (cycle, order of scheduling), the same handlers in the same order, the same
   reservations of routes, FIFOs and signals. It holds no element values: every
   instruction that makes, moves or stores vector data appends an entry to a log
   (loads and stores in the order they happen, DMA copies when they complete), from
   which ktc.sim.compiled computes the values afterwards. Whatever it does not handle
   exactly as the Python engines do (an instruction its table lacks, any fault, a
   deadlock, the cycle budget) makes it give up ("bail"): the caller then runs the
   Python engines from the start, which give the figures or the error.

   Log entries (int64 words; types are indices into isa.TYPES):
     LOAD  vid unit address type length stride
     STORE vid unit address type length stride
     OP    vid engine pc type length n sources... (n = -1: one scalar value instead)
     DMA   view view, a view being unit address type rank shape... strides... */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t i64;
typedef uint64_t u64;
typedef uint8_t u8;

#define SREGS 64
#define VREGS 64
#define DREGS 32
#define MAXD 8
#define STEPS_WITHOUT_TIME 10000000LL
#define MAX_KINDS 1024
#define RING 1024

enum {
    OP_BAIL, OP_LI, OP_UNI, OP_MOV, OP_ALU, OP_SELECT, OP_LOOP, OP_ENDLOOP, OP_BRZ, OP_JMP,
    OP_HALT, OP_VIEW, OP_DIM, OP_DMA, OP_VLD, OP_VST, OP_SEND, OP_RECV, OP_SSEND, OP_SRECV,
    OP_VOP, OP_VCONST, OP_VSPLAT, OP_VMOV, OP_VREDUCE, OP_VBCAST, OP_VCVT, OP_VMMA, OP_COUNT
};
static const char *OP_NAMES[OP_COUNT] = {
    "bail", "li", "uni", "mov", "alu", "select", "loop", "endloop", "brz", "jmp",
    "halt", "view", "dim", "dma", "vld", "vst", "send", "recv", "ssend", "srecv",
    "vop", "vconst", "vsplat", "vmov", "vreduce", "vbcast", "vcvt", "vmma"
};

enum {
    A_ADD, A_SUB, A_MUL, A_DIVSI, A_DIVUI, A_REMSI, A_REMUI, A_CEILDIVSI, A_CEILDIVUI,
    A_FLOORDIVSI, A_MINSI, A_MAXSI, A_MINUI, A_MAXUI, A_AND, A_OR, A_XOR, A_SHL, A_SHRSI,
    A_SHRUI, A_EQ, A_NE, A_SLT, A_SLE, A_SGT, A_SGE, A_ULT, A_ULE, A_UGT, A_UGE, A_COUNT
};
static const char *ALU_NAMES[A_COUNT] = {
    "add", "sub", "mul", "divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui",
    "floordivsi", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor", "shl", "shrsi",
    "shrui", "cmp.eq", "cmp.ne", "cmp.slt", "cmp.sle", "cmp.sgt", "cmp.sge", "cmp.ult",
    "cmp.ule", "cmp.ugt", "cmp.uge"
};

/* Log entries (see ktc.sim.compiled). */
enum { L_LOAD = 1, L_STORE, L_OP, L_DMA };

enum { B_NONE, B_STARVED, B_BACKPRESSURED, B_OTHER };
enum { EV_RESUME, EV_DMA, EV_SIGNAL };

/* Results of a step. */
#define STOP (-1)
#define BAIL (-2)

typedef struct { int op; i64 a[8]; i64 *list; int n; i64 *list2; int n2; i64 cost; } Ins;
typedef struct { Ins *ins; int count; i64 *uniforms; int rows; int cols; } Program;

typedef struct { i64 unit, address; int dtype, ndim; i64 shape[MAXD], strides[MAXD]; } View;

typedef struct { i64 hop, granularity, per_cycle, memory, interconnect, reads; } Hop;
typedef struct { i64 latency; int nhops; Hop *hops; } Route;

typedef struct { i64 id; int dtype; i64 length, vid, beats, arrival; } Message;
typedef struct { int *items; int count, cap; } List;
typedef struct {
    i64 depth, beat, occupancy; int route;
    Message *ring; int head, count, cap;
    List waiting;
} Fifo;
typedef struct { i64 pending; List waiting; } Signal;
typedef struct { i64 size, kind, core, page; int nalloc; i64 *alloc; } Mem;

typedef struct {
    int program; i64 unit; i64 position; i64 pc; int done;
    int block; i64 blocked_since, outstanding;
    i64 pending; /* cycles of scalar and control instructions not spent yet */
    i64 *copies; int copies_head, copies_count; /* completion times of copies in flight (a ring) */
    i64 busy, starved, backpressured, busy_until, vector_cycles;
    i64 matrix_cycles; /* issue cycles of its matrix unit's steps (ktc.sim.matrix) */
    i64 matrix_macs;   /* multiply-accumulates of its matrix unit's products */
    i64 unit_vid[VREGS]; /* per register, the vector the matrix unit last made in it (0: none) */
    i64 s[SREGS];
    int vdtype[VREGS]; i64 vlen[VREGS], vid[VREGS], ready[VREGS]; char vset[VREGS];
    View d[DREGS]; char dset[DREGS];
} Engine;

typedef struct { i64 time, order; int type, index; } Event;
typedef struct { Event *items; int head, count, cap; } Bucket;

/* An open-addressing map from three int64s to an int. */
typedef struct { i64 k[3]; int value; char used; } Slot;
typedef struct { Slot *slots; size_t cap, count; } Map;

typedef struct {
    PyObject_HEAD
    Program *programs; int nprograms;
    Engine *engines; int nengines;
    i64 *bpe; int ntypes;
    PyObject *route_cb, *fifo_cb, *memory_cb;
    i64 nunits;
    Event *heap; size_t nheap, capheap;
    Bucket *ring; i64 ringed, scan;
    i64 now, order, last_event, events_run;
    i64 *free_at; size_t nfree;
    Route **routes; int nroutes, caproutes; int **route_at; /* [a][b]: index + 1, 0 unknown */
    Fifo **fifos; int nfifos, capfifos; int **fifo_at;
    Signal *signals; int nsignals, capsignals; Map signal_map;
    Mem *mems; char *mem_known;
    i64 *memory_bytes, *port_bytes, *port_read_bytes, *port_latency; int nkinds;
    int *kind_order; int nkind_order;
    i64 *feed, *drain; int ncores;
    i64 interconnect_bytes;
    View *dmas; size_t ndmas, capdmas;
    i64 *log; size_t nlog, caplog;
    i64 next_vid;
    char bailed[200];
    int finished;
} Core;

/* ------------------------------------------------------------------------------ */
/* Small containers                                                                 */

static int grow(void **data, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need) cap2 *= 2;
    void *p = realloc(*data, cap2 * size);
    if (!p) return -1;
    *data = p; *cap = cap2;
    return 0;
}

static int list_push(List *l, int item) {
    size_t cap = l->cap;
    if (grow((void **)&l->items, &cap, (size_t)l->count + 1, sizeof(int))) return -1;
    l->cap = (int)cap;
    l->items[l->count++] = item;
    return 0;
}

static u64 mix(const i64 k[3]) {
    u64 h = 1469598103934665603ULL;
    for (int i = 0; i < 3; i++) { h ^= (u64)k[i]; h *= 1099511628211ULL; h ^= h >> 29; }
    return h;
}

static int map_find(Map *m, const i64 k[3]) {
    if (!m->cap) return -1;
    size_t i = mix(k) & (m->cap - 1);
    while (m->slots[i].used) {
        Slot *s = &m->slots[i];
        if (s->k[0] == k[0] && s->k[1] == k[1] && s->k[2] == k[2]) return s->value;
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

static int map_put(Map *m, const i64 k[3], int value) {
    if ((m->count + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        Slot *old = m->slots; size_t oldcap = m->cap;
        m->slots = calloc(cap, sizeof(Slot));
        if (!m->slots) { m->slots = old; return -1; }
        m->cap = cap; m->count = 0;
        for (size_t j = 0; j < oldcap; j++)
            if (old[j].used) map_put(m, old[j].k, old[j].value);
        free(old);
    }
    size_t i = mix(k) & (m->cap - 1);
    while (m->slots[i].used) i = (i + 1) & (m->cap - 1);
    memcpy(m->slots[i].k, k, sizeof(i64) * 3);
    m->slots[i].value = value; m->slots[i].used = 1;
    m->count++;
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* Bailing, the log and the event queue                                             */

static int bail(Core *c, const char *why, i64 detail) {
    if (!c->bailed[0]) snprintf(c->bailed, sizeof c->bailed, "%s (%lld)", why, (long long)detail);
    return BAIL;
}

/* Room for ``n`` more words at the log's end, counted as written; NULL (bailed) when
   out of memory. */
static inline i64 *log_room(Core *c, size_t n) {
    if (c->nlog + n > c->caplog && grow((void **)&c->log, &c->caplog, c->nlog + n, sizeof(i64))) {
        bail(c, "out of memory", 0);
        return NULL;
    }
    i64 *w = c->log + c->nlog;
    c->nlog += n;
    return w;
}

static int log_put(Core *c, const i64 *words, size_t n) {
    i64 *w = log_room(c, n);
    if (!w) return BAIL;
    for (size_t i = 0; i < n; i++) w[i] = words[i];
    return 0;
}

static int log_view(Core *c, const View *v) {
    i64 head[4] = {v->unit, v->address, v->dtype, v->ndim};
    if (log_put(c, head, 4) || log_put(c, v->shape, v->ndim) || log_put(c, v->strides, v->ndim))
        return BAIL;
    return 0;
}

static int before(const Event *a, const Event *b) {
    return a->time < b->time || (a->time == b->time && a->order < b->order);
}

/* The queue: events of the next RING cycles in one bucket per cycle, each in the order
   they were scheduled; later ones in a heap ordered by (time, order), moved into their
   buckets once the time comes within RING cycles (before any event of that time is
   scheduled directly, so a bucket stays in scheduling order). Pops therefore come in
   (time, order) order, as from one heap. */

static int heap_push(Core *c, Event e) {
    if (grow((void **)&c->heap, &c->capheap, c->nheap + 1, sizeof(Event))) return bail(c, "out of memory", 0);
    size_t i = c->nheap++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&e, &c->heap[parent])) break;
        c->heap[i] = c->heap[parent];
        i = parent;
    }
    c->heap[i] = e;
    return 0;
}

static Event heap_pop(Core *c) {
    Event top = c->heap[0], last = c->heap[--c->nheap];
    size_t i = 0, n = c->nheap;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && before(&c->heap[child + 1], &c->heap[child])) child++;
        if (!before(&c->heap[child], &last)) break;
        c->heap[i] = c->heap[child];
        i = child;
    }
    if (n) c->heap[i] = last;
    return top;
}

static inline int bucket_push(Core *c, Event e) {
    Bucket *b = &c->ring[e.time & (RING - 1)];
    if (b->count == b->cap) {
        size_t cap = b->cap;
        if (grow((void **)&b->items, &cap, (size_t)b->count + 1, sizeof(Event))) return bail(c, "out of memory", 0);
        b->cap = (int)cap;
    }
    b->items[b->count++] = e;
    c->ringed++;
    if (e.time < c->scan) c->scan = e.time;
    return 0;
}

static inline int push(Core *c, i64 time, int type, int index) {
    if (time < c->now) return bail(c, "event before now", time);
    Event e = {time, c->order++, type, index};
    return time < c->now + RING ? bucket_push(c, e) : heap_push(c, e);
}

/* The earliest event (0 when there is none), left in the queue. */
static int peek(Core *c, Event *e) {
    if (!c->ringed) {
        if (!c->nheap) return 0;
        *e = c->heap[0];
        return 1;
    }
    for (;; c->scan++) {
        Bucket *b = &c->ring[c->scan & (RING - 1)];
        if (b->head < b->count) { *e = b->items[b->head]; return 1; }
    }
}

/* Take the event ``peek`` gave and make its time the present. */
static int take(Core *c, const Event *e) {
    if (c->ringed) {
        Bucket *b = &c->ring[e->time & (RING - 1)];
        if (++b->head == b->count) b->head = b->count = 0;
        c->ringed--;
    } else {
        heap_pop(c);
        c->scan = e->time;
    }
    if (e->time == c->now) return 0;
    c->now = e->time;
    while (c->nheap && c->heap[0].time < c->now + RING)
        if (bucket_push(c, heap_pop(c))) return BAIL;
    return 0;
}

static int at(Core *c, i64 time, int type, int index) {
    return push(c, time > c->now ? time : c->now, type, index);
}

/* ------------------------------------------------------------------------------ */
/* Things the Python side describes on first use                                   */

static int read_route(Core *c, PyObject *t, Route *r) {
    /* (latency, ((hop, granularity, per_cycle, memory kind or -1, interconnect, reads), ...)) */
    PyObject *hops;
    long long latency;
    if (!PyArg_ParseTuple(t, "LO", &latency, &hops) || !PyTuple_Check(hops)) return -1;
    r->latency = latency;
    r->nhops = (int)PyTuple_GET_SIZE(hops);
    r->hops = calloc(r->nhops ? r->nhops : 1, sizeof(Hop));
    for (int i = 0; i < r->nhops; i++) {
        long long h, g, p, m, x, rd;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(hops, i), "LLLLLL", &h, &g, &p, &m, &x, &rd)) return -1;
        r->hops[i] = (Hop){h, g, p, m, x, rd};
        size_t had = c->nfree;
        if (grow((void **)&c->free_at, &c->nfree, (size_t)h + 1, sizeof(i64))) return -1;
        memset(c->free_at + had, 0, (c->nfree - had) * sizeof(i64));
    }
    return 0;
}

static int new_route(Core *c, PyObject *t) {
    size_t cap = c->caproutes;
    if (grow((void **)&c->routes, &cap, (size_t)c->nroutes + 1, sizeof(Route *))) return -1;
    c->caproutes = (int)cap;
    Route *r = calloc(1, sizeof(Route));
    if (!r) return -1;
    c->routes[c->nroutes] = r;
    c->nroutes++;
    if (read_route(c, t, r)) return -1;
    return c->nroutes - 1;
}

/* The entry of (a, b) in a table of units by units made a row at a time, or NULL
   (out of memory, or a unit that does not exist). */
static int *pair(Core *c, int **table, i64 a, i64 b) {
    if (!table || a < 0 || b < 0 || a >= c->nunits || b >= c->nunits) return NULL;
    if (!table[a] && !(table[a] = calloc((size_t)c->nunits, sizeof(int)))) return NULL;
    return &table[a][b];
}

static Route *route(Core *c, i64 a, i64 b) {
    if (a >= 0 && b >= 0 && a < c->nunits && b < c->nunits && c->route_at[a] && c->route_at[a][b])
        return c->routes[c->route_at[a][b] - 1];
    int *known = pair(c, c->route_at, a, b);
    if (!known) { bail(c, "no route", a); return NULL; }
    if (*known) return c->routes[*known - 1];
    PyObject *t = PyObject_CallFunction(c->route_cb, "LL", (long long)a, (long long)b);
    int index = t ? new_route(c, t) : -1;
    Py_XDECREF(t);
    if (index < 0) { PyErr_Clear(); bail(c, "no route", a); return NULL; }
    *known = index + 1;
    return c->routes[index];
}

static Fifo *fifo(Core *c, i64 a, i64 b) {
    if (a >= 0 && b >= 0 && a < c->nunits && b < c->nunits && c->fifo_at[a] && c->fifo_at[a][b])
        return c->fifos[c->fifo_at[a][b] - 1];
    int *known = pair(c, c->fifo_at, a, b);
    if (!known) { bail(c, "no FIFO", a); return NULL; }
    if (*known) return c->fifos[*known - 1];
    PyObject *t = PyObject_CallFunction(c->fifo_cb, "LL", (long long)a, (long long)b);
    long long depth, beat;
    PyObject *r;
    int index = -1;
    if (t && PyArg_ParseTuple(t, "LLO", &depth, &beat, &r)) {
        int ri = new_route(c, r);
        size_t cap = c->capfifos;
        Fifo *f = ri >= 0 ? calloc(1, sizeof(Fifo)) : NULL;
        if (f && !grow((void **)&c->fifos, &cap, (size_t)c->nfifos + 1, sizeof(Fifo *))) {
            c->capfifos = (int)cap;
            index = c->nfifos++;
            c->fifos[index] = f;
            f->depth = depth; f->beat = beat; f->route = ri;
        } else {
            free(f);
        }
    }
    Py_XDECREF(t);
    if (index < 0) { PyErr_Clear(); bail(c, "no FIFO", a); return NULL; }
    *known = index + 1;
    return c->fifos[index];
}

static Mem *memory(Core *c, i64 unit) {
    if (unit < 0 || unit >= c->nunits) { bail(c, "not a memory", unit); return NULL; }
    if (c->mem_known[unit] == 1) return &c->mems[unit];
    if (c->mem_known[unit] == 2) { bail(c, "not a memory", unit); return NULL; }
    PyObject *t = PyObject_CallFunction(c->memory_cb, "L", (long long)unit);
    long long size, kind, core, page;
    PyObject *allocs;
    Mem *m = &c->mems[unit];
    if (!t || !PyArg_ParseTuple(t, "LLLLO", &size, &kind, &core, &page, &allocs) || !PyTuple_Check(allocs)
        || page <= 0) {
        Py_XDECREF(t); PyErr_Clear(); c->mem_known[unit] = 2;
        bail(c, "not a memory", unit); return NULL;
    }
    m->size = size; m->kind = kind; m->core = core; m->page = page;
    m->nalloc = (int)PyTuple_GET_SIZE(allocs);
    m->alloc = calloc(2 * (size_t)m->nalloc + 2, sizeof(i64));
    for (int i = 0; i < m->nalloc; i++) {
        long long s, n;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(allocs, i), "LL", &s, &n)) { s = n = 0; PyErr_Clear(); }
        m->alloc[2 * i] = s; m->alloc[2 * i + 1] = n;
    }
    Py_DECREF(t);
    if (kind < 0 || kind >= MAX_KINDS) { bail(c, "memory kinds", kind); return NULL; }
    if (kind >= c->nkinds) {
        int n = (int)kind + 1;
        c->memory_bytes = realloc(c->memory_bytes, n * sizeof(i64));
        c->port_bytes = realloc(c->port_bytes, n * sizeof(i64));
        c->port_read_bytes = realloc(c->port_read_bytes, n * sizeof(i64));
        c->port_latency = realloc(c->port_latency, n * sizeof(i64));
        for (int i = c->nkinds; i < n; i++) { c->memory_bytes[i] = -1; c->port_bytes[i] = 0; c->port_read_bytes[i] = 0; c->port_latency[i] = -1; }
        c->nkinds = n;
    }
    if (core >= c->ncores) {
        int n = (int)core + 1;
        c->feed = realloc(c->feed, n * sizeof(i64));
        c->drain = realloc(c->drain, n * sizeof(i64));
        for (int i = c->ncores; i < n; i++) c->feed[i] = c->drain[i] = -1;
        c->ncores = n;
    }
    c->mem_known[unit] = 1;
    return m;
}

/* ------------------------------------------------------------------------------ */
/* Counters and datapaths (ktc.sim.machine)                                         */

static void count_memory(Core *c, i64 kind, i64 nbytes) {
    if (c->memory_bytes[kind] < 0) {
        c->memory_bytes[kind] = 0;
        c->kind_order[c->nkind_order++] = (int)kind;
    }
    c->memory_bytes[kind] += nbytes;
}

static void count_core(i64 *per_core, i64 core, i64 nbytes) {
    if (core < 0) return;
    if (per_core[core] < 0) per_core[core] = 0;
    per_core[core] += nbytes;
}

typedef struct { Route *route; i64 runs, run_bytes; } Leg;

static void transfer(Core *c, const Leg *legs, int nlegs, i64 *start_, i64 *sent_, i64 *arrival_) {
    i64 start = c->now, latency = 0, hold = 0;
    for (int l = 0; l < nlegs; l++) {
        latency += legs[l].route->latency;
        for (int h = 0; h < legs[l].route->nhops; h++) {
            Hop *hop = &legs[l].route->hops[h];
            i64 busy = c->free_at[hop->hop];
            if (hop->memory >= 0) busy /= hop->per_cycle; /* a port: the cycle its next byte is served in */
            if (busy > start) start = busy;
        }
    }
    for (int l = 0; l < nlegs; l++) {
        for (int h = 0; h < legs[l].route->nhops; h++) {
            Hop *hop = &legs[l].route->hops[h];
            i64 g = hop->granularity;
            i64 nbytes = legs[l].runs * (((legs[l].run_bytes + g - 1) / g) * g);
            i64 cycles;
            if (hop->memory >= 0) { /* a port, free from a byte position */
                i64 p = hop->per_cycle, first = start * p > c->free_at[hop->hop] ? start * p : c->free_at[hop->hop];
                c->free_at[hop->hop] = first + nbytes;
                cycles = (first + nbytes + p - 1) / p - start;
            } else {
                cycles = hop->per_cycle ? (nbytes + hop->per_cycle - 1) / hop->per_cycle : 0;
                c->free_at[hop->hop] = start + cycles;
            }
            if (cycles > hold) hold = cycles;
            if (hop->memory >= 0) {
                c->port_bytes[hop->memory] += nbytes;
                if (hop->reads) c->port_read_bytes[hop->memory] += nbytes;
                if (c->port_latency[hop->memory] < 0 || latency < c->port_latency[hop->memory])
                    c->port_latency[hop->memory] = latency;
            }
            if (hop->interconnect) c->interconnect_bytes += nbytes;
        }
    }
    *start_ = start; *sent_ = start + hold; *arrival_ = start + hold + latency;
}

/* ------------------------------------------------------------------------------ */
/* Views (ktc.sim.memory.View)                                                      */

static i64 elements(const View *v) {
    i64 n = 1;
    for (int i = 0; i < v->ndim; i++) n *= v->shape[i];
    return n;
}

/* The bytes [lo, hi) of ``n`` elements of ``dtype`` from ``address``, ``stride`` apart. */
static void row_span(Core *c, i64 address, i64 dtype, i64 n, i64 stride, i64 *lo, i64 *hi) {
    i64 size = c->bpe[dtype];
    if (n == 0) { *lo = *hi = address; return; }
    *lo = address + (stride < 0 ? (n - 1) * stride : 0) * size;
    *hi = address + ((stride > 0 ? (n - 1) * stride : 0) + 1) * size;
}

static void span(Core *c, const View *v, i64 *lo, i64 *hi) {
    i64 low = 0, high = 0, size = c->bpe[v->dtype];
    for (int i = 0; i < v->ndim; i++) {
        i64 n = v->shape[i], s = v->strides[i];
        if (n == 0) { *lo = *hi = v->address; return; }
        if (s < 0) low += (n - 1) * s; else high += (n - 1) * s;
    }
    *lo = v->address + low * size; *hi = v->address + (high + 1) * size;
}

static void runs(Core *c, const View *v, i64 *count, i64 *bytes) {
    i64 run = 1, dense = 1;
    for (int i = v->ndim - 1; i >= 0; i--) {
        i64 n = v->shape[i], s = v->strides[i];
        if (s != dense && n != 1) break;
        run *= n; dense *= n;
    }
    i64 total = elements(v);
    *count = run ? total / run : 0;
    *bytes = run * c->bpe[v->dtype];
}

static int check(Core *c, Mem *m, const View *v) {
    i64 lo, hi;
    span(c, v, &lo, &hi);
    if (lo < 0 || hi > m->size) return bail(c, "out of bounds", lo);
    if (lo == hi || !m->nalloc) return 0;
    for (int i = 0; i < m->nalloc; i++)
        if (m->alloc[2 * i] <= lo && hi <= m->alloc[2 * i] + m->alloc[2 * i + 1]) return 0;
    return bail(c, "outside every buffer", lo);
}

static int row(Core *c, Engine *e, const Ins *in, i64 view, i64 length, View *out) {
    if (!e->dset[view]) return bail(c, "no view", view);
    View *v = &e->d[view];
    if (in->n != v->ndim || v->ndim == 0) return bail(c, "index count", in->n);
    i64 offset = 0;
    int inside = e->s[in->list[in->n - 1]] + length <= v->shape[v->ndim - 1];
    for (int i = 0; i < v->ndim; i++) {
        i64 x = e->s[in->list[i]];
        inside = inside && 0 <= x && x < v->shape[i];
        offset += x * v->strides[i];
    }
    if (!inside) return bail(c, "outside the view", offset);
    out->unit = v->unit; out->dtype = v->dtype; out->ndim = 1;
    out->address = v->address + offset * c->bpe[v->dtype];
    out->shape[0] = length; out->strides[0] = v->strides[v->ndim - 1];
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The engine (ktc.sim.engines.Engine)                                              */

static int hold(Core *c, Engine *e, int index, i64 until, i64 following) {
    e->pc = following;
    if (push(c, until, EV_RESUME, index)) return BAIL;
    return STOP;
}

static int wait(Core *c, Engine *e, int index, int kind, i64 until) {
    e->block = kind; e->blocked_since = c->now;
    if (until >= 0 && push(c, until, EV_RESUME, index)) return BAIL;
    return STOP;
}

static void busy(Engine *e, i64 start, i64 end) {
    if (end > e->busy_until) {
        e->busy += end - (start > e->busy_until ? start : e->busy_until);
        e->busy_until = end;
    }
}

static int wake(Core *c, List *waiting) {
    int n = waiting->count;
    waiting->count = 0;
    for (int i = 0; i < n; i++)
        if (at(c, c->now, EV_RESUME, waiting->items[i])) return BAIL;
    return 0;
}

/* 1 when the registers' data is still on its way (the engine then waits), 0 when it
   is there, BAIL when a register holds nothing. */
static int starves(Core *c, Engine *e, int index, const i64 *regs, int n) {
    i64 until = c->now;
    for (int i = 0; i < n; i++) {
        if (!e->vset[regs[i]]) return bail(c, "no vector", regs[i]);
        if (e->ready[regs[i]] > until) until = e->ready[regs[i]];
    }
    if (until == c->now) return 0;
    if (wait(c, e, index, B_STARVED, until) == BAIL) return BAIL;
    return 1;
}

static __int128 floordiv128(__int128 a, __int128 b) {
    __int128 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}

static inline i64 alu(int op, i64 a, i64 b) {
    u64 ua = (u64)a, ub = (u64)b;
    switch (op) {
    case A_ADD: return (i64)(ua + ub);
    case A_SUB: return (i64)(ua - ub);
    case A_MUL: return (i64)(ua * ub);
    case A_DIVSI: return (i64)(u64)((__int128)a / (__int128)b);
    case A_DIVUI: return (i64)(ua / ub);
    case A_REMSI: return (i64)(u64)((__int128)a - (__int128)b * ((__int128)a / (__int128)b));
    case A_REMUI: return (i64)(ua % ub);
    case A_CEILDIVSI: return (i64)(u64)(-floordiv128(-(__int128)a, b));
    case A_CEILDIVUI: return (i64)(u64)(((__int128)ua + ub - 1) / ub);
    case A_FLOORDIVSI: return (i64)(u64)floordiv128(a, b);
    case A_MINSI: return a < b ? a : b;
    case A_MAXSI: return a > b ? a : b;
    case A_MINUI: return (i64)(ua < ub ? ua : ub);
    case A_MAXUI: return (i64)(ua > ub ? ua : ub);
    case A_AND: return a & b;
    case A_OR: return a | b;
    case A_XOR: return a ^ b;
    case A_SHL: return ub < 64 ? (i64)(ua << ub) : 0;
    case A_SHRSI: return a >> (ub < 63 ? ub : 63);
    case A_SHRUI: return ub < 64 ? (i64)(ua >> ub) : 0;
    case A_EQ: return a == b;
    case A_NE: return a != b;
    case A_SLT: return a < b;
    case A_SLE: return a <= b;
    case A_SGT: return a > b;
    case A_SGE: return a >= b;
    case A_ULT: return ua < ub;
    case A_ULE: return ua <= ub;
    case A_UGT: return ua > ub;
    case A_UGE: return ua >= ub;
    }
    return 0;
}

static int dividing(int op) {
    return op == A_DIVSI || op == A_DIVUI || op == A_REMSI || op == A_REMUI || op == A_CEILDIVSI
        || op == A_CEILDIVUI || op == A_FLOORDIVSI;
}

static i64 new_vid(Core *c) { return c->next_vid++; }

static void set_vector(Engine *e, i64 r, int dtype, i64 length, i64 vid, i64 ready) {
    e->vset[r] = 1; e->vdtype[r] = dtype; e->vlen[r] = length; e->vid[r] = vid; e->ready[r] = ready;
}

/* A SIMD result in place after ``cycles`` issue cycles; the engine is held. */
static int computed(Core *c, Engine *e, int index, const Ins *in, i64 dst, int dtype, i64 length,
                    i64 cycles, const i64 *sources, int nsources) {
    i64 vid = new_vid(c), *w = log_room(c, 7 + (size_t)nsources);
    if (!w) return BAIL;
    w[0] = L_OP; w[1] = vid; w[2] = index; w[3] = e->pc; w[4] = dtype; w[5] = length; w[6] = nsources;
    for (int i = 0; i < nsources; i++) w[7 + i] = sources[i];
    set_vector(e, dst, dtype, length, vid, c->now + cycles);
    e->vector_cycles += cycles;
    busy(e, c->now, c->now + cycles);
    return hold(c, e, index, c->now + cycles, e->pc + 1);
}

static i64 ceil_div(i64 a, i64 b) { return (a + b - 1) / b; }

/* The record of the signals of (sender, receiver, id), made on first use. */
static int signal(Core *c, const i64 k[3]) {
    int found = map_find(&c->signal_map, k);
    if (found >= 0) return found;
    size_t cap = c->capsignals;
    if (grow((void **)&c->signals, &cap, (size_t)c->nsignals + 1, sizeof(Signal))) return bail(c, "out of memory", 0);
    c->capsignals = (int)cap;
    found = c->nsignals++;
    memset(&c->signals[found], 0, sizeof(Signal));
    map_put(&c->signal_map, k, found);
    return found;
}

/* A signal reaches its receiver: one more pending, its waiting engines woken. */
static int signal_arrives(Core *c, int found) {
    c->signals[found].pending++;
    return wake(c, &c->signals[found].waiting);
}

/* The row of a vld (type L_LOAD, from memory ``m`` to the engine) or a vst (L_STORE,
   back): logged, its route reserved, its bytes counted (``per_core``: the feed or
   the drain bytes) and its busy time; when the engine is free again (``sent``) and
   the last byte has arrived. */
static int move_row(Core *c, Engine *e, int type, i64 vid, Mem *m, const View *r, i64 *per_core,
                    i64 *sent, i64 *arrival) {
    i64 *w = log_room(c, 7), start;
    if (!w) return BAIL;
    w[0] = type; w[1] = vid; w[2] = r->unit; w[3] = r->address; w[4] = r->dtype; w[5] = r->shape[0]; w[6] = r->strides[0];
    Route *rt = type == L_LOAD ? route(c, r->unit, e->unit) : route(c, e->unit, r->unit);
    if (!rt) return BAIL;
    Leg leg = {rt, 0, 0};
    runs(c, r, &leg.runs, &leg.run_bytes);
    transfer(c, &leg, 1, &start, sent, arrival);
    i64 nbytes = r->shape[0] * c->bpe[r->dtype];
    count_memory(c, m->kind, nbytes);
    count_core(per_core, m->core, nbytes);
    busy(e, start, *sent);
    return 0;
}

/* One instruction: the pc to go on at, STOP (the engine waits, holds or ended) or BAIL. */
static i64 step(Core *c, Engine *e, int index, const Ins *in) {
    i64 *s = e->s, *a = (i64 *)in->a, following = e->pc + 1;
    switch (in->op) {
    case OP_UNI: {
        Program *p = &c->programs[e->program];
        if (a[1] < 0 || a[1] >= p->rows || e->position >= p->cols) return bail(c, "uniform", a[1]);
        s[a[0]] = p->uniforms[a[1] * p->cols + e->position];
        return following;
    }
    case OP_ALU:  /* a dividing one: the others are scalar_step's */
        if (s[a[3]] == 0) return bail(c, "division by zero", 0);
        s[a[1]] = alu((int)a[0], s[a[2]], s[a[3]]);
        return following;
    case OP_LOOP:  /* a step that is not positive: the others are scalar_step's */
        return bail(c, "loop step", s[a[3]]);
    case OP_HALT: return c->programs[e->program].count;
    case OP_VIEW: {
        if (!memory(c, s[a[1]])) return BAIL;
        View *v = &e->d[a[0]];
        v->unit = s[a[1]]; v->address = s[a[2]]; v->dtype = (int)a[3]; v->ndim = (int)a[4];
        memcpy(v->shape, in->list, sizeof(i64) * v->ndim);
        memcpy(v->strides, in->list2, sizeof(i64) * v->ndim);
        e->dset[a[0]] = 1;
        return following;
    }
    case OP_DIM: {
        if (!e->dset[a[0]]) return bail(c, "no view", a[0]);
        View *v = &e->d[a[0]];
        i64 size = s[a[1]];
        if (a[2] >= v->ndim || size < 0) return bail(c, "dim", a[2]);
        v->shape[a[2]] = size;
        return following;
    }
    case OP_DMA: {
        /* a: source view, target view, copies in flight at most (0: no limit), fill (a
           dmaz: the source may be smaller in any dimension, the rest of the target zeros) */
        while (e->copies_count && e->copies[e->copies_head] <= c->now) {
            e->copies_head = (e->copies_head + 1) % (int)a[2];
            e->copies_count--;
        }
        if (a[2] && e->copies_count >= a[2]) return wait(c, e, index, B_OTHER, e->copies[e->copies_head]);
        if (!e->dset[a[0]] || !e->dset[a[1]]) return bail(c, "no view", 0);
        View *src = &e->d[a[0]], *dst = &e->d[a[1]];
        if (src->ndim != dst->ndim || src->dtype != dst->dtype) return bail(c, "dma shapes", 0);
        for (int i = 0; i < src->ndim; i++)
            if (a[3] ? src->shape[i] > dst->shape[i] : src->shape[i] != dst->shape[i])
                return bail(c, "dma shapes", i);
        Mem *read = memory(c, src->unit), *written = read ? memory(c, dst->unit) : NULL;
        if (!written || check(c, read, src) || check(c, written, dst)) return BAIL;
        Route *r1 = route(c, src->unit, e->unit), *r2 = r1 ? route(c, e->unit, dst->unit) : NULL;
        if (!r2) return BAIL;
        Leg legs[2] = {{r1, 0, 0}, {r2, 0, 0}};
        runs(c, src, &legs[0].runs, &legs[0].run_bytes);
        runs(c, dst, &legs[1].runs, &legs[1].run_bytes);
        i64 start, sent, arrival;
        transfer(c, legs, 2, &start, &sent, &arrival);
        i64 done = arrival > e->outstanding ? arrival : e->outstanding;
        e->outstanding = done;
        if (a[2]) {
            if (!e->copies && !(e->copies = malloc(sizeof(i64) * (size_t)a[2]))) return bail(c, "out of memory", 0);
            e->copies[(e->copies_head + e->copies_count++) % (int)a[2]] = done;
        }
        if (grow((void **)&c->dmas, &c->capdmas, c->ndmas + 2, sizeof(View))) return bail(c, "out of memory", 0);
        c->dmas[c->ndmas] = *src; c->dmas[c->ndmas + 1] = *dst;
        if (at(c, done, EV_DMA, (int)(c->ndmas / 2))) return BAIL;
        c->ndmas += 2;
        i64 size = c->bpe[src->dtype];
        count_memory(c, read->kind, elements(src) * size);
        count_memory(c, written->kind, elements(dst) * size);
        busy(e, start, done);
        return following;
    }
    case OP_VLD: {
        View r;
        if (row(c, e, in, a[1], a[2], &r)) return BAIL;
        Mem *m = memory(c, r.unit);
        if (!m || check(c, m, &r)) return BAIL;
        i64 vid = new_vid(c), sent, arrival;
        if (move_row(c, e, L_LOAD, vid, m, &r, c->feed, &sent, &arrival)) return BAIL;
        set_vector(e, a[0], r.dtype, a[2], vid, arrival);
        return sent > c->now ? hold(c, e, index, sent, following) : following;
    }
    case OP_VST: {
        int st = starves(c, e, index, &a[0], 1);
        if (st) return st == 1 ? STOP : BAIL;
        View r;
        if (row(c, e, in, a[1], e->vlen[a[0]], &r)) return BAIL;
        if (e->vdtype[a[0]] != r.dtype) return bail(c, "store type", 0);
        if (r.strides[0] == 0 && r.shape[0] > 1) return bail(c, "elements stored twice", 0);
        Mem *m = memory(c, r.unit);
        if (!m || check(c, m, &r)) return BAIL;
        i64 sent, arrival;
        if (move_row(c, e, L_STORE, e->vid[a[0]], m, &r, c->drain, &sent, &arrival)) return BAIL;
        if (arrival > e->outstanding) e->outstanding = arrival;
        return sent > c->now ? hold(c, e, index, sent, following) : following;
    }
    case OP_SEND: {
        int st = starves(c, e, index, &a[0], 1);
        if (st) return st == 1 ? STOP : BAIL;
        Fifo *f = fifo(c, e->unit, s[a[1]]);
        if (!f) return BAIL;
        i64 nbytes = e->vlen[a[0]] * c->bpe[e->vdtype[a[0]]];
        i64 beats = ceil_div(nbytes, f->beat);
        if (beats > f->depth) beats = f->depth;
        if (f->occupancy + beats > f->depth) {
            if (list_push(&f->waiting, index)) return bail(c, "out of memory", 0);
            return wait(c, e, index, B_BACKPRESSURED, -1);
        }
        Leg leg = {c->routes[f->route], 1, nbytes};
        i64 start, sent, arrival;
        transfer(c, &leg, 1, &start, &sent, &arrival);
        size_t cap = f->cap;
        if (f->count == f->cap) {
            Message *ring = malloc(sizeof(Message) * (cap ? cap * 2 : 8));
            if (!ring) return bail(c, "out of memory", 0);
            for (int i = 0; i < f->count; i++) ring[i] = f->ring[(f->head + i) % f->cap];
            free(f->ring); f->ring = ring; f->head = 0; f->cap = (int)(cap ? cap * 2 : 8);
        }
        f->ring[(f->head + f->count) % f->cap] =
            (Message){a[2], e->vdtype[a[0]], e->vlen[a[0]], e->vid[a[0]], beats, arrival};
        f->count++;
        f->occupancy += beats;
        if (f->waiting.count && wake(c, &f->waiting)) return BAIL;
        busy(e, start, sent);
        return sent > c->now ? hold(c, e, index, sent, following) : following;
    }
    case OP_RECV: {
        Fifo *f = fifo(c, s[a[1]], e->unit);
        if (!f) return BAIL;
        if (!f->count) {
            if (list_push(&f->waiting, index)) return bail(c, "out of memory", 0);
            return wait(c, e, index, B_STARVED, -1);
        }
        Message *head = &f->ring[f->head];
        if (head->id != a[2] || head->dtype != a[3] || head->length != a[4])
            return bail(c, "FIFO order", head->id);
        if (head->arrival > c->now) return wait(c, e, index, B_STARVED, head->arrival);
        Message m = *head;
        f->head = (f->head + 1) % f->cap;
        f->count--;
        f->occupancy -= m.beats;
        if (f->waiting.count && wake(c, &f->waiting)) return BAIL;
        set_vector(e, a[0], m.dtype, m.length, m.vid, c->now);
        return following;
    }
    case OP_SSEND: {
        /* posted: the engine goes on; the signal leaves once its earlier copies and
           stores have completed */
        i64 peer = s[a[0]];
        if (peer < 0 || peer >= c->nunits) return bail(c, "peer", peer);
        i64 k[3] = {e->unit, peer, a[1]};
        int found = signal(c, k);
        if (found < 0) return BAIL;
        if (e->outstanding > c->now) return at(c, e->outstanding, EV_SIGNAL, found) ? BAIL : following;
        return signal_arrives(c, found) ? BAIL : following;
    }
    case OP_SRECV: {
        i64 peer = s[a[0]];
        i64 k[3] = {peer, e->unit, a[1]};
        int found = map_find(&c->signal_map, k);
        if (found >= 0 && c->signals[found].pending) {
            c->signals[found].pending--;
            return following;
        }
        if (peer < 0 || peer >= c->nunits) return bail(c, "peer", peer);
        found = signal(c, k);
        if (found < 0) return BAIL;
        if (list_push(&c->signals[found].waiting, index)) return bail(c, "out of memory", 0);
        return wait(c, e, index, B_STARVED, -1);
    }
    case OP_VOP: {
        /* a: dtype, source type, dst, issue cycles, lanes */
        int st = starves(c, e, index, in->list, in->n);
        if (st) return st == 1 ? STOP : BAIL;
        i64 length = e->vlen[in->list[0]];
        for (int i = 0; i < in->n; i++)
            if (e->vdtype[in->list[i]] != a[1] || e->vlen[in->list[i]] != length)
                return bail(c, "operands", i);
        if (a[4] <= 0) return bail(c, "no lanes", a[0]);
        i64 sources[VREGS];
        for (int i = 0; i < in->n; i++) sources[i] = e->vid[in->list[i]];
        return computed(c, e, index, in, a[2], (int)a[0], length, ceil_div(length, a[4]) * a[3],
                        sources, in->n);
    }
    case OP_VREDUCE: {
        /* a: dtype, dst, src, lanes, plain, reduction step */
        int st = starves(c, e, index, &a[2], 1);
        if (st) return st == 1 ? STOP : BAIL;
        i64 size = e->vlen[a[2]];
        if (e->vdtype[a[2]] != a[0] || !size) return bail(c, "folds", size);
        if (a[3] <= 0) return bail(c, "no lanes", a[0]);
        i64 least = size < a[3] ? size : a[3], steps = 0;
        for (u64 x = (u64)(least - 1); x; x >>= 1) steps++;
        if (steps < 1) steps = 1;
        i64 cycles = (ceil_div(size, a[3]) - 1) * a[4] + steps * a[5];
        i64 source = e->vid[a[2]];
        return computed(c, e, index, in, a[1], (int)a[0], 1, cycles, &source, 1);
    }
    case OP_VCVT: {
        /* a: dtype, source type, dst, src, source lanes, result lanes, plain */
        int st = starves(c, e, index, &a[3], 1);
        if (st) return st == 1 ? STOP : BAIL;
        if (e->vdtype[a[3]] != a[1]) return bail(c, "converts", 0);
        if (a[4] <= 0 || a[5] <= 0) return bail(c, "no lanes", 0);
        i64 size = e->vlen[a[3]], b1 = ceil_div(size, a[4]), b2 = ceil_div(size, a[5]);
        i64 source = e->vid[a[3]];
        return computed(c, e, index, in, a[2], (int)a[0], size, (b1 > b2 ? b1 : b2) * a[6], &source, 1);
    }
    case OP_VBCAST: {
        /* a: dst, src, length, allowed */
        int st = starves(c, e, index, &a[1], 1);
        if (st) return st == 1 ? STOP : BAIL;
        if (!a[3] || e->vlen[a[1]] != 1) return bail(c, "broadcast", 0);
        i64 vid = new_vid(c);
        i64 words[8] = {L_OP, vid, index, e->pc, e->vdtype[a[1]], a[2], 1, e->vid[a[1]]};
        if (log_put(c, words, 8)) return BAIL;
        set_vector(e, a[0], e->vdtype[a[1]], a[2], vid, c->now);
        return following;
    }
    case OP_VCONST: {
        i64 vid = new_vid(c);
        i64 words[7] = {L_OP, vid, index, e->pc, a[1], a[2], 0};
        if (log_put(c, words, 7)) return BAIL;
        set_vector(e, a[0], (int)a[1], a[2], vid, c->now);
        return following;
    }
    case OP_VSPLAT: {
        i64 vid = new_vid(c);
        i64 words[8] = {L_OP, vid, index, e->pc, a[2], a[3], -1, s[a[1]]};
        if (log_put(c, words, 8)) return BAIL;
        set_vector(e, a[0], (int)a[2], a[3], vid, c->now);
        return following;
    }
    case OP_VMMA: {
        /* a: dst, acc, a, b, issue cycles, fill, drain, dtype; list: source type, the
           lengths of a, b and acc, and the product's multiply-accumulates (ktc.sim.matrix: the checks that fail are the Python
           engines' to report) */
        int st = starves(c, e, index, &a[2], 2);
        if (st) return st == 1 ? STOP : BAIL;
        const i64 *l = in->list;
        if (!e->vset[a[1]] || e->vdtype[a[2]] != l[0] || e->vlen[a[2]] != l[1] || e->vdtype[a[3]] != l[0]
            || e->vlen[a[3]] != l[2] || e->vdtype[a[1]] != a[7] || e->vlen[a[1]] != l[3])
            return bail(c, "matrix operands", 0);
        /* an accumulator from outside the unit must be there when the first products are */
        if (e->unit_vid[a[1]] != e->vid[a[1]] + 1 && e->ready[a[1]] > c->now + a[5])
            return wait(c, e, index, B_STARVED, e->ready[a[1]] - a[5]);
        i64 vid = new_vid(c), *w = log_room(c, 10);
        if (!w) return BAIL;
        w[0] = L_OP; w[1] = vid; w[2] = index; w[3] = e->pc; w[4] = a[7]; w[5] = l[3]; w[6] = 3;
        w[7] = e->vid[a[1]]; w[8] = e->vid[a[2]]; w[9] = e->vid[a[3]];
        set_vector(e, a[0], (int)a[7], l[3], vid, c->now + a[4] + a[5] + a[6]);
        e->unit_vid[a[0]] = vid + 1;
        e->matrix_cycles += a[4];
        e->matrix_macs += l[4];
        busy(e, c->now, c->now + a[4]);
        return hold(c, e, index, c->now + a[4], following);
    }
    case OP_VMOV:
        if (!e->vset[a[1]]) return bail(c, "no vector", a[1]);
        set_vector(e, a[0], e->vdtype[a[1]], e->vlen[a[1]], e->vid[a[1]], e->ready[a[1]]);
        return following;
    }
    return bail(c, "unsupported instruction", in->op);
}

/* Instructions that never take time or wait (ktc.sim.steps.QUICK): the scalar and
   control ones add their cycles to the engine's pending ones, which it spends before
   any other instruction and before it ends. */
static int quick(int op) {
    return (op >= OP_LI && op <= OP_HALT) || op == OP_VIEW || op == OP_DIM || op == OP_VCONST
        || op == OP_VSPLAT || op == OP_VMOV;
}

/* Busy for the pending cycles, then on at the same pc. */
static int charge(Core *c, Engine *e, int index) {
    i64 until = c->now + e->pending;
    e->pending = 0;
    busy(e, c->now, until);
    return push(c, until, EV_RESUME, index) ? BAIL : 0;
}

/* The next pc after a scalar or control instruction that cannot fail, done in place
   (most instructions are these); NOT_SCALAR for any other, which ``step`` does. */
#define NOT_SCALAR (-3)
static inline i64 scalar_step(i64 *s, const Ins *in, i64 following) {
    const i64 *a = in->a;
    switch (in->op) {
    case OP_LI: s[a[0]] = a[1]; return following;
    case OP_MOV: s[a[0]] = s[a[1]]; return following;
    case OP_ALU:
        if (dividing((int)a[0])) return NOT_SCALAR;
        s[a[1]] = alu((int)a[0], s[a[2]], s[a[3]]);
        return following;
    case OP_SELECT: s[a[0]] = s[a[1]] ? s[a[2]] : s[a[3]]; return following;
    case OP_LOOP:
        if (s[a[3]] <= 0) return NOT_SCALAR;
        s[a[0]] = s[a[1]];
        return s[a[0]] < s[a[2]] ? following : a[4];
    case OP_ENDLOOP:
        s[a[0]] = (i64)((u64)s[a[0]] + (u64)s[a[2]]);
        return s[a[0]] < s[a[1]] ? a[3] : following;
    case OP_BRZ: return s[a[0]] == 0 ? a[1] : following;
    case OP_JMP: return a[0];
    }
    return NOT_SCALAR;
}

static int resume(Core *c, int index) {
    Engine *e = &c->engines[index];
    if (e->block != B_NONE) {
        if (e->block == B_STARVED) e->starved += c->now - e->blocked_since;
        else if (e->block == B_BACKPRESSURED) e->backpressured += c->now - e->blocked_since;
        e->block = B_NONE;
    }
    Program *p = &c->programs[e->program];
    for (i64 n = 0; n <= STEPS_WITHOUT_TIME; n++) {
        if (e->pc >= p->count) {
            if (e->pending) return charge(c, e, index);
            e->done = 1;
            return 0;
        }
        const Ins *in = &p->ins[e->pc];
        i64 next = scalar_step(e->s, in, e->pc + 1);
        if (next == NOT_SCALAR) {
            if (e->pending && !quick(in->op)) return charge(c, e, index);
            next = step(c, e, index, in);
            if (next == STOP) return 0;
            if (next == BAIL) return BAIL;
        }
        e->pending += in->cost;
        e->pc = next;
    }
    return bail(c, "steps without time", e->pc);
}

static int dma_done(Core *c, int index) {
    i64 head[1] = {L_DMA};
    if (log_put(c, head, 1) || log_view(c, &c->dmas[2 * index]) || log_view(c, &c->dmas[2 * index + 1]))
        return BAIL;
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The plan of the values: the log in levels, each level in batches                 */
/*
   Every log entry gets a level, one more than the levels it depends on: a vector's
   operands; for a read of memory, the last write of its bytes; for a write, the last
   write and every read of its bytes since. Bytes are tracked in blocks of BLOCK
   (a conservative view: two accesses of one block are ordered even where their bytes
   do not meet). Entries of one level are independent, so they can be evaluated in any
   order; those of one kind and shape form a batch, evaluated with one numpy call. The
   memories' touched pages are laid out in one byte arena (the pages of a memory that
   follow each other side by side), and addresses are given in it.

   The plan (int64 words), batches in level order:
     LOAD  count type length stride table | arena addresses | rows
     STORE count type length stride table | arena addresses | rows
     OP    count engine pc table n [operand tables] | rows | operand rows (n of them;
           n = -1: one column of scalar values)
     DMA   1 | view | view, a view being arena address type rank shape... strides...
*/

#define BLOCK_SHIFT 6
#define CHUNK_SHIFT 12
#define CHUNK (1 << CHUNK_SHIFT)

typedef struct { int32_t w[CHUNK], r[CHUNK]; } Chunk;
typedef struct { i64 type, level, count, words, first, out; } Batch;
typedef struct { i64 k[3]; int batch; } Recent;
typedef struct {
    Chunk ***dir; i64 *dirsize; i64 nunits; /* per unit, its chunks by block >> CHUNK_SHIFT */
    Map page_map; i64 *pages; size_t npages, cappages; /* (unit, page) pairs */
    i64 *page_offset;
    i64 *last_page, *last_found; /* per unit, the last page met (-1: none) and its index in ``pages`` */
} Tracks;

/* The chunk of ``block`` of ``unit``, made on first use; NULL when out of memory. */
static Chunk *chunk_of(Tracks *t, i64 unit, i64 block) {
    i64 i = block >> CHUNK_SHIFT;
    if (i >= t->dirsize[unit]) {
        i64 size = t->dirsize[unit] ? t->dirsize[unit] : 1;
        while (size <= i) size *= 2;
        Chunk **d = realloc(t->dir[unit], sizeof(Chunk *) * (size_t)size);
        if (!d) return NULL;
        memset(d + t->dirsize[unit], 0, sizeof(Chunk *) * (size_t)(size - t->dirsize[unit]));
        t->dir[unit] = d; t->dirsize[unit] = size;
    }
    if (!t->dir[unit][i]) t->dir[unit][i] = calloc(1, sizeof(Chunk));
    return t->dir[unit][i];
}

/* The level a read (write = 0) or write of [lo, hi) of ``unit`` depends on. */
static int depends(Tracks *t, i64 unit, i64 lo, i64 hi, int write, i64 *level) {
    for (i64 b = lo >> BLOCK_SHIFT; lo < hi && b <= (hi - 1) >> BLOCK_SHIFT; b++) {
        Chunk *ch = chunk_of(t, unit, b);
        if (!ch) return -1;
        i64 i = b & (CHUNK - 1);
        if (ch->w[i] > *level) *level = ch->w[i];
        if (write && ch->r[i] > *level) *level = ch->r[i];
    }
    return 0;
}

static int touched(Core *c, Tracks *t, i64 unit, i64 lo, i64 hi, int write, i64 level) {
    i64 pb = c->mems[unit].page;
    for (i64 b = lo >> BLOCK_SHIFT; lo < hi && b <= (hi - 1) >> BLOCK_SHIFT; b++) {
        Chunk *ch = chunk_of(t, unit, b);
        if (!ch) return -1;
        i64 i = b & (CHUNK - 1);
        if (write) ch->w[i] = (int32_t)level;
        else if (ch->r[i] < level) ch->r[i] = (int32_t)level;
    }
    for (i64 p = lo / pb; lo < hi && p <= (hi - 1) / pb; p++) {
        i64 k[3] = {unit, p, 0};
        if (t->last_page[unit] == p) continue;
        t->last_page[unit] = p;
        if (map_find(&t->page_map, k) >= 0) continue;
        grow((void **)&t->pages, &t->cappages, 2 * t->npages + 2, sizeof(i64));
        t->pages[2 * t->npages] = unit; t->pages[2 * t->npages + 1] = p;
        map_put(&t->page_map, k, (int)t->npages++);
    }
    return 0;
}

/* For the pass back over the log: every block's ``w`` becomes the level of the next
   write of it (none yet: INT32_MAX). */
static void forget_writes(Tracks *t) {
    for (i64 u = 0; u < t->nunits; u++)
        for (i64 i = 0; i < t->dirsize[u]; i++)
            for (int b = 0; t->dir[u][i] && b < CHUNK; b++) t->dir[u][i]->w[b] = INT32_MAX;
}

/* The least level of the next writes of [lo, hi) (INT32_MAX: none), or, with ``level``
   >= 0, that level made the next write of those blocks. */
static i64 next_write(Tracks *t, i64 unit, i64 lo, i64 hi, i64 level) {
    i64 least = INT32_MAX;
    for (i64 b = lo >> BLOCK_SHIFT; lo < hi && b <= (hi - 1) >> BLOCK_SHIFT; b++) {
        Chunk *ch = chunk_of(t, unit, b);
        if (!ch) return INT32_MAX;
        i64 i = b & (CHUNK - 1);
        if (level >= 0) ch->w[i] = (int32_t)level;
        else if (ch->w[i] < least) least = ch->w[i];
    }
    return least;
}

static i64 arena(Core *c, Tracks *t, i64 unit, i64 address) {
    i64 pb = c->mems[unit].page, k[3] = {unit, address / pb, 0};
    int found = t->last_page[unit] == k[1] ? (int)t->last_found[unit] : map_find(&t->page_map, k);
    t->last_page[unit] = k[1]; t->last_found[unit] = found;
    return found < 0 ? 0 : t->page_offset[found] + address % pb;
}

static int view_words(const i64 *v) { return 4 + 2 * (int)v[3]; }

static void view_span(Core *c, const i64 *v, i64 *lo, i64 *hi) {
    View view = {v[0], v[1], (int)v[2], (int)v[3]};
    memcpy(view.shape, v + 4, sizeof(i64) * view.ndim);
    memcpy(view.strides, v + 4 + view.ndim, sizeof(i64) * view.ndim);
    span(c, &view, lo, hi);
}

static int cmp_pages(const void *a, const void *b) {
    const i64 *x = a, *y = b;
    if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

static Batch *sort_base;
static int cmp_batches(const void *a, const void *b) {
    const Batch *x = &sort_base[*(const int *)a], *y = &sort_base[*(const int *)b];
    if (x->level != y->level) return x->level < y->level ? -1 : 1;
    return *(const int *)a - *(const int *)b;
}

/* The rows of a table: a bit per row below ``top`` (the table's row count), set while
   the row is free. A batch takes the first free run long enough for all its vectors,
   or one reaching ``top``, grown, or rows above ``top``. */
typedef struct { u64 *bits; size_t words; i64 top, low; } Rows; /* low: no free row in the words below */

static void rows_free(Rows *r, i64 row) {
    r->bits[row >> 6] |= 1ULL << (row & 63);
    if (row >> 6 < r->low) r->low = row >> 6;
}

/* Marks [first, end) taken. */
static void rows_clear(Rows *r, i64 first, i64 end) {
    for (i64 row = first; row < end;) {
        i64 w = row >> 6, lo = row & 63, hi = end - (w << 6) < 64 ? end - (w << 6) : 64;
        u64 mask = (hi == 64 ? ~0ULL : (1ULL << hi) - 1) & ~((1ULL << lo) - 1);
        r->bits[w] &= ~mask;
        row = (w + 1) << 6;
    }
}

/* The first of ``count`` consecutive rows, now taken; -1 when out of memory. */
static i64 rows_take(Rows *r, i64 count) {
    i64 first = 0, length = 0, words = (r->top + 63) >> 6;
    while (r->low < words && !r->bits[r->low]) r->low++;
    for (i64 w = r->low; w < words && length < count; w++) {
        u64 x = r->bits[w];
        for (int bit = 0; bit < 64 && length < count;) {
            u64 y = x >> bit;
            if (!y) { length = 0; break; }
            int taken = __builtin_ctzll(y);
            if (taken) { length = 0; bit += taken; y >>= taken; }
            int free_ = __builtin_ctzll(~y);
            if (!length) first = (w << 6) + bit;
            length += free_ < 64 - bit ? free_ : 64 - bit;
            bit += free_;
        }
    }
    if (length < count && !(length && first + length == r->top)) first = r->top;
    i64 end = first + count;
    if (end > r->top) {
        size_t had = r->words;
        if (grow((void **)&r->bits, &r->words, (size_t)((end + 63) >> 6), sizeof(u64))) return -1;
        memset(r->bits + had, 0, (r->words - had) * sizeof(u64));
        r->top = end;
    }
    rows_clear(r, first, end);
    return first;
}

/* The batch of key ``k`` among ``*n`` (made as ``made`` when there is none yet),
   remembered in ``recent`` when given, which is tried first; -1 when out of memory. */
static int batch_of(Batch **batches, size_t *n, size_t *cap, Map *map, Recent *recent, const i64 k[3],
                    Batch made) {
    int batch = recent && recent->batch >= 0 && recent->k[0] == k[0] && recent->k[1] == k[1] && recent->k[2] == k[2]
                    ? recent->batch : map_find(map, k);
    if (batch < 0) {
        if (grow((void **)batches, cap, *n + 1, sizeof(Batch))) return -1;
        (*batches)[*n] = made;
        batch = (int)(*n)++;
        map_put(map, k, batch);
    }
    if (recent) *recent = (Recent){{k[0], k[1], k[2]}, batch};
    return batch;
}

/* plan() -> (plan bytes, tables ((type, length, rows), ...), segments ((unit, first
   page, pages, arena offset, page bytes), ...), arena bytes) */
static PyObject *core_plan(Core *c, PyObject *noargs) {
    if (!c->finished || c->bailed[0]) { PyErr_SetString(PyExc_RuntimeError, "no finished run"); return NULL; }
    Tracks t = {0};
    t.nunits = c->nunits;
    t.dir = calloc((size_t)c->nunits + 1, sizeof(Chunk **));
    t.dirsize = calloc((size_t)c->nunits + 1, sizeof(i64));
    t.last_page = malloc(sizeof(i64) * ((size_t)c->nunits + 1));
    t.last_found = malloc(sizeof(i64) * ((size_t)c->nunits + 1));
    for (i64 u = 0; t.last_page && u <= c->nunits; u++) t.last_page[u] = -1;
    size_t nv = (size_t)c->next_vid;
    int32_t *vlevel = calloc(nv + 1, sizeof(int32_t)), *vtable = calloc(nv + 1, sizeof(int32_t));
    int32_t *vlast = calloc(nv + 1, sizeof(int32_t)), *vfirst = calloc(nv + 1, sizeof(int32_t));
    i64 top = 0, deferred = 0;
    i64 *vrow = calloc(nv + 1, sizeof(i64));
    Map batch_map = {0};
    /* per instruction of every program (``bases``: where a program's start), the batch
       of its last entry and that batch's key */
    i64 *bases = calloc((size_t)c->nprograms + 1, sizeof(i64));
    for (int p = 0; p < c->nprograms; p++) bases[p + 1] = bases[p] + c->programs[p].count;
    Recent *recents = malloc(sizeof(Recent) * ((size_t)bases[c->nprograms] + 1));
    for (i64 i = 0; i <= bases[c->nprograms]; i++) recents[i].batch = -1;
    Recent moves[2] = {{{0}, -1}, {{0}, -1}}; /* of the last load and the last store */
    i64 *tables = NULL; size_t ntables = 0, captables = 0;
    i64 last_dtype = -1, last_length = -1; int last_table = 0; /* the table of the last vector */
    Batch *batches = NULL; size_t nbatches = 0, capbatches = 0;
    /* per entry: log position, batch, index in the batch */
    i64 *entries = NULL; size_t nentries = 0, capentries = 0;
    PyObject *result = NULL;
    if (!bases || !recents || !t.dir || !t.dirsize || !t.last_page || !t.last_found) goto done;
    for (size_t at = 0; at < c->nlog;) {
        i64 *w = c->log + at, type = w[0], level = 0, vid = -1, dtype = 0, length = 0, words = 0;
        i64 k[3];
        if (type == L_LOAD || type == L_STORE) {
            i64 lo, hi;
            row_span(c, w[3], w[4], w[5], w[6], &lo, &hi);
            if (type == L_LOAD) vid = w[1];
            else level = vlevel[w[1]];
            if (depends(&t, w[2], lo, hi, type == L_STORE, &level)) goto done;
            level++;
            if (type == L_STORE && vlast[w[1]] < level) vlast[w[1]] = (int32_t)level;
            if (type == L_STORE && (!vfirst[w[1]] || level < vfirst[w[1]])) vfirst[w[1]] = (int32_t)level;
            if (touched(c, &t, w[2], lo, hi, type == L_STORE, level)) goto done;
            dtype = w[4]; length = w[5];
            k[0] = type | level << 8; k[1] = dtype | length << 8; k[2] = w[6];
            words = 2;
            at += 7;
        } else if (type == L_OP) {
            i64 n = w[6], packed = n >= 0 && n <= 4 ? n : -2;
            for (i64 i = 0; i < n; i++) {
                if (vlevel[w[7 + i]] > level) level = vlevel[w[7 + i]];
                if (vtable[w[7 + i]] >= (1 << 15)) packed = -2;
                else if (packed >= 0) packed |= (i64)vtable[w[7 + i]] << (4 + 15 * i);
            }
            level++;
            for (i64 i = 0; i < n; i++) {
                if (vlast[w[7 + i]] < level) vlast[w[7 + i]] = (int32_t)level;
                if (!vfirst[w[7 + i]] || level < vfirst[w[7 + i]]) vfirst[w[7 + i]] = (int32_t)level;
            }
            vid = w[1]; dtype = w[4]; length = w[5];
            i64 program = c->engines[w[2]].program;
            k[0] = type | level << 8; k[1] = program << 32 | w[3];
            k[2] = n < 0 ? -1 : packed == -2 ? -(i64)at - 2 : packed;
            words = 1 + (n < 0 ? 1 : n);
            at += 7 + (n < 0 ? 1 : n);
        } else {
            i64 *src = w + 1, *dst = src + view_words(src), lo, hi, lo2, hi2;
            view_span(c, src, &lo, &hi);
            view_span(c, dst, &lo2, &hi2);
            if (depends(&t, src[0], lo, hi, 0, &level) || depends(&t, dst[0], lo2, hi2, 1, &level)) goto done;
            level++;
            if (touched(c, &t, src[0], lo, hi, 0, level) || touched(c, &t, dst[0], lo2, hi2, 1, level)) goto done;
            k[0] = type | level << 8; k[1] = (i64)at; k[2] = 0;
            words = view_words(src) + view_words(dst);
            at += 1 + view_words(src) + view_words(dst);
        }
        if (vid >= 0) {
            int table = dtype == last_dtype && length == last_length ? last_table : 0;
            while (table < (int)ntables && (tables[3 * table] != dtype || tables[3 * table + 1] != length)) table++;
            if (table == (int)ntables) {
                grow((void **)&tables, &captables, 3 * ntables + 3, sizeof(i64));
                tables[3 * ntables] = dtype; tables[3 * ntables + 1] = length; tables[3 * ntables + 2] = 0;
                ntables++;
            }
            vlevel[vid] = vlast[vid] = (int32_t)level; vtable[vid] = table;
            last_dtype = dtype; last_length = length; last_table = table;
        }
        if (level > top) top = level;
        if (grow((void **)&entries, &capentries, 3 * nentries + 3, sizeof(i64))) goto done;
        entries[3 * nentries] = (i64)(w - c->log);
        if (type == L_LOAD || (type == L_OP && w[6] <= 0)) { /* batched below, at its latest level */
            entries[3 * nentries + 1] = -1; entries[3 * nentries + 2] = level;
            nentries++; deferred++;
            continue;
        }
        /* an op's batch: most often the one its instruction's last entry went to; a
           load's or store's, the last load's or store's */
        Recent *recent = type == L_OP ? &recents[bases[c->engines[w[2]].program] + w[3]]
                       : type == L_DMA ? NULL : &moves[type == L_STORE];
        int batch = batch_of(&batches, &nbatches, &capbatches, &batch_map, recent, k,
                             (Batch){type, level, 0, words, (i64)(w - c->log), 0});
        if (batch < 0) goto done;
        entries[3 * nentries + 1] = batch; entries[3 * nentries + 2] = batches[batch].count++;
        nentries++;
    }
    /* A load's level is the latest it can take: one below its first reader's and below
       the next write of its bytes (found going back over the log), and so is that of a
       vector made from no other (a constant, a splat), so its row is taken just before
       it is read, not at the first level: the values' tables then hold what is live
       rather than every row loaded or made early. One nothing reads stays where it is. */
    if (deferred) forget_writes(&t);
    for (size_t e = nentries; deferred && e-- > 0;) {
        i64 *w = c->log + entries[3 * e], lo, hi;
        if (w[0] == L_STORE) {
            row_span(c, w[3], w[4], w[5], w[6], &lo, &hi);
            next_write(&t, w[2], lo, hi, batches[entries[3 * e + 1]].level);
        } else if (w[0] == L_DMA) {
            i64 *dst = w + 1 + view_words(w + 1);
            view_span(c, dst, &lo, &hi);
            next_write(&t, dst[0], lo, hi, batches[entries[3 * e + 1]].level);
        } else if (w[0] == L_LOAD || (w[0] == L_OP && w[6] <= 0)) {
            i64 latest = INT32_MAX;
            if (w[0] == L_LOAD) {
                row_span(c, w[3], w[4], w[5], w[6], &lo, &hi);
                latest = next_write(&t, w[2], lo, hi, -1) - 1;
            }
            if (!vfirst[w[1]]) continue; /* nothing reads it: it stays where it is */
            if (vfirst[w[1]] - 1 < latest) latest = vfirst[w[1]] - 1;
            if (latest > entries[3 * e + 2]) entries[3 * e + 2] = latest;
        }
    }
    for (size_t e = 0; deferred && e < nentries; e++) {
        i64 *w = c->log + entries[3 * e], level = entries[3 * e + 2];
        if (entries[3 * e + 1] >= 0) continue;
        int load = w[0] == L_LOAD;
        i64 k[3] = {w[0] | level << 8, load ? w[4] | w[5] << 8 : (i64)c->engines[w[2]].program << 32 | w[3],
                    load ? w[6] : w[6] < 0 ? -1 : 0};
        Recent *recent = load ? &moves[0] : &recents[bases[c->engines[w[2]].program] + w[3]];
        int batch = batch_of(&batches, &nbatches, &capbatches, &batch_map, recent, k,
                             (Batch){w[0], level, 0, load ? 2 : w[6] < 0 ? 2 : 1, entries[3 * e], 0});
        if (batch < 0) goto done;
        entries[3 * e + 1] = batch; entries[3 * e + 2] = batches[batch].count++;
    }
    /* the arena: touched pages in (unit, page) order, a memory's consecutive pages side by side */
    qsort(t.pages, t.npages, 2 * sizeof(i64), cmp_pages);
    t.page_offset = calloc(t.npages + 1, sizeof(i64));
    Map placed = {0};
    PyObject *segments = PyList_New(0);
    i64 size = 0;
    for (size_t i = 0; i < t.npages;) {
        i64 unit = t.pages[2 * i], first = t.pages[2 * i + 1], pb = c->mems[unit].page;
        size_t j = i;
        size = (size + 63) & ~(i64)63;
        while (j < t.npages && t.pages[2 * j] == unit && t.pages[2 * j + 1] == first + (i64)(j - i)) {
            i64 k[3] = {unit, t.pages[2 * j + 1], 0};
            t.page_offset[j] = size + (i64)(j - i) * pb;
            map_put(&placed, k, (int)j);
            j++;
        }
        PyObject *seg = Py_BuildValue("(LLLLL)", (long long)unit, (long long)first, (long long)(j - i),
                                      (long long)size, (long long)pb);
        PyList_Append(segments, seg);
        Py_DECREF(seg);
        size += (i64)(j - i) * pb;
        i = j;
    }
    free(t.page_map.slots);
    t.page_map = placed;
    for (i64 u = 0; u <= c->nunits; u++) t.last_page[u] = -1;
    size = (size + 63) & ~(i64)63;
    /* batches in level order, then every entry's columns in its batch */
    int *order = malloc(sizeof(int) * (nbatches + 1));
    for (size_t b = 0; b < nbatches; b++) order[b] = (int)b;
    sort_base = batches;
    qsort(order, nbatches, sizeof(int), cmp_batches);
    size_t total = 0;
    for (size_t o = 0; o < nbatches; o++) {
        Batch *b = &batches[order[o]];
        i64 *first = c->log + b->first, head = 6;
        if (b->type == L_OP) head += first[6] > 0 ? first[6] : 0;
        if (b->type == L_DMA) head = 2;
        b->out = (i64)total;
        total += (size_t)(head + b->count * b->words);
    }
    /* rows: a value's row is free again after the last level that reads it */
    {
        i64 *bucket = calloc((size_t)top + 2, sizeof(i64)), *byl = malloc(sizeof(i64) * (nv + 1));
        i64 *slot = malloc(sizeof(i64) * (nentries + 1)), *start = calloc(nbatches + 1, sizeof(i64));
        Rows *free_rows = calloc(ntables + 1, sizeof(Rows));
        int failed = !free_rows;
        for (size_t v = 0; !failed && v < nv; v++) bucket[vlast[v] + 1]++;
        for (i64 l = 0; !failed && l <= top; l++) bucket[l + 1] += bucket[l];
        for (size_t v = 0; !failed && v < nv; v++) byl[bucket[vlast[v]]++] = (i64)v;
        /* bucket[l] is now the end of level l's values, byl ordered by last use */
        for (size_t o = 0, run = 0; !failed && o < nbatches; o++) { start[order[o]] = (i64)run; run += batches[order[o]].count; }
        /* slot: in batch order, the vector each entry makes (-1: none) */
        for (size_t e = 0; !failed && e < nentries; e++) {
            i64 *w = c->log + entries[3 * e];
            slot[start[entries[3 * e + 1]] + entries[3 * e + 2]] = w[0] == L_LOAD || w[0] == L_OP ? w[1] : -1;
        }
        /* a batch's vectors (of one table: one type and length) in consecutive rows */
        i64 freed = 0, level = 0;
        for (size_t o = 0, run = 0; !failed && o < nbatches; o++) {
            Batch *b = &batches[order[o]];
            for (; !failed && level < b->level; level++)
                for (; !failed && freed < bucket[level]; freed++)
                    rows_free(&free_rows[vtable[byl[freed]]], vrow[byl[freed]]);
            i64 made = 0, tb = -1;
            for (i64 i = 0; i < b->count; i++)
                if (slot[run + i] >= 0) { made++; if (tb < 0) tb = vtable[slot[run + i]]; }
            i64 first = made ? rows_take(&free_rows[tb], made) : 0;
            failed = failed || first < 0;
            for (i64 i = 0; !failed && i < b->count; i++, run++)
                if (slot[run] >= 0) vrow[slot[run]] = first++;
        }
        for (size_t i = 0; !failed && i < ntables; i++) tables[3 * i + 2] = free_rows[i].top;
        for (size_t i = 0; free_rows && i < ntables; i++) free(free_rows[i].bits);
        free(bucket); free(byl); free(slot); free(start); free(free_rows);
        if (failed) { free(order); Py_DECREF(segments); goto done; }
    }
    /* every word of the plan is written below */
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(total * sizeof(i64)));
    if (!bytes) { free(order); Py_DECREF(segments); goto done; }
    i64 *plan = (i64 *)PyBytes_AS_STRING(bytes);
    for (size_t o = 0; o < nbatches; o++) {
        Batch *b = &batches[order[o]];
        i64 *w = c->log + b->first, *out = plan + b->out;
        out[0] = b->type; out[1] = b->count;
        if (b->type == L_LOAD || b->type == L_STORE) {
            out[2] = w[4]; out[3] = w[5]; out[4] = w[6]; out[5] = vtable[w[1]];
            if (b->type == L_STORE) out[5] = vtable[w[1]];
        } else if (b->type == L_OP) {
            out[2] = w[2]; out[3] = w[3]; out[4] = vtable[w[1]]; out[5] = w[6];
            for (i64 i = 0; i < w[6]; i++) out[6 + i] = vtable[w[7 + i]];
        }
    }
    for (size_t e = 0; e < nentries; e++) {
        i64 *w = c->log + entries[3 * e], index = entries[3 * e + 2];
        Batch *b = &batches[entries[3 * e + 1]];
        i64 *out = plan + b->out, n = b->count;
        if (b->type == L_LOAD || b->type == L_STORE) {
            out[6 + index] = arena(c, &t, w[2], w[3]);
            out[6 + n + index] = vrow[w[1]];
        } else if (b->type == L_OP) {
            i64 m = w[6], head = 6 + (m > 0 ? m : 0);
            out[head + index] = vrow[w[1]];
            if (m < 0) out[head + n + index] = w[7];
            for (i64 i = 0; i < m; i++) out[head + (1 + i) * n + index] = vrow[w[7 + i]];
        } else {
            i64 *src = w + 1, *dst = src + view_words(src), *o = out + 2;
            memcpy(o, src, sizeof(i64) * view_words(src));
            o[0] = arena(c, &t, src[0], src[1]);
            o += view_words(src);
            memcpy(o, dst, sizeof(i64) * view_words(dst));
            o[0] = arena(c, &t, dst[0], dst[1]);
        }
    }
    PyObject *tabs = PyTuple_New((Py_ssize_t)ntables);
    for (size_t i = 0; i < ntables; i++)
        PyTuple_SET_ITEM(tabs, i, Py_BuildValue("(LLL)", (long long)tables[3 * i], (long long)tables[3 * i + 1],
                                                (long long)tables[3 * i + 2]));
    result = Py_BuildValue("(NNNL)", bytes, tabs, segments, (long long)size);
    free(order);
done:
    free(vlevel); free(vtable); free(vlast); free(vfirst); free(vrow); free(batch_map.slots); free(bases); free(recents);
    free(tables); free(batches); free(entries);
    for (i64 u = 0; t.dir && u < t.nunits; u++) {
        for (i64 i = 0; i < t.dirsize[u]; i++) free(t.dir[u][i]);
        free(t.dir[u]);
    }
    free(t.dir); free(t.dirsize); free(t.last_page); free(t.last_found); free(t.page_map.slots); free(t.pages); free(t.page_offset);
    if (!result && !PyErr_Occurred()) PyErr_NoMemory();
    return result;
}

/* ------------------------------------------------------------------------------ */
/* The Python type                                                                  */

static i64 *int_tuple(PyObject *t, int *n) {
    if (!PyTuple_Check(t)) return NULL;
    *n = (int)PyTuple_GET_SIZE(t);
    i64 *out = calloc(*n ? *n : 1, sizeof(i64));
    for (int i = 0; i < *n; i++) out[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(t, i));
    return out;
}

static void core_dealloc(Core *c) {
    for (int p = 0; p < c->nprograms; p++) {
        for (int i = 0; i < c->programs[p].count; i++) {
            free(c->programs[p].ins[i].list); free(c->programs[p].ins[i].list2);
        }
        free(c->programs[p].ins); free(c->programs[p].uniforms);
    }
    if (c->engines) for (int i = 0; i < c->nengines; i++) free(c->engines[i].copies);
    free(c->programs); free(c->engines); free(c->bpe); free(c->heap); free(c->free_at);
    if (c->ring) for (int i = 0; i < RING; i++) free(c->ring[i].items);
    free(c->ring);
    for (int i = 0; i < c->nroutes; i++) { free(c->routes[i]->hops); free(c->routes[i]); }
    free(c->routes);
    for (int i = 0; i < c->nfifos; i++) {
        free(c->fifos[i]->ring); free(c->fifos[i]->waiting.items); free(c->fifos[i]);
    }
    free(c->fifos);
    for (i64 u = 0; c->route_at && u < c->nunits; u++) free(c->route_at[u]);
    for (i64 u = 0; c->fifo_at && u < c->nunits; u++) free(c->fifo_at[u]);
    free(c->route_at); free(c->fifo_at);
    for (int i = 0; i < c->nsignals; i++) free(c->signals[i].waiting.items);
    free(c->signals); free(c->signal_map.slots);
    if (c->mems) for (i64 u = 0; u < c->nunits; u++) free(c->mems[u].alloc);
    free(c->mems); free(c->mem_known);
    free(c->memory_bytes); free(c->port_bytes); free(c->port_read_bytes); free(c->port_latency); free(c->kind_order);
    free(c->feed); free(c->drain); free(c->dmas); free(c->log);
    Py_XDECREF(c->route_cb); Py_XDECREF(c->fifo_cb); Py_XDECREF(c->memory_cb);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* Core(programs, engines, bytes_per_type, units, route, fifo, memory)

   programs: per program (instructions, uniforms), an instruction (op, fields, list,
   list2) as ints and tuples of ints, uniforms a tuple of rows; engines: per instance
   (program, unit, position), in the order their first events are scheduled;
   route(a, b), fifo(a, b), memory(unit): the datapath between two units, the FIFO
   (depth, beat bytes, route) and the memory (size, kind, core or -1, allocations), or
   an exception. */
static int core_init(Core *c, PyObject *args, PyObject *kw) {
    PyObject *programs, *engines, *bpe;
    long long units;
    if (!PyArg_ParseTuple(args, "OOOLOOO", &programs, &engines, &bpe, &units, &c->route_cb,
                          &c->fifo_cb, &c->memory_cb))
        return -1;
    Py_INCREF(c->route_cb); Py_INCREF(c->fifo_cb); Py_INCREF(c->memory_cb);
    c->bpe = int_tuple(bpe, &c->ntypes);
    c->nunits = units;
    c->mems = calloc(units ? units : 1, sizeof(Mem));
    c->mem_known = calloc(units ? units : 1, 1);
    c->route_at = calloc(units ? units : 1, sizeof(int *));
    c->fifo_at = calloc(units ? units : 1, sizeof(int *));
    c->nprograms = (int)PyTuple_GET_SIZE(programs);
    c->programs = calloc(c->nprograms ? c->nprograms : 1, sizeof(Program));
    for (int p = 0; p < c->nprograms; p++) {
        PyObject *prog = PyTuple_GET_ITEM(programs, p);
        PyObject *ins = PyTuple_GET_ITEM(prog, 0), *uni = PyTuple_GET_ITEM(prog, 1);
        Program *P = &c->programs[p];
        P->count = (int)PyTuple_GET_SIZE(ins);
        P->ins = calloc(P->count ? P->count : 1, sizeof(Ins));
        for (int i = 0; i < P->count; i++) {
            PyObject *t = PyTuple_GET_ITEM(ins, i);
            Ins *I = &P->ins[i];
            I->op = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
            int n;
            i64 *fields = int_tuple(PyTuple_GET_ITEM(t, 1), &n);
            for (int f = 0; f < n && f < 8; f++) I->a[f] = fields[f];
            free(fields);
            I->list = int_tuple(PyTuple_GET_ITEM(t, 2), &I->n);
            I->list2 = int_tuple(PyTuple_GET_ITEM(t, 3), &I->n2);
            I->cost = PyTuple_GET_SIZE(t) > 4 ? PyLong_AsLongLong(PyTuple_GET_ITEM(t, 4)) : 0;
        }
        P->rows = (int)PyTuple_GET_SIZE(uni);
        P->cols = P->rows ? (int)PyTuple_GET_SIZE(PyTuple_GET_ITEM(uni, 0)) : 0;
        P->uniforms = calloc((size_t)P->rows * P->cols + 1, sizeof(i64));
        for (int r = 0; r < P->rows; r++) {
            PyObject *row = PyTuple_GET_ITEM(uni, r);
            int cols = (int)PyTuple_GET_SIZE(row);
            if (cols < P->cols) P->cols = cols;
        }
        for (int r = 0; r < P->rows; r++)
            for (int col = 0; col < P->cols; col++)
                P->uniforms[r * P->cols + col] = PyLong_AsLongLong(PyTuple_GET_ITEM(PyTuple_GET_ITEM(uni, r), col));
    }
    c->nengines = (int)PyTuple_GET_SIZE(engines);
    c->engines = calloc(c->nengines ? c->nengines : 1, sizeof(Engine));
    for (int i = 0; i < c->nengines; i++) {
        long long prog, unit, position;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(engines, i), "LLL", &prog, &unit, &position)) return -1;
        c->engines[i].program = (int)prog; c->engines[i].unit = unit; c->engines[i].position = position;
    }
    c->kind_order = calloc(MAX_KINDS, sizeof(int));
    c->ring = calloc(RING, sizeof(Bucket));
    if (!c->ring) { PyErr_NoMemory(); return -1; }
    if (PyErr_Occurred()) return -1;
    for (int i = 0; i < c->nengines; i++)
        if (at(c, 0, EV_RESUME, i)) return -1;
    c->next_vid = 0;
    return 0;
}

/* run(limit, events): run events until none is left ("done"), ``events`` of them
   ("more"), the next one lies past cycle ``limit`` ("over") or the core gives up
   ("bail: why"). */
static PyObject *status(Core *c, const char *what) {
    if (c->bailed[0]) return Py_BuildValue("(sLLs)", "bail", (long long)c->now, (long long)c->events_run, c->bailed);
    return Py_BuildValue("(sLLs)", what, (long long)c->now, (long long)c->events_run, "");
}

/* run(limit, events) -> (status, cycle, events run, why): run events until none is
   left ("done"), ``events`` more have run ("more"), the next one lies past cycle
   ``limit`` ("over") or the core gives up ("bail", and why). */
static PyObject *core_run(Core *c, PyObject *args) {
    long long limit, budget;
    if (!PyArg_ParseTuple(args, "LL", &limit, &budget)) return NULL;
    if (c->bailed[0] || c->finished) return status(c, "done");
    for (i64 n = 0; n < budget; n++) {
        Event e;
        if (!peek(c, &e)) {
            c->last_event = c->now;
            c->finished = 1;
            for (int i = 0; i < c->nengines; i++)
                if (!c->engines[i].done) { bail(c, "deadlock", i); break; }
            return status(c, "done");
        }
        if (e.time > limit) return status(c, "over");
        if (take(c, &e)) return status(c, "bail");
        int r = e.type == EV_RESUME ? resume(c, e.index)
              : e.type == EV_DMA ? dma_done(c, e.index) : signal_arrives(c, e.index);
        c->events_run++;
        if (r == BAIL) return status(c, "bail");
    }
    return status(c, "more");
}

static PyObject *counts(const i64 *values, int n) {
    PyObject *d = PyDict_New();
    for (int i = 0; i < n; i++) {
        if (values[i] < 0) continue;
        PyObject *k = PyLong_FromLong(i), *v = PyLong_FromLongLong(values[i]);
        PyDict_SetItem(d, k, v);
        Py_DECREF(k); Py_DECREF(v);
    }
    return d;
}

/* The figures of a finished run: a dict (see ktc.sim.compiled). */
static PyObject *core_figures(Core *c, PyObject *noargs) {
    PyObject *engines = PyTuple_New(c->nengines);
    for (int i = 0; i < c->nengines; i++) {
        Engine *e = &c->engines[i];
        PyTuple_SET_ITEM(engines, i, Py_BuildValue("(LLLLLiLLLi)", (long long)e->busy, (long long)e->starved,
                                                   (long long)e->backpressured, (long long)e->busy_until,
                                                   (long long)e->vector_cycles, e->done,
                                                   (long long)e->matrix_cycles, (long long)e->matrix_macs,
                                                   (long long)e->pc, e->block));
    }
    PyObject *order = PyList_New(c->nkind_order);
    for (int i = 0; i < c->nkind_order; i++) {
        int k = c->kind_order[i];
        PyList_SET_ITEM(order, i, Py_BuildValue("(iL)", k, (long long)c->memory_bytes[k]));
    }
    PyObject *port = PyDict_New(), *read = PyDict_New(), *latency = PyDict_New();
    for (int k = 0; k < c->nkinds; k++) {
        if (c->port_latency[k] < 0) continue;
        PyObject *key = PyLong_FromLong(k), *b = PyLong_FromLongLong(c->port_bytes[k]),
                 *rd = PyLong_FromLongLong(c->port_read_bytes[k]), *l = PyLong_FromLongLong(c->port_latency[k]);
        PyDict_SetItem(port, key, b); PyDict_SetItem(read, key, rd); PyDict_SetItem(latency, key, l);
        Py_DECREF(key); Py_DECREF(b); Py_DECREF(rd); Py_DECREF(l);
    }
    PyObject *result = Py_BuildValue(
        "{s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:L,s:L,s:L,s:L}", "engines", engines, "memory_bytes", order,
        "port_bytes", port, "port_read_bytes", read, "port_latency", latency, "feed_bytes", counts(c->feed, c->ncores),
        "drain_bytes", counts(c->drain, c->ncores), "interconnect_bytes", (long long)c->interconnect_bytes,
        "now", (long long)c->now, "last_event", (long long)c->last_event, "events", (long long)c->events_run);
    return result;
}

static PyMethodDef core_methods[] = {
    {"run", (PyCFunction)core_run, METH_VARARGS, "Run events (see the C source)."},
    {"figures", (PyCFunction)core_figures, METH_NOARGS, "The figures of a finished or stopped run."},
    {"plan", (PyCFunction)core_plan, METH_NOARGS, "The values of a finished run in batches."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ktc.sim._core.Core",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
    .tp_doc = "The compiled timing core of the simulator.",
};

/* ------------------------------------------------------------------------------ */
/* f16 arithmetic through float32 (ktc.sim.half)                                   */
/*
   half(op, a, b, out) -> bool: out = a op b elementwise over f16 buffers of one length
   (op: HALF_ADD, HALF_SUB, HALF_MUL, HALF_DIV), or out = a widened to float32
   (HALF_WIDEN; b is not read): each f16 converted to float32 exactly, the operation
   correctly rounded in float32, the result rounded to f16 to nearest even. A
   correctly rounded float32 result rounded again to f16 is the correctly rounded f16
   result for these operations (24 >= 2 * 11 + 2 bits), so it is what rounding the
   float64 result gives. False, with ``out`` undefined, where the processor lacks the
   conversion instructions or a result is NaN (whose bits the caller's own rule gives). */

enum { HALF_ADD, HALF_SUB, HALF_MUL, HALF_DIV, HALF_WIDEN };

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HALF_TARGET __attribute__((target("avx2,f16c")))

HALF_TARGET static __m256 half_load(const uint16_t *p, Py_ssize_t n) {
    uint16_t tail[8] = {0};
    if (n < 8) { memcpy(tail, p, (size_t)n * 2); p = tail; }
    return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p));
}

HALF_TARGET static __m256 half_apply(int op, __m256 x, __m256 y) {
    switch (op) {
    case HALF_ADD: return _mm256_add_ps(x, y);
    case HALF_SUB: return _mm256_sub_ps(x, y);
    case HALF_MUL: return _mm256_mul_ps(x, y);
    default: return _mm256_div_ps(x, y);
    }
}

HALF_TARGET static int half_run(int op, const uint16_t *a, const uint16_t *b, void *out, Py_ssize_t n) {
    __m256 nan = _mm256_setzero_ps();
    for (Py_ssize_t i = 0; i < n; i += 8) {
        Py_ssize_t k = n - i < 8 ? n - i : 8;
        __m256 x = half_load(a + i, k), r = op == HALF_WIDEN ? x : half_apply(op, x, half_load(b + i, k));
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(r, r, _CMP_UNORD_Q));
        if (op == HALF_WIDEN) {
            float wide[8];
            _mm256_storeu_ps(wide, r);
            memcpy((float *)out + i, wide, (size_t)k * 4);
        } else {
            uint16_t narrow[8];
            _mm_storeu_si128((__m128i *)narrow, _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT));
            memcpy((uint16_t *)out + i, narrow, (size_t)k * 2);
        }
    }
    return _mm256_movemask_ps(nan) == 0;
}

static int half_supported(void) { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c"); }
#else
static int half_run(int op, const uint16_t *a, const uint16_t *b, void *out, Py_ssize_t n) { return 0; }
static int half_supported(void) { return 0; }
#endif

static PyObject *core_half(PyObject *module, PyObject *args) {
    int op;
    Py_buffer a, b, out;
    if (!PyArg_ParseTuple(args, "iy*y*w*", &op, &a, &b, &out)) return NULL;
    Py_ssize_t n = a.len / 2;
    int ok = op >= HALF_ADD && op <= HALF_WIDEN && a.len % 2 == 0
        && (op == HALF_WIDEN || b.len == a.len) && out.len == (op == HALF_WIDEN ? 2 * a.len : a.len);
    int done = 0;
    if (ok && half_supported()) {
        Py_BEGIN_ALLOW_THREADS
        done = half_run(op, a.buf, b.buf, out.buf, n);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&a); PyBuffer_Release(&b); PyBuffer_Release(&out);
    if (!ok) { PyErr_SetString(PyExc_ValueError, "half: operand sizes"); return NULL; }
    return PyBool_FromLong(done);
}

/* The lowest and one past the highest byte of a plan view (arena address type rank
   shape... strides...) of elements of ``size`` bytes. */
static void arena_span(const i64 *v, i64 size, i64 *lo, i64 *hi) {
    *lo = v[0]; *hi = v[0] + size;
    for (i64 d = 0; d < v[3]; d++) {
        i64 reach = (v[4 + d] - 1) * v[4 + v[3] + d] * size;
        if (v[4 + d] <= 0) { *hi = *lo; return; }
        if (reach < 0) *lo += reach; else *hi += reach;
    }
}

/* One copy of the plan in the arena, as the Python engines make it: the source's
   elements at the target's leading corner, zeros in the rest of the target; an element
   of ``bit_type`` becomes 1 when any bit of it is set. 1 when the views are not of one
   type and rank or their bytes overlap (left to the caller, which copies the source
   whole first), -1 when one reaches outside the arena. */
static int copy_views(u8 *space, i64 size, const i64 *src, const i64 *dst, const i64 *bpe, int ntypes,
                      int bit_type) {
    int rank = (int)dst[3];
    if (src[2] != dst[2] || src[3] != rank || dst[2] < 0 || dst[2] >= ntypes || rank < 1 || rank > MAXD) return 1;
    i64 eb = bpe[dst[2]], slo, shi, dlo, dhi;
    arena_span(src, eb, &slo, &shi); arena_span(dst, eb, &dlo, &dhi);
    if (dlo >= dhi) return 0;
    if (dlo < 0 || dhi > size || (slo < shi && (slo < 0 || shi > size))) return -1;
    if (slo < dhi && dlo < shi) return 1;
    const i64 *sshape = src + 4, *sstr = src + 4 + rank, *dshape = dst + 4, *dstr = dst + 4 + rank;
    i64 idx[MAXD] = {0}, inner = dshape[rank - 1], within = sshape[rank - 1] < inner ? sshape[rank - 1] : inner;
    int runs = sstr[rank - 1] == 1 && dstr[rank - 1] == 1 && dst[2] != bit_type;
    for (;;) {
        int inside = 1;
        i64 s = src[0], d = dst[0];
        for (int k = 0; k < rank - 1; k++) {
            inside &= idx[k] < sshape[k];
            s += idx[k] * sstr[k] * eb; d += idx[k] * dstr[k] * eb;
        }
        i64 n = inside ? within : 0;
        if (runs) {
            memmove(space + d, space + s, (size_t)(n * eb));
            memset(space + d + n * eb, 0, (size_t)((inner - n) * eb));
        } else {
            for (i64 j = 0; j < inner; j++) {
                u8 *to = space + d + j * dstr[rank - 1] * eb;
                const u8 *from = space + s + j * sstr[rank - 1] * eb;
                if (j >= n) memset(to, 0, (size_t)eb);
                else if (dst[2] == bit_type) *to = *from != 0;
                else memmove(to, from, (size_t)eb);
            }
        }
        int k = rank - 2;
        while (k >= 0 && ++idx[k] == dshape[k]) idx[k--] = 0;
        if (k < 0) return 0;
    }
}

/* copies(arena, plan, at, bytes_per_type, bit_type) -> the word after the copies of
   the plan from word ``at`` on (the DMA batches that follow each other there), made in
   the arena; ``at`` itself when the first is not one it makes (views of two types or
   ranks). */
static PyObject *core_copies(PyObject *module, PyObject *args) {
    Py_buffer space, plan;
    long long at;
    PyObject *bpe_tuple;
    int bit_type, ntypes;
    if (!PyArg_ParseTuple(args, "w*y*LOi", &space, &plan, &at, &bpe_tuple, &bit_type)) return NULL;
    i64 *bpe = int_tuple(bpe_tuple, &ntypes);
    const i64 *words = plan.buf;
    i64 end = (i64)(plan.len / (Py_ssize_t)sizeof(i64)), failed = 0;
    while (bpe && !failed && at + 2 <= end && words[at] == L_DMA) {
        const i64 *src = words + at + 2;
        if (at + 6 > end || src[3] < 0 || src[3] > MAXD || at + 2 + view_words(src) + 4 > end) { failed = -1; break; }
        const i64 *dst = src + view_words(src);
        if (dst[3] < 0 || dst[3] > MAXD || dst + view_words(dst) > words + end) { failed = -1; break; }
        failed = copy_views(space.buf, (i64)space.len, src, dst, bpe, ntypes, bit_type);
        if (!failed) at = (long long)(dst + view_words(dst) - words);
    }
    free(bpe);
    PyBuffer_Release(&space); PyBuffer_Release(&plan);
    if (failed < 0 || !bpe) {
        PyErr_SetString(PyExc_ValueError, "copies: a view of the plan reaches outside the arena");
        return NULL;
    }
    return PyLong_FromLongLong(at);
}

static PyMethodDef module_methods[] = {
    {"half", core_half, METH_VARARGS, "f16 arithmetic through float32 (see the C source)."},
    {"copies", core_copies, METH_VARARGS, "The plan's copies from a word on (see the C source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "The compiled timing core.", -1, module_methods};

static PyObject *names(const char **table, int n) {
    PyObject *t = PyTuple_New(n);
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyUnicode_FromString(table[i]));
    return t;
}

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    PyModule_AddObject(m, "Core", (PyObject *)&CoreType);
    PyModule_AddObject(m, "OPS", names(OP_NAMES, OP_COUNT));
    PyModule_AddObject(m, "ALU_OPS", names(ALU_NAMES, A_COUNT));
    PyModule_AddIntConstant(m, "MAX_DIMENSIONS", MAXD);
    PyModule_AddIntConstant(m, "LOG_LOAD", L_LOAD);
    PyModule_AddIntConstant(m, "LOG_STORE", L_STORE);
    PyModule_AddIntConstant(m, "LOG_OP", L_OP);
    PyModule_AddIntConstant(m, "LOG_DMA", L_DMA);
    PyModule_AddIntConstant(m, "HALF_ADD", HALF_ADD);
    PyModule_AddIntConstant(m, "HALF_SUB", HALF_SUB);
    PyModule_AddIntConstant(m, "HALF_MUL", HALF_MUL);
    PyModule_AddIntConstant(m, "HALF_DIV", HALF_DIV);
    PyModule_AddIntConstant(m, "HALF_WIDEN", HALF_WIDEN);
    return m;
}
