"""The ktc instruction set: one instruction model, encoded the same way on every engine.

A program is a sequence of instructions; a *pc* is an index into that sequence (not a
byte offset). Each instruction is one 8-byte header word followed by ``n`` 8-byte
extension words, all little-endian (``docs/isa.md`` draws the layout):

=========  ======================================================================
bits       header field
=========  ======================================================================
0-7        opcode
8-15       variant: the ALU operation or the vector kind, when the opcode has one
16-19      element type code (``TYPES``), 20-23 a second element type
24-31      ``n``, the number of extension words
32-63      four 8-bit register fields r0..r3, in the order the operands are listed
=========  ======================================================================

Extension words hold the fixed immediates and pcs of the instruction, then its
variable-length lists (register numbers or immediates; several lists of one
instruction have one length), all signed int64. Every
instruction class below says which operand sits where through its field declarations
(``sreg()``, ``imm()``, ...); :func:`encode` and :func:`decode` read those
declarations, so there is no per-instruction codec. :func:`decode` rejects anything
that is not a well-formed program with :class:`IsaError`.

Registers of one engine instance: ``s0..s63`` scalar int64 (two's complement, wrapping),
``v0..v63`` vectors (an element type and a length; a length above the SIMD lanes takes
several beats), ``d0..d31`` view descriptors. A float scalar in an ``s`` register is the
bit pattern of its element type, zero-extended.

Semantics (``pc`` advances by one unless stated):

Scalar and control, every engine kind:

- ``li sD, imm``: sD = imm. A value that depends on kernel arguments is a relocation
  on this immediate (``EngineBinary.relocations``): the host writes the symbol's value.
- ``uni sD, k``: sD = uniforms[k][this instance].
- ``mov sD, sA``: sD = sA.
- ``alu.<op> sD, sA, sB``: sD = sA op sB for the ``ALU_OPS`` (MLIR ``arith`` semantics on
  64-bit integers; ``cmp.<pred>`` gives 0 or 1; ``u`` suffixes read both as unsigned;
  shifts by 64 or more give 0, or the sign for ``shrsi``; division by zero stops the run).
- ``select sD, sC, sA, sB``: sD = sA if sC != 0 else sB.
- ``loop sI, sLB, sUB, sSTEP, end``: sI = sLB; if not sI < sUB (signed) then pc = end,
  the pc after the matching ``endloop``.
- ``endloop sI, sUB, sSTEP, body``: sI += sSTEP; if sI < sUB then pc = body, the pc
  after the matching ``loop``. The loop body never writes sI, sUB or sSTEP.
- ``brz sC, target``: if sC == 0 then pc = target. ``jmp target``: pc = target.
- ``halt``: the program ends (so does running past the last instruction). A DMA engine
  ends once its outstanding copies have completed.

Memory views:

- ``view dD, sUNIT, sADDR, <type>, [shape], [strides]``: dD describes the memory unit
  whose index in the dataflow's unit table is sUNIT, from byte address sADDR, with the
  element type, the static shape, and the static strides in elements. Element
  ``(i0, ..., ik)`` lies at byte ``sADDR + sum(i * stride) * element bytes``.
- ``dim dV, sN, k``: dimension ``k`` of the view in dV becomes sN (a size known only at
  run time, such as the rows of a partial last tile); a negative size or a ``k`` beyond
  the view's dimensions stops the run.

DMA (engines that move memory to memory; across cores this is the ring transfer):

- ``dma dSRC, dDST``: starts copying every element of view dSRC to the same position in
  view dDST (same shape and element type). Copies of one engine complete in order.
- ``dmaz dSRC, dDST``: as ``dma``, but dSRC may be smaller than dDST in any dimension
  (same rank and element type): its elements land at the same positions, every other
  element of dDST becomes the element type's zero (a masked tail tile). It reads
  dSRC's bytes and writes all of dDST's.
- ``ldx sD, dV, [sIDX...]``: sD = the integer element of dV at the position held in
  the index registers, sign-extended (an index of an indirect access). It waits until
  every copy the engine has in flight that writes that element has completed.
- ``dmai dSRC, dDST``: as ``dma``, for a copy whose address the program computed from
  indices it read (``ldx``): the engine writes the descriptor at run time, at the
  kind's ``descriptor_cycles``; a ``dmai`` whose source and destination continue the
  previous ``dmai``'s, both contiguous, extends that descriptor and costs none.
- ``dmaiz dSRC, dDST``: a ``dmai`` whose source may be smaller than its destination,
  as for ``dmaz`` (an indirect run masked because its index lies outside the view).

Scratchpad load and store (engines between a memory and FIFOs):

- ``vld vD, dV, len, [sIDX...]``: vD = the ``len`` elements of dV starting at the
  position held in the index registers and stepping along the innermost dimension.
- ``vst vS, dV, [sIDX...]``: stores the elements of vS the same way.

FIFO and sync, between engines (``sPEER`` holds the peer's unit index; ``id`` is the
dfir pair id, the same number at both ends):

- ``send vS, sPEER, id``: pushes vS into the FIFO to the peer; blocks while it is full.
- ``recv vD, sPEER, id, <type>, len``: pops a vector of ``len`` elements of the type from
  the FIFO from the peer; blocks while it is empty.
- ``ssend sPEER, id``: signals the peer, posted: the engine goes on at once, and the
  signal leaves once every earlier copy and store of the engine has completed (a DMA
  engine's completion notice of the last descriptor issued before it; later copies do
  not delay it).
- ``srecv sPEER, id``: waits for (and consumes) one signal ``id`` from the peer.

SIMD compute:

- ``vop.<kind> <type> <source type> vD, [vA...]``: vD = kind(vA, ...) elementwise, with
  the numerics of ``ktc.sim.numerics`` for the element type; ``kind`` is a
  ``ktc.dialects.dfir.ComputeKind`` (``fma`` is a * b + c). Operands have the source
  type, the result the type; they differ only for a kind with parameters
  (``dfir.PARAMETERS``), which computes on f32 operands and gives its result in the
  data's own type.
- ``vconst vD, <type>, len, [bits...]``: vD = a vector of ``len`` elements given by
  their storage bits: one value (a splat) or exactly ``len``.
- ``vsplat vD, sA, <type>, len``: vD = ``len`` copies of the element whose storage bits
  are the low bits of sA.
- ``vmov vD, vA``: vD = vA.
- ``vreduce.<kind> <type> vD, vA``: vD = a one-element vector, vA's lanes folded with
  the kind (a ``ktc.dialects.dfir.ReduceKind``: add, mul, max, min; ``ktc.sim.numerics``).
- ``vbcast vD, vA, len``: vD = ``len`` copies of the one element of vA.
- ``vcvt <type> <source type> vD, vA``: vD = vA converted lane by lane from the source
  type to the type, rounding to nearest even.

Matrix unit:

- ``vmma.<layout> <type> <source type> vD, vC, vA, vB, m, k, n``: vD = vC + vA · vB, vA an
  ``m x k`` and vB a ``k x n`` matrix of the source type, vC and vD ``m x n`` of the
  type, all row-major, but vB ``n x k`` row-major for the layout ``nk`` (``kn`` the
  other; ``MATRIX_LAYOUTS``), on a unit that takes it so; the products are added to
  vC exactly and rounded once to the type. On a unit of ``rows x lanes`` it takes ``k * ceil(m / rows) * ceil(n / lanes)``
  steps (``ktc.arch.model.MatrixUnit``).

Which engines may run an instruction is ``RUNS_ON``, by ``ENGINE_CLASSES``.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import ClassVar

from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, IndexType, IntegerType
from xdsl.ir import Attribute

from ktc.dialects.dfir import ARITY, ComputeKind, ReduceKind
from ktc.dialects.spyreop import DF16Type
from ktc.errors import KtcError


class IsaError(KtcError):
    """Code that is not a well-formed program, or an instruction that cannot be encoded."""


WORD = 8
"""Bytes per header or extension word."""

REGISTERS = {"s": 64, "v": 64, "d": 32}
"""Register files: prefix and count."""

ELEMENT_TYPES: dict[str, Attribute] = {
    "f16": Float16Type(),
    "f32": Float32Type(),
    "f64": Float64Type(),
    "df16": DF16Type(),
    "i1": IntegerType(1),
    "i8": IntegerType(8),
    "i16": IntegerType(16),
    "i32": IntegerType(32),
    "i64": IntegerType(64),
    "index": IndexType(),
}
"""Element type names and the IR type each stands for (the device model keys SIMD
lanes by the type)."""

TYPES = tuple(ELEMENT_TYPES)
"""Element types; the code of ``TYPES[i]`` is ``i + 1`` (0 is no type)."""

ALU_OPS = (
    "add", "sub", "mul", "divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui",
    "floordivsi", "minsi", "maxsi", "minui", "maxui", "and", "or", "xor", "shl", "shrsi",
    "shrui", "cmp.eq", "cmp.ne", "cmp.slt", "cmp.sle", "cmp.sgt", "cmp.sge", "cmp.ult",
    "cmp.ule", "cmp.ugt", "cmp.uge",
)
"""ALU operations; the variant code is the position."""

VECTOR_KINDS = tuple(kind.value for kind in ComputeKind)
"""Vector op kinds, in ``ComputeKind`` order; the variant code is the position."""

REDUCE_KINDS = tuple(kind.value for kind in ReduceKind)
"""Horizontal reduction kinds, in ``ReduceKind`` order; the variant code is the position."""

_INT64 = struct.Struct("<q")
_HEADER = struct.Struct("<BBBB4B")


# Operand fields: what each dataclass field is and where it is encoded.


def sreg():
    """A scalar register in the next header register field."""
    return field(metadata={"slot": "reg", "file": "s"})


def vreg():
    return field(metadata={"slot": "reg", "file": "v"})


def dreg():
    return field(metadata={"slot": "reg", "file": "d"})


def variant(table: tuple[str, ...]):
    """A name from ``table``, encoded as its position in the variant byte."""
    return field(metadata={"slot": "variant", "table": table})


def element_type(second: bool = False):
    """An element type name from ``TYPES`` in the first (or second) type field."""
    return field(metadata={"slot": "type2" if second else "type"})


def imm():
    """A signed 64-bit immediate in the next extension word."""
    return field(metadata={"slot": "imm"})


def count():
    """A non-negative immediate (a length, an index) in the next extension word."""
    return field(metadata={"slot": "imm", "nonnegative": True})


def pc():
    """A pc (an instruction index) in the next extension word."""
    return field(metadata={"slot": "pc"})


def sregs():
    """A list of scalar registers, one per extension word after the fixed ones."""
    return field(metadata={"slot": "list", "file": "s"})


def vregs():
    return field(metadata={"slot": "list", "file": "v"})


def imms():
    """A list of immediates, one per extension word after the fixed ones."""
    return field(metadata={"slot": "list", "file": None})


# Instructions


@dataclass(frozen=True)
class Instruction:
    """Base of every instruction; subclasses set ``OPCODE`` and ``MNEMONIC``."""

    OPCODE: ClassVar[int]
    MNEMONIC: ClassVar[str]

    def check(self) -> None:
        """Raises IsaError when the operands break a rule beyond their field widths."""


@dataclass(frozen=True)
class Li(Instruction):
    """``li sD, imm``: sD = imm; a symbol's relocation patches imm."""

    OPCODE: ClassVar = 0x01
    MNEMONIC: ClassVar = "li"
    dst: int = sreg()
    value: int = imm()


