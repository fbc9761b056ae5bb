"""``contraction-tiling``: the tiles of every contraction, from the device's cost model
under the capacity of its scratchpad, its matrix unit's accumulators and its FIFOs.

A contraction ``C[m, n] += A[m, k] * B[k, n]`` of a program (the one
``normalize-contractions`` writes: one product of loaded tiles, maybe accumulated over
the iterations of a loop) runs as output tiles of ``m x n``: the matrix unit holds a
tile's accumulators while ``k``-deep tiles of A and B stream through the scratchpad
(double-buffered: counted twice), each tile product as ``chunk``-deep products of
``m x chunk`` by ``chunk x block`` sent to the unit through its FIFO. An operand stored
k-major (A as ``k x m``, B as ``n x k``: a linear's weight, attention's keys) is
transposed by the DMA as it copies it: it reads the stored rows whole from device
memory and writes each element to its place in the scratchpad, one transfer of the
link's granularity per element; a B stored ``n x k`` goes to a matrix unit that takes
it so (``transposed_rhs`` in the arch file) as it is stored, copied as ``n x chunk``
blocks, each row a run of ``chunk`` elements. A left operand computed on chip (attention's
probabilities, SwiGLU's gated product) is stored into the scratchpad and fed from there
(a FIFO takes a block contiguous in memory): as whole rows, one chunk of all k, or, any
rows an output tile, chunks a part of a row long that start and end on the scratchpad's
alignment (rows longer than the FIFO holds in one chunk: attention's P V, SwiGLU's down
product), which ``contraction-pipeline`` stages chunk-major so that each is contiguous;
with B's panel resident when there are several rows of output tiles, each of which
would stream all of B again. It goes to the SIMD engine instead when no tiles take it or the estimate
exceeds the SIMD engine's least: one multiply-add per lane a cycle, or, for a B stored
k x n, its device-memory reads (the SIMD engine reduces along k innermost, so it reads
such a B through a permuted view, each element a transfer of the granularity of its
own: 64 times the bytes of f16 on spyre). The estimate is the busiest of the copies
from device memory (A read once per column of output tiles, B once per row; the copy
reads each stored row of a tile whole, rounded to the transfer granularity, and writes
it into the scratchpad's layout as chunks of A and blocks of B, each run rounded to the
granularity of the link into the scratchpad, a transposed operand's one element a run),
the matrix unit's steps (with its fill and drain per product), the load unit's feed
and the drain of the accumulators; the tiles with the least estimate win, then those
reading fewer bytes from device memory, then those whose copies write fewer (wider
chunks: the copies of all cores share device memory and the ring, which the estimate
does not see), then the larger. An output tile of several blocks, or of one, is shared
out over the core's matrix units (one per sub-core, each with its own load and store
units and accumulators: two on spyre), its blocks cut into runs of rows when the units
do not divide their count (``UnitShares``: a 32 x 64 tile is 16 rows on each of spyre's
units), so the unit's steps, its feed and the drain count the busiest unit's share of
the pieces, and each unit's accumulators hold its share of the tile (a 128 x 256 f32
tile is two 128 x 64 blocks, 64 KiB, in each of spyre's two units).

Operand reuse: the accumulators hold one output tile, so the output tiles of a program
that share rows of A (a row of tiles) or columns of B (a column) would each copy them
again. Each tiling is also weighed with one operand's panel resident in the scratchpad
across the tiles that share it (``resident``: A's ``m`` rows over all of k, or B's ``n``
columns), copied once and counted once in the capacity (the streamed operand's tiles
twice, double-buffered), its device-memory reads divided among its sharers; over the
kernel's loop only when its trips are constants (the panel spans them all) and over more
than one k tile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import product
from math import prod

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass

from ktc.arch.model import Device, device_of
from ktc.dialects import ktdf, ktdp
from ktc.dialects.diagnostics import KtcError, where
from ktc.passes.analysis.contractions import (
    Contraction,
    contraction,
    feeds_rhs_transposed,
    loaded_from_view,
    unit_shares,
)
from ktc.passes.utils.ir import enclosing_function
from ktc.passes.utils.loops import static_trip_count
from ktc.passes.utils.phases import programs

SCRATCHPAD_SHARE = {True: 7 / 8, False: 3 / 4}
"""The share of the scratchpad the contraction's buffers may take, as it is the
kernel's only contraction or not; the rest is for the phases around it (its
epilogue's staging buffers, a few vectors each; beside other products, their tiles
and the tensors they stage). On spyre the larger share leaves a 512 x 256 block's
1 MiB column panel of B beside its 512 KiB f32 result; with it, the SwiGLU block's
down weight, staged whole beside the gate and up products, no longer fits."""


@dataclass(frozen=True)
class ContractionTiling(ModulePass):
    """Choose the tiles of every contraction.

    Expects programs whose contractions are canonical ``linalg.generic``s over loops
    (m, n, k) of static shapes (``normalize-contractions``), a device declaration with
    a timed device. Produces ``ktdf.contraction_tiles`` on each (sizes, the engine that
    multiplies, the estimated cycles of one tile product of the program, and the operand
    kept resident across output tiles when that reads less); a generic that
    has them is left alone, so running the pass again changes nothing. Several products
    of one program are tiled each on its own (each program step's buffers get the
    scratchpad to themselves; ``convert-ktdf-to-dfir`` orders the engines of the steps
    that reuse space). A contraction of loaded operands the device cannot hold (one
    tile of accumulators, or the smallest tiles in the scratchpad) and one over a
    single k element on a device without a matrix unit are errors at the op.
    """

    name = "contraction-tiling"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = [c for program in programs(op) for inner in program.walk()
                 if (c := contraction(inner)) is not None and c.result is not None
                 and ktdf.contraction_tiles(inner) is None]
        if not found:
            return
        device = device_of(op)
        for c in found:
            tiles = choose(c, device) if on_matrix_unit(c, device) else None
            if tiles is not None:
                ktdf.set_contraction_tiles(c.op, tiles)
            elif all(c.sizes()[d] == 1 for d in c.k):
                raise KtcError(
                    f"a contraction over one element (an outer product) on {device.compute_kind}, "
                    f"device @{device.name}'s SIMD engine, which reduces rows of two or more "
                    "elements; write it as an elementwise product of broadcasts", where(c.op))
            else:
                ktdf.set_contraction_tiles(c.op, on_simd(c, device))


@dataclass(frozen=True)
class _Problem:
    """A contraction's sizes and what the device gives it."""

    m: int
    n: int
    k: int
    input_bytes: int
    accumulator_bytes: int
    result_bytes: int
    """Bytes of an element of the contraction's result."""
    device: Device
    transposed: tuple[bool, bool]
    """Whether A is stored ``k x m`` and B ``n x k``."""
    rhs_fed_transposed: bool
    """Whether B, stored ``n x k``, goes to the matrix unit so (``feeds_rhs_transposed``)."""
    computed_lhs: bool
    """Whether A is computed on chip (stored into the scratchpad: row-major, whole rows
    a chunk, or chunk-major)."""
    trips: int | None
    """Iterations of the kernel's loop the contraction accumulates over (1 without
    one; None when its bounds are not constants)."""
    alone: bool
    """Whether it is the kernel's only contraction."""


