"""The simulator's matrix unit: ``vmma`` on an engine whose kind has the matrix
feature in the arch file (``ktc.arch.model.MatrixUnit``).

``vmma vD, vC, vA, vB, m, k, n`` (``ktc.codegen.isa.Vmma``; vB ``k x n``, or ``n x k``
for the layout ``nk``, which a unit with ``transposed_rhs`` takes) waits for its operands
vA and vB (counted as starved, like any instruction reading a register whose data is
on its way), then holds the engine for its steps,
``k * ceil(m / rows) * ceil(n / lanes) * issue_cycles``. Its products reach the
accumulators ``fill`` cycles after the operands entered, and the accumulators leave
the unit ``drain`` cycles after that: vD is ready for any other instruction (a
``send``) ``steps + fill + drain`` cycles after the start. A ``vmma`` accumulating
into the result of the unit's previous one (vC in its accumulators) goes on at once,
its products arriving after the previous ones; an accumulator that comes from outside
(a vector received, a constant) must be there when the first products arrive, ``fill``
cycles after the start.

Values: vC + vA · vB with the products and their sums in float64 (numpy's own einsum
loop: the same order of additions on every machine), rounded once to the accumulator
type. The operands must have the unit's input type, the accumulator its accumulator
type, and one ``m x n`` tile of it must fit in the unit's accumulators.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

import numpy as np

from ktc.codegen import isa
from ktc.errors import KtcError
from ktc.sim import numerics


@dataclass
class Accumulators:
    """What one matrix unit instance holds and has issued."""

    cycles: int = 0
    """Issue cycles of its steps."""

    macs: int = 0
    """Multiply-accumulates of its products (``m * k * n`` each, whatever share of the
    unit's rows and lanes a product fills)."""

    inside: dict[int, tuple[int, np.ndarray]] = field(default_factory=dict)
    """Per vector register written by a ``vmma``: the cycle its last products reach the
    accumulators, and the values (the register still holds them when they match)."""


STARVED = "starved"
"""The kind of wait ``ktc.sim.engines`` counts as starved (its ``STARVED``)."""

_UNITS: WeakKeyDictionary = WeakKeyDictionary()
"""Per engine instance, its ``Accumulators``."""


def accumulators(engine) -> Accumulators:
    """The state of the matrix unit ``engine`` runs on."""
    found = _UNITS.get(engine)
    if found is None:
        found = _UNITS[engine] = Accumulators()
    return found


def issued_cycles(engine) -> int:
    """Issue cycles of the steps ``engine`` ran (0 for an engine that is no matrix unit)."""
    found = _UNITS.get(engine)
    return 0 if found is None else found.cycles


def performed_macs(engine) -> int:
    """Multiply-accumulates of the products ``engine`` ran (0 for an engine that is no
    matrix unit)."""
    found = _UNITS.get(engine)
    return 0 if found is None else found.macs


def vmma(e, i: isa.Vmma, following: int):
    """The handler of ``vmma`` (``ktc.sim.engines``' convention: the pc to go on at,
    or None when the engine waits)."""
    unit = e.device_kind.matrix
    if unit is None:
        raise KtcError(f"{e.node.kind} has no ktdf_arch.feature.matrix in the arch file")
    if e.starves_for((i.a, i.b)):
        return None
    state = accumulators(e)
    if e.v[i.acc] is None:
        raise KtcError(f"v{i.acc} holds no vector")
    acc_type, acc = e.v[i.acc]
    inside = state.inside.get(i.acc)
    now = e.machine.now
    if (inside is None or inside[1] is not acc) and e.ready[i.acc] > now + unit.fill:
        e.wait(STARVED, e.ready[i.acc] - unit.fill, "an accumulator arriving in a vector register")
        return None
    a, b = _operand(e, i.a, i.source_type, i.m * i.k), _operand(e, i.b, i.source_type, i.k * i.n)
    _check(e, i, unit, acc_type, acc.size)
    values = _product(i, acc, a, b)
    values.flags.writeable = False
    cycles = unit.cycles(i.m, i.k, i.n)
    e.v[i.dst] = (i.dtype, values)
    e.ready[i.dst] = now + cycles + unit.fill + unit.drain
    state.inside[i.dst] = (now + cycles + unit.fill, values)
    state.cycles += cycles
    state.macs += i.m * i.k * i.n
    e.busy(now, now + cycles, i)
    return e.hold(now + cycles, following)


def _product(i: isa.Vmma, acc: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    rhs = b.reshape(i.n, i.k).T if i.rhs == "nk" else b.reshape(i.k, i.n)
    product = np.einsum("ik,kj->ij", a.reshape(i.m, i.k).astype(np.float64),
                        rhs.astype(np.float64), optimize=False)
    return numerics.rounding(i.dtype)(acc.astype(np.float64) + product.reshape(-1))


def vmma_value(i: isa.Vmma, operands: list[np.ndarray], scalar: int = 0) -> np.ndarray:
    """``vD = vC + vA · vB`` (``ktc.sim.engines.VALUES``' convention), of one vector per
    operand or of rows of them: each row's product as the handler computes it, so the
    compiled core's value pass gives the same bits."""
    acc, a, b = (np.asarray(x) for x in operands)
    if acc.ndim == 1:
        return _product(i, acc, a, b)
    out = np.empty(acc.shape, numerics.value_dtype(i.dtype))
    for row, (c, x, y) in enumerate(zip(acc, a, b)):
        out[row] = _product(i, c, x, y)
    return out


def unfit(i: isa.Vmma, unit, name: str) -> str | None:
    """Why the matrix unit of engine kind ``name`` cannot run ``i`` whatever its
    operands hold (its types, the size of its tile), or None."""
    if isa.ELEMENT_TYPES[i.source_type] != unit.input:
        return f"{name} multiplies {_name(unit.input)}, not {i.source_type}"
    if isa.ELEMENT_TYPES[i.dtype] != unit.accumulator:
        return f"{name} accumulates in {_name(unit.accumulator)}, not {i.dtype}"
    if i.rhs == "nk" and not unit.transposed_rhs:
        return f"{name} takes its right operand k x n only (no transposed_rhs in the arch file)"
    tile = i.m * i.n * numerics.bytes_per_element(i.dtype)
    if tile > unit.accumulator_bytes:
        return (f"a {i.m} x {i.n} tile of {i.dtype} ({tile} bytes) does not fit the "
                f"{unit.accumulator_bytes} bytes of accumulators of {name}")
    return None


def _operand(e, register: int, dtype: str, length: int) -> np.ndarray:
    found_type, values = e.v[register]
    if found_type != dtype or values.size != length:
        raise KtcError(f"expects v{register} of {length}x{dtype}, got {values.size}x{found_type}")
    return values


def _check(e, i: isa.Vmma, unit, acc_type: str, acc_size: int) -> None:
    if acc_type != i.dtype or acc_size != i.m * i.n:
        raise KtcError(f"expects v{i.acc} of {i.m * i.n}x{i.dtype}, got {acc_size}x{acc_type}")
    why = unfit(i, unit, e.node.kind)
    if why is not None:
        raise KtcError(why)


def _name(element) -> str:
    return next(name for name, known in isa.ELEMENT_TYPES.items() if known == element)