@dataclass(frozen=True)
class Uni(Instruction):
    """``uni sD, k``: sD = uniform k of this instance."""

    OPCODE: ClassVar = 0x02
    MNEMONIC: ClassVar = "uni"
    dst: int = sreg()
    index: int = count()


@dataclass(frozen=True)
class Mov(Instruction):
    """``mov sD, sA``: sD = sA."""

    OPCODE: ClassVar = 0x03
    MNEMONIC: ClassVar = "mov"
    dst: int = sreg()
    src: int = sreg()


@dataclass(frozen=True)
class Alu(Instruction):
    """``alu.<op> sD, sA, sB``: sD = sA op sB (``ALU_OPS``)."""

    OPCODE: ClassVar = 0x04
    MNEMONIC: ClassVar = "alu"
    op: str = variant(ALU_OPS)
    dst: int = sreg()
    a: int = sreg()
    b: int = sreg()


@dataclass(frozen=True)
class Select(Instruction):
    """``select sD, sC, sA, sB``: sD = sA if sC != 0 else sB."""

    OPCODE: ClassVar = 0x05
    MNEMONIC: ClassVar = "select"
    dst: int = sreg()
    cond: int = sreg()
    a: int = sreg()
    b: int = sreg()


@dataclass(frozen=True)
class Loop(Instruction):
    """``loop sI, sLB, sUB, sSTEP, #end``: sI = sLB; skip to ``end`` unless sI < sUB."""

    OPCODE: ClassVar = 0x10
    MNEMONIC: ClassVar = "loop"
    var: int = sreg()
    lower: int = sreg()
    upper: int = sreg()
    step: int = sreg()
    end: int = pc()