def on_matrix_unit(c: Contraction, device: Device) -> bool:
    """Whether the device's matrix unit may multiply ``c``: a product of two matrices of
    its input type, B loaded from a memory view (stored row-major or k-major), A loaded
    from one too or computed on chip (attention's probabilities, SwiGLU's gated
    product), read row-major."""
    unit = device.matrix
    return (unit is not None and c.is_matrix_product
            and unit.input == c.lhs.type.get_element_type() and loaded_from_view(c.rhs)
            and (loaded_from_view(c.lhs) or not c.transposed(0)))


def on_simd(c: Contraction, device: Device) -> ktdf.ContractionTiles:
    """The SIMD engine's whole contraction, multiplied and reduced along k (the tiles
    of the pipeline that computes it are chosen later, as for any reduction)."""
    sizes = c.sizes()
    m = prod(sizes[d] for d in (*c.batch, *c.m)) or 1
    n = prod(sizes[d] for d in c.n) or 1
    k = prod(sizes[d] for d in c.k)
    flops = device.roofline.flops_per_cycle(c.lhs.type.get_element_type()) / device.cores
    return ktdf.ContractionTiles(m, n, k, k, n, device.compute_kind, int(2 * m * n * k / flops))


def choose(c: Contraction, device: Device) -> ktdf.ContractionTiles | None:
    """The tiles of ``c`` on the matrix unit with the least estimated cycles; None for
    an A computed on chip whose whole rows no tiles take, or whose best tiles are
    estimated slower than the SIMD engine (which then multiplies it)."""
    unit = device.matrix
    sizes = c.sizes()
    problem = _Problem(sizes[c.m[0]], sizes[c.n[0]], sizes[c.k[0]],
                       _bytes(unit.input), _bytes(unit.accumulator),
                       _bytes(c.result.type.get_element_type()), device,
                       (c.transposed(0), c.transposed(1)), feeds_rhs_transposed(c, device),
                       not loaded_from_view(c.lhs),
                       _kernel_trips(c), _alone(c))
    candidates = [tiles for tiles in _candidates(problem) if _fits(problem, tiles)]
    best = min(candidates, key=lambda tiles: (tiles.estimated_cycles, _copied_bytes(problem, tiles),
                                              -tiles.m * tiles.n, -tiles.k), default=None)
    if problem.computed_lhs and (best is None or best.estimated_cycles > _simd_cycles(problem)):
        return None
    if best is None:
        raise KtcError(
            f"a {problem.m} x {problem.k} by {problem.k} x {problem.n} product has no tiles "
            f"that fit {unit.kind}'s {unit.accumulator_bytes} bytes of accumulators and the "
            f"scratchpad of device @{device.name}", where(c.op))
    return best


