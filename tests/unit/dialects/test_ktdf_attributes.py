"""The attributes that ktdf declares for passes to hand on: typed accessors read back
what they wrote, what they write passes the module verifier, and the verifier is
found for every declared name, prefixed or not."""

import pytest
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, StringAttr, f16
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, Region

from ktc.dialects import UNPREFIXED_ATTRIBUTES, ktdf
from ktc.dialects.diagnostics import KtcError
from ktc.dialects.source import verify_module


def _module(*ops: Operation) -> tuple[FuncOp, ModuleOp]:
    func = FuncOp("f", ((), ()), Region(Block([*ops, ReturnOp()])))
    return func, ModuleOp([func])


def test_address_and_stride_round_trip():
    alloc = memref.AllocOp([], [], MemRefType(f16, [8], memory_space=StringAttr("L1")))
    assert ktdf.address(alloc) is None and ktdf.copy_stride(alloc) is None
    ktdf.set_address(alloc, 384)
    ktdf.set_copy_stride(alloc, 128)
    assert (ktdf.address(alloc), ktdf.copy_stride(alloc)) == (384, 128)
    _, module = _module(alloc)
    verify_module(module)


def test_tile_choice_round_trip():
    choice = ktdf.TileChoice(ktdf.BY_COST_MODEL, (4, 16), 840, {"L1": 1024, "SFU_REG": 64},
                             {"L1": 65536, "SFU_REG": 128})
    constant = arith.ConstantOp(IntegerAttr(4, IndexType()))
    ktdf.set_tile_size_chosen_by(constant, ktdf.BY_COST_MODEL)
    func, module = _module(constant)
    ktdf.set_tile_choice(func, choice)
    verify_module(module)
    assert ktdf.tile_choice(func) == choice
    assert ktdf.tile_size_chosen_by(constant) == "cost model"


def test_loop_type_round_trip():
    zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
    loop = scf.ForOp(zero, zero, zero, [], Region(Block([scf.YieldOp()], arg_types=[IndexType()])))
    assert ktdf.loop_type(loop) is None
    ktdf.set_loop_type(loop, ktdf.LoopType.REDUCTION_LOOP)
    assert ktdf.loop_type(loop) == ktdf.LoopType.REDUCTION_LOOP


def test_a_malformed_value_fails_the_module_verifier():
    alloc = memref.AllocOp([], [], MemRefType(f16, [8], memory_space=StringAttr("L1")))
    alloc.attributes[ktdf.ADDRESS] = StringAttr("zero")
    _, module = _module(alloc)
    with pytest.raises(KtcError, match="'ktdf.address' must be a byte offset"):
        verify_module(module)


def test_every_unprefixed_attribute_is_routed_to_its_dialect():
    declared = [name for name in ktdf.DECLARED if not name.startswith("ktdf.")]
    assert declared, "ktdf declares an unprefixed attribute (loop_type)"
    assert {name: UNPREFIXED_ATTRIBUTES.get(name) for name in declared} == dict.fromkeys(declared, "ktdf")