@dataclass(frozen=True)
class EndLoop(Instruction):
    """``endloop sI, sUB, sSTEP, #body``: sI += sSTEP; back to ``body`` while sI < sUB."""

    OPCODE: ClassVar = 0x11
    MNEMONIC: ClassVar = "endloop"
    var: int = sreg()
    upper: int = sreg()
    step: int = sreg()
    body: int = pc()


@dataclass(frozen=True)
class Brz(Instruction):
    """``brz sC, #target``: jump when sC == 0."""

    OPCODE: ClassVar = 0x12
    MNEMONIC: ClassVar = "brz"
    cond: int = sreg()
    target: int = pc()


@dataclass(frozen=True)
class Jmp(Instruction):
    """``jmp #target``."""

    OPCODE: ClassVar = 0x13
    MNEMONIC: ClassVar = "jmp"
    target: int = pc()


@dataclass(frozen=True)
class Halt(Instruction):
    """``halt``: the program ends."""

    OPCODE: ClassVar = 0x14
    MNEMONIC: ClassVar = "halt"


@dataclass(frozen=True)
class View(Instruction):
    """``view dD, sUNIT, sADDR, <type>, [shape], [strides]``: a view descriptor."""

    OPCODE: ClassVar = 0x20
    MNEMONIC: ClassVar = "view"
    dst: int = dreg()
    unit: int = sreg()
    address: int = sreg()
    dtype: str = element_type()
    shape: tuple[int, ...] = imms()
    strides: tuple[int, ...] = imms()

    def check(self) -> None:
        if len(self.shape) != len(self.strides):
            raise IsaError(f"view has {len(self.shape)} dimensions and "
                           f"{len(self.strides)} strides")
        if any(size < 0 for size in self.shape):
            raise IsaError(f"view has a negative dimension in {list(self.shape)}")