def _simd_cycles(p: _Problem) -> float:
    """The least cycles of the product on one SIMD engine: one multiply-add per lane
    and plain issue, or, for a B stored k x n, the device-memory reads of it (the SIMD
    engine reduces along k innermost: it reads B through a permuted view, each element
    a transfer of the granularity of its own), whichever is more."""
    roof = p.device.roofline
    per_engine = roof.elements_per_cycle("plain", p.device.matrix.input) / (
        roof.cores * roof.subcores_per_core)
    granule = roof.dma_granularity
    permuted = 0 if p.transposed[1] else p.k * p.n * math.ceil(p.input_bytes / granule) * granule
    return max(p.m * p.n * p.k / per_engine, permuted / roof.dma_read_bytes_per_cycle)


def _bytes(element) -> int:
    return element.bitwidth // 8


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def _candidates(p: _Problem):
    unit = p.device.matrix
    fifo = p.device.fifo_bytes(unit.feeds[0], unit.kind)
    for m, n, k in product(_divisors(p.m), _divisors(p.n), _divisors(p.k)):
        widest = unit.lanes if n % unit.lanes == 0 else n
        # An A computed on chip is fed from its rows in the scratchpad (chunks of them
        # the load unit can address), and blocks of B as narrow as that needs.
        for block in _divisors(widest) if p.computed_lhs else [widest]:
            chunks = [d for d in _divisors(k) if 4 * max(m * d, d * block) * p.input_bytes <= fifo
                      and (not p.computed_lhs or _staged_chunk(p, m, d))]
            for resident in _staged_residencies(p, m, n, k, max(chunks)) if chunks else ():
                yield ktdf.ContractionTiles(
                    m, n, k, max(chunks), block, unit.kind,
                    _estimate(p, m, n, k, max(chunks), block, resident), resident)