@dataclass(frozen=True)
class Dim(Instruction):
    """``dim dV, sN, k``: dimension ``k`` of view dV becomes sN."""

    OPCODE: ClassVar = 0x24
    MNEMONIC: ClassVar = "dim"
    view: int = dreg()
    size: int = sreg()
    dimension: int = count()


@dataclass(frozen=True)
class Dma(Instruction):
    """``dma dSRC, dDST``: starts copying one view into another."""

    OPCODE: ClassVar = 0x21
    MNEMONIC: ClassVar = "dma"
    src: int = dreg()
    dst: int = dreg()


@dataclass(frozen=True)
class Dmaz(Instruction):
    """``dmaz dSRC, dDST``: copies a view into the leading corner of another and
    zeros the rest of it."""

    OPCODE: ClassVar = 0x25
    MNEMONIC: ClassVar = "dmaz"
    src: int = dreg()
    dst: int = dreg()


@dataclass(frozen=True)
class Ldx(Instruction):
    """``ldx sD, dV, [sIDX...]``: reads one integer element of a view."""

    OPCODE: ClassVar = 0x26
    MNEMONIC: ClassVar = "ldx"
    dst: int = sreg()
    view: int = dreg()
    indices: tuple[int, ...] = sregs()


@dataclass(frozen=True)
class Dmai(Instruction):
    """``dmai dSRC, dDST``: a ``dma`` whose descriptor is written at run time."""

    OPCODE: ClassVar = 0x27
    MNEMONIC: ClassVar = "dmai"
    src: int = dreg()
    dst: int = dreg()


@dataclass(frozen=True)
class Dmaiz(Instruction):
    """``dmaiz dSRC, dDST``: a ``dmai`` that zeros what its source does not cover."""

    OPCODE: ClassVar = 0x28
    MNEMONIC: ClassVar = "dmaiz"
    src: int = dreg()
    dst: int = dreg()


@dataclass(frozen=True)
class Vld(Instruction):
    """``vld vD, dV, len, [sIDX...]``: ``len`` elements along the innermost dimension."""

    OPCODE: ClassVar = 0x22
    MNEMONIC: ClassVar = "vld"
    dst: int = vreg()
    view: int = dreg()
    length: int = count()
    indices: tuple[int, ...] = sregs()


@dataclass(frozen=True)
class Vst(Instruction):
    """``vst vS, dV, [sIDX...]``: stores vS along the innermost dimension."""

    OPCODE: ClassVar = 0x23
    MNEMONIC: ClassVar = "vst"
    src: int = vreg()
    view: int = dreg()
    indices: tuple[int, ...] = sregs()


@dataclass(frozen=True)
class Send(Instruction):
    """``send vS, sPEER, id``: pushes vS into the FIFO to the peer unit."""

    OPCODE: ClassVar = 0x30
    MNEMONIC: ClassVar = "send"
    src: int = vreg()
    peer: int = sreg()
    id: int = imm()


@dataclass(frozen=True)
class Recv(Instruction):
    """``recv vD, sPEER, id, <type>, len``: pops a vector from the FIFO from the peer."""

    OPCODE: ClassVar = 0x31
    MNEMONIC: ClassVar = "recv"
    dst: int = vreg()
    peer: int = sreg()
    id: int = imm()
    dtype: str = element_type()
    length: int = count()


@dataclass(frozen=True)
class Ssend(Instruction):
    """``ssend sPEER, id``: a sync signal to the peer."""

    OPCODE: ClassVar = 0x32
    MNEMONIC: ClassVar = "ssend"
    peer: int = sreg()
    id: int = imm()


@dataclass(frozen=True)
class Srecv(Instruction):
    """``srecv sPEER, id``: waits for the peer's sync signal."""

    OPCODE: ClassVar = 0x33
    MNEMONIC: ClassVar = "srecv"
    peer: int = sreg()
    id: int = imm()


@dataclass(frozen=True)
class Vop(Instruction):
    """``vop.<kind> <type>, <source type>, vD, [vA...]``: one SIMD instruction."""

    OPCODE: ClassVar = 0x40
    MNEMONIC: ClassVar = "vop"
    kind: str = variant(VECTOR_KINDS)
    dtype: str = element_type()
    source_type: str = element_type(second=True)
    dst: int = vreg()
    sources: tuple[int, ...] = vregs()

    def check(self) -> None:
        arity = ARITY[ComputeKind(self.kind)]
        if len(self.sources) != arity:
            raise IsaError(f"vop.{self.kind} takes {arity} operands, got {len(self.sources)}")


@dataclass(frozen=True)
class Vconst(Instruction):
    """``vconst vD, <type>, len, [bits...]``: a constant vector (one value: a splat)."""

    OPCODE: ClassVar = 0x41
    MNEMONIC: ClassVar = "vconst"
    dst: int = vreg()
    dtype: str = element_type()
    length: int = count()
    values: tuple[int, ...] = imms()

    def check(self) -> None:
        if len(self.values) not in (1, self.length):
            raise IsaError(f"vconst of {self.length} elements has {len(self.values)} values")


@dataclass(frozen=True)
class Vsplat(Instruction):
    """``vsplat vD, sA, <type>, len``: ``len`` copies of the element bits in sA."""

    OPCODE: ClassVar = 0x42
    MNEMONIC: ClassVar = "vsplat"
    dst: int = vreg()
    src: int = sreg()
    dtype: str = element_type()
    length: int = count()


@dataclass(frozen=True)
class Vmov(Instruction):
    """``vmov vD, vA``: vD = vA."""

    OPCODE: ClassVar = 0x43
    MNEMONIC: ClassVar = "vmov"
    dst: int = vreg()
    src: int = vreg()


@dataclass(frozen=True)
class Vreduce(Instruction):
    """``vreduce.<kind> <type>, vD, vA``: vA's lanes folded into one element."""

    OPCODE: ClassVar = 0x44
    MNEMONIC: ClassVar = "vreduce"
    kind: str = variant(REDUCE_KINDS)
    dtype: str = element_type()
    dst: int = vreg()
    src: int = vreg()