def _staged_chunk(p: _Problem, m: int, chunk: int) -> bool:
    """Whether the load unit can feed ``m x chunk`` chunks of an A staged in the
    scratchpad, each contiguous there (a FIFO takes contiguous blocks): whole rows
    (A row-major), or, any ``m``, parts of rows that start and end on the
    scratchpad's alignment (A chunk-major: ``K / chunk`` row-major blocks of
    ``chunk`` columns, as ``contraction-pipeline`` stages it)."""
    align = p.device.alignment(p.device.scratchpad)
    return chunk == p.k or chunk * p.input_bytes % align == 0


def _staged_residencies(p: _Problem, m: int, n: int, k: int, chunk: int) -> list[str]:
    """The residencies of tiles whose chunks are parts of a staged A's rows: only B's
    panel resident when there are several rows of output tiles, each of which would
    stream all of B again otherwise."""
    options = _residencies(p, m, n, k)
    if not p.computed_lhs or chunk == p.k or p.m == m:
        return options
    return [r for r in options if r == "rhs"]


def _residencies(p: _Problem, m: int, n: int, k: int) -> list[str]:
    """Which operand panels may stay in the scratchpad: A's rows when several output
    tiles of a row share them (A loaded, not computed on chip), B's columns when several
    of a column do; either only over a kernel loop of known trips, and over more than
    one k tile (a panel's one k tile would be copied anew, for the next row or column,
    while the last tile of the previous one may still read it: the streamed operand's
    double-buffered copies keep the DMA one k tile ahead at most)."""
    options = ["none"]
    if p.trips is None or p.trips * (p.k // k) <= 1:
        return options
    if not p.computed_lhs and p.n // n > 1:
        options.append("lhs")
    if p.m // m > 1:
        options.append("rhs")
    return options


def _alone(c: Contraction) -> bool:
    """Whether ``c`` is the only contraction of its kernel."""
    kernel = enclosing_function(c.op)
    return kernel is None or sum(contraction(op) is not None for op in kernel.walk()) == 1


def _kernel_trips(c: Contraction) -> int | None:
    """Iterations of the loop whose iteration argument ``c`` accumulates into (1 when
    none, None when its bounds are not constants)."""
    init = c.init
    if not isinstance(init, BlockArgument) or not isinstance(init.block.parent_op(), scf.ForOp):
        return 1
    return static_trip_count(init.block.parent_op())


def _fits(p: _Problem, tiles: ktdf.ContractionTiles) -> bool:
    """Accumulators in the unit (each unit its share of the output tile's blocks),
    drained rows in its FIFO, the streamed operand tiles (twice), a resident panel
    (once: each k tile of it is copied once), the result in the accumulator type and
    one output tile of it in the result's type (what an output tile stored as it drains
    is rounded into) in the scratchpad."""
    unit = p.device.matrix
    drain = p.device.fifo_bytes(unit.kind, unit.drains[0])
    a, b = tiles.m * tiles.k, tiles.k * tiles.n
    depth = (p.trips or 1) * p.k
    operands = {"none": 2 * (a + b), "lhs": tiles.m * depth + 2 * b,
                "rhs": 2 * a + depth * tiles.n}[tiles.resident] * p.input_bytes
    result = p.m * p.n * p.accumulator_bytes + tiles.m * tiles.n * p.result_bytes
    capacity = p.device.memory(p.device.scratchpad).size
    shares = unit_shares(p.device, tiles.m, tiles.n, tiles.block)
    held = shares.per_unit * shares.rows * tiles.block
    return (held * p.accumulator_bytes <= unit.accumulator_bytes
            and 2 * tiles.block * p.accumulator_bytes <= drain
            and operands + result <= SCRATCHPAD_SHARE[p.alone] * capacity)


def _traffic(p: _Problem, m: int, n: int, k: int, chunk: int, block: int,
             resident: str) -> tuple[float, float]:
    """Per product of tiles, on average: the bytes read from device memory (the stored
    rows of each operand's tile, each run rounded to the transfer granularity: the copy
    reads them whole) and the bytes its writes into the scratchpad's layout take on the
    link into it (A as chunks of ``chunk``, B as blocks of ``block``, each run rounded
    to that link's granularity; a transposed operand element by element); a resident
    operand's counted once for all the output tiles sharing it."""
    shared = {"none": (1, 1), "lhs": (p.n // n, 1), "rhs": (1, p.m // m)}[resident]
    a_rows = (0, 0) if p.computed_lhs else (k, m) if p.transposed[0] else (m, k)
    b_rows = (n, k) if p.transposed[1] else (k, n)
    a_written = ((0, 0) if p.computed_lhs else (m * k, 1) if p.transposed[0] and chunk > 1
                 else (m * (k // chunk), chunk))
    b_written = ((n * (k // chunk), chunk) if p.rhs_fed_transposed
                 else (k * n, 1) if p.transposed[1] and block > 1 else (k * (n // block), block))
    read = _rounded(p, (a_rows, b_rows), shared, p.device.roofline.dma_granularity)
    written = _rounded(p, (a_written, b_written), shared,
                       min(_scratchpad_link(p.device).granularity, default=1))
    return read, written


def _rounded(p: _Problem, runs, shared: tuple[int, int], granule: int) -> float:
    """The bytes of each operand's ``(count, length)`` runs of elements, each rounded up
    to ``granule``, over the output tiles sharing it."""
    return sum(count * math.ceil(length * p.input_bytes / granule) * granule / share
               for (count, length), share in zip(runs, shared))


def _copied_bytes(p: _Problem, tiles: ktdf.ContractionTiles) -> tuple[float, float]:
    """The bytes the operand copies of one product of the program read from device
    memory and take on the link into the scratchpad (``_traffic``)."""
    count = (p.m // tiles.m) * (p.n // tiles.n) * (p.k // tiles.k)
    read, written = _traffic(p, tiles.m, tiles.n, tiles.k, tiles.chunk, tiles.block, tiles.resident)
    return count * read, count * written


def _estimate(p: _Problem, m: int, n: int, k: int, chunk: int, block: int, resident: str) -> int:
    """Cycles of one product of the program's tiles: the busiest of device memory, the
    matrix unit, its feed and the drain, plus the first transfer's latency per k tile
    (each k tile is a pipeline of its own, filled from device memory)."""
    device, unit = p.device, p.device.matrix
    roof = device.roofline
    tiles = (p.m // m) * (p.n // n) * (p.k // k)
    runs, written = _traffic(p, m, n, k, chunk, block, resident)
    memory = tiles * max(runs / roof.dma_read_bytes_per_cycle, _write_cycles(device, written))
    shares = unit_shares(device, m, n, block)
    steps = tiles * (k // chunk) * shares.per_unit
    matrix = steps * (unit.cycles(shares.rows, chunk, block) + unit.fill + unit.drain)
    feed_bytes = steps * (shares.rows * chunk + chunk * block) * p.input_bytes
    feed = 2 * feed_bytes / _bandwidth(device, unit.feeds[0], unit.kind)
    drained = shares.per_unit / shares.pieces * p.m * p.n * p.accumulator_bytes
    drain = 2 * drained / _bandwidth(device, unit.kind, unit.drains[0])
    first = sum(link.latency or 0 for link in device.path(
        device.node(device.device_memory), device.node(unit.kind)))
    return int(max(memory, matrix, feed) + drain + first * (p.k // k))


def _scratchpad_link(device: Device):
    """The link from device memory's route into the scratchpad (what the DMA writes
    through)."""
    return device.path(device.node(device.device_memory), device.node(device.scratchpad))[-1]


def _write_cycles(device: Device, nbytes: float) -> float:
    """Cycles of the DMA writing ``nbytes`` (runs already rounded) into the scratchpad:
    through the link into it and the scratchpad's port."""
    port = device.memory(device.scratchpad).port_bandwidth
    return max(nbytes / _scratchpad_link(device).bytes_per_cycle, nbytes / port if port else 0)


def _bandwidth(device: Device, source: str, target: str) -> int:
    start = device.node(source)
    route = device.path(start, device.node(target, start.core or 0, start.subcore or 0))
    return min(link.bytes_per_cycle for link in route if link.bytes_per_cycle)