@dataclass(frozen=True)
class Vbcast(Instruction):
    """``vbcast vD, vA, len``: ``len`` copies of vA's one element."""

    OPCODE: ClassVar = 0x45
    MNEMONIC: ClassVar = "vbcast"
    dst: int = vreg()
    src: int = vreg()
    length: int = count()


@dataclass(frozen=True)
class Vcvt(Instruction):
    """``vcvt <type>, <source type>, vD, vA``: converts the element type."""

    OPCODE: ClassVar = 0x46
    MNEMONIC: ClassVar = "vcvt"
    dtype: str = element_type()
    source_type: str = element_type(second=True)
    dst: int = vreg()
    src: int = vreg()


MATRIX_LAYOUTS = ("kn", "nk")
"""How a ``vmma``'s right operand lies: ``k x n`` row-major, or ``n x k`` (transposed,
on a unit with ``transposed_rhs``); the variant code is the position."""


@dataclass(frozen=True)
class Vmma(Instruction):
    """``vmma.<layout> <type>, <source type>, vD, vC, vA, vB, m, k, n``: vD = vC + vA · vB
    on the matrix unit (vA ``m x k``, vC and vD ``m x n``, row-major; vB ``k x n``
    row-major, or ``n x k`` for the layout ``nk``)."""

    OPCODE: ClassVar = 0x47
    MNEMONIC: ClassVar = "vmma"
    dtype: str = element_type()
    source_type: str = element_type(second=True)
    dst: int = vreg()
    acc: int = vreg()
    a: int = vreg()
    b: int = vreg()
    m: int = count()
    k: int = count()
    n: int = count()
    rhs: str = field(default="kn", metadata={"slot": "variant", "table": MATRIX_LAYOUTS})

    def check(self) -> None:
        if 0 in (self.m, self.k, self.n):
            raise IsaError(f"vmma of an empty product ({self.m} x {self.k} by {self.k} x {self.n})")


INSTRUCTIONS: tuple[type[Instruction], ...] = (
    Li, Uni, Mov, Alu, Select, Loop, EndLoop, Brz, Jmp, Halt, View, Dim, Dma, Dmaz, Ldx, Dmai,
    Dmaiz,
    Vld, Vst,
    Send, Recv, Ssend, Srecv, Vop, Vconst, Vsplat, Vmov, Vreduce, Vbcast, Vcvt, Vmma,
)
"""Every instruction class."""

BY_OPCODE: dict[int, type[Instruction]] = {cls.OPCODE: cls for cls in INSTRUCTIONS}
assert len(BY_OPCODE) == len(INSTRUCTIONS), "two instructions share an opcode"


ENGINE_CLASSES = ("dma", "load", "store", "compute", "splat", "matrix")
"""What an engine kind does: moves memory to memory (a DMA engine, or a ring stop moving
between cores), loads from a memory into FIFOs, stores from FIFOs into a memory,
computes on vectors (and broadcasts a lane), broadcasts a lane (the ``splat`` feature
of a load unit), multiplies matrices (a matrix unit, fed and drained through FIFOs).
A kind may be several (a load/store unit)."""

_VECTOR_ENGINES = frozenset({"load", "store", "compute", "matrix"})

RUNS_ON: dict[type[Instruction], frozenset[str]] = {
    Dma: frozenset({"dma"}),
    Dmaz: frozenset({"dma"}),
    Ldx: frozenset({"dma"}),
    Dmai: frozenset({"dma"}),
    Dmaiz: frozenset({"dma"}),
    Vld: frozenset({"load"}),
    Vst: frozenset({"store"}),
    Send: frozenset({"load", "compute", "matrix"}),
    Recv: frozenset({"store", "compute", "matrix"}),
    Vmma: frozenset({"matrix"}),
    Vop: frozenset({"compute"}),
    Vconst: _VECTOR_ENGINES,
    Vsplat: _VECTOR_ENGINES,
    Vmov: _VECTOR_ENGINES,
    Vreduce: frozenset({"compute"}),
    Vbcast: frozenset({"compute", "splat"}),
    Vcvt: frozenset({"compute"}),
}
"""The engine classes that can run an instruction (any one of them); an instruction
not listed (scalar, control, views, sync signals) runs on every engine."""


def slots(cls: type[Instruction]) -> list[tuple[str, dict]]:
    """The operand fields of an instruction class, in order: (name, metadata)."""
    return [(f.name, dict(f.metadata)) for f in fields(cls)]


def operands(instruction: Instruction) -> list[tuple[str, dict, object]]:
    """(name, metadata, value) for each operand of ``instruction``, in order."""
    return [(name, meta, getattr(instruction, name)) for name, meta in slots(type(instruction))]


def _extension_order_holds(cls: type[Instruction]) -> bool:
    """Fixed extension fields come before the lists, so extension words read in field order."""
    kinds = [meta["slot"] for _, meta in slots(cls) if meta["slot"] in ("imm", "pc", "list")]
    return kinds == sorted(kinds, key=lambda kind: kind == "list")


assert all(_extension_order_holds(cls) for cls in INSTRUCTIONS)


# Encoding


def _register(file: str, number: int) -> int:
    if not 0 <= number < REGISTERS[file]:
        raise IsaError(f"register {file}{number} does not exist "
                       f"({file}0..{file}{REGISTERS[file] - 1})")
    return number


def _type_code(name: str) -> int:
    if name not in TYPES:
        raise IsaError(f"no element type '{name}'")
    return TYPES.index(name) + 1


def _immediate(meta: dict, value: int) -> int:
    if meta.get("nonnegative") and value < 0:
        raise IsaError(f"a length or index is negative: {value}")
    return value


def _word(value: int) -> bytes:
    if not -(2**63) <= value < 2**63:
        raise IsaError(f"immediate {value} is not a signed 64-bit integer")
    return _INT64.pack(value)


def encode_one(instruction: Instruction) -> bytes:
    """The header and extension words of one instruction."""
    instruction.check()
    code_variant, types, registers, extension = 0, [0, 0], [], []
    for _, meta, value in operands(instruction):
        slot = meta["slot"]
        if slot == "reg":
            registers.append(_register(meta["file"], value))
        elif slot == "variant":
            if value not in meta["table"]:
                raise IsaError(f"no {instruction.MNEMONIC} operation '{value}'")
            code_variant = meta["table"].index(value)
        elif slot in ("type", "type2"):
            types[slot == "type2"] = _type_code(value)
        elif slot in ("imm", "pc"):
            extension.append(_immediate(meta, value))
        elif meta["file"] is None:
            extension += value
        else:
            extension += [_register(meta["file"], item) for item in value]
    if len(extension) > 255:
        raise IsaError(f"{instruction.MNEMONIC} needs {len(extension)} extension words, "
                       "at most 255 fit")
    registers += [0] * (4 - len(registers))
    header = _HEADER.pack(instruction.OPCODE, code_variant, types[0] | types[1] << 4,
                          len(extension), *registers)
    return header + b"".join(_word(value) for value in extension)


def encode(instructions: Sequence[Instruction]) -> bytes:
    """The code of a program."""
    return b"".join(encode_one(instruction) for instruction in instructions)


def offsets(instructions: Sequence[Instruction]) -> list[int]:
    """The byte offset of each instruction in the code, and the code's length last."""
    result = [0]
    for instruction in instructions:
        result.append(result[-1] + len(encode_one(instruction)))
    return result


# Decoding


def _decode_one(code: bytes, at: int) -> tuple[Instruction, int]:
    """The instruction whose header starts at byte ``at``, and where the next starts."""
    opcode, code_variant, types, count, *registers = _HEADER.unpack_from(code, at)
    cls = BY_OPCODE.get(opcode)
    if cls is None:
        raise IsaError(f"unknown opcode 0x{opcode:02x}")
    end = at + WORD * (1 + count)
    if end > len(code):
        raise IsaError(f"{cls.MNEMONIC} has {count} extension words, the code ends before them")
    extension = list(struct.unpack_from(f"<{count}q", code, at + WORD))
    meta_list = slots(cls)
    present = {meta["slot"] for _, meta in meta_list}
    for slot, value in (("variant", code_variant), ("type", types & 15), ("type2", types >> 4)):
        if slot not in present and value:
            raise IsaError(f"{cls.MNEMONIC} sets its unused {slot} field")
    used = sum(1 for _, meta in meta_list if meta["slot"] == "reg")
    if any(registers[used:]):
        raise IsaError(f"{cls.MNEMONIC} sets an unused register field")
    fixed = sum(1 for _, meta in meta_list if meta["slot"] in ("imm", "pc"))
    length = _list_length(cls, count - fixed, sum(1 for _, meta in meta_list
                                                  if meta["slot"] == "list"))
    values: dict[str, object] = {}
    registers.reverse()
    for name, meta in meta_list:
        slot = meta["slot"]
        if slot == "reg":
            values[name] = _register(meta["file"], registers.pop())
        elif slot == "variant":
            values[name] = _from_table(meta["table"], code_variant, cls)
        elif slot in ("type", "type2"):
            values[name] = _type_name(types >> 4 if slot == "type2" else types & 15)
        elif slot in ("imm", "pc"):
            values[name] = _immediate(meta, extension.pop(0))
        else:
            items, extension = extension[:length], extension[length:]
            values[name] = tuple(items if meta["file"] is None
                                 else [_register(meta["file"], item) for item in items])
    instruction = cls(**values)
    instruction.check()
    return instruction, end


def _list_length(cls: type[Instruction], words: int, lists: int) -> int:
    """The length of each variable list, given the extension words left for them."""
    if words < 0:
        raise IsaError(f"{cls.MNEMONIC} has too few extension words")
    if lists == 0 and words:
        raise IsaError(f"{cls.MNEMONIC} has {words} extension words too many")
    if lists == 0:
        return 0
    if words % lists:
        raise IsaError(f"{cls.MNEMONIC}: {words} extension words do not split into "
                       f"{lists} equal lists")
    return words // lists


def _from_table(table: tuple[str, ...], code: int, cls: type[Instruction]) -> str:
    if code >= len(table):
        raise IsaError(f"{cls.MNEMONIC} has no variant {code}")
    return table[code]


def _type_name(code: int) -> str:
    if not 1 <= code <= len(TYPES):
        raise IsaError(f"no element type with code {code}")
    return TYPES[code - 1]


def decode(code: bytes) -> list[Instruction]:
    """The program in ``code``; raises IsaError (with the byte offset) for malformed code:
    a length that is not whole words, an unknown opcode or variant, a register or type
    out of range, missing extension words, a jump outside the program."""
    if len(code) % WORD:
        raise IsaError(f"code of {len(code)} bytes is not a whole number of {WORD}-byte words")
    instructions: list[Instruction] = []
    at = 0
    while at < len(code):
        try:
            instruction, next_at = _decode_one(code, at)
        except IsaError as error:
            raise IsaError(f"at byte {at}: {error.message}") from None
        instructions.append(instruction)
        at = next_at
    _check_targets(instructions)
    return instructions


def _check_targets(instructions: list[Instruction]) -> None:
    """Every pc names an instruction or the end; every loop's pcs pair with its endloop."""
    for index, instruction in enumerate(instructions):
        for name, meta, value in operands(instruction):
            if meta["slot"] == "pc" and not 0 <= value <= len(instructions):
                raise IsaError(f"{instruction.MNEMONIC} at pc {index}: {name} {value} "
                               f"is outside the program of {len(instructions)} instructions")
        if isinstance(instruction, Loop) and not _closes(instructions, instruction.end - 1, index):
            raise IsaError(f"loop at pc {index}: pc {instruction.end - 1} is not its endloop")
        if isinstance(instruction, EndLoop) and not _closes(instructions, index,
                                                             instruction.body - 1):
            raise IsaError(f"endloop at pc {index}: pc {instruction.body - 1} is not its loop")


def _closes(instructions: list[Instruction], end: int, start: int) -> bool:
    """Whether ``endloop`` at ``end`` closes the ``loop`` at ``start`` (same registers)."""
    if not (0 <= start < end < len(instructions)):
        return False
    loop, endloop = instructions[start], instructions[end]
    return (isinstance(loop, Loop) and isinstance(endloop, EndLoop)
            and loop.end == end + 1 and endloop.body == start + 1
            and (loop.var, loop.upper, loop.step) == (endloop.var, endloop.upper, endloop.step))
