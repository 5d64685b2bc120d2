"""Atomic operations on the simulation's decision cache, shared by the threads that play a
chunk's games (numba intrinsics, callable from kernels only).

The cache (:func:`gamelab.yatzy._turn_kernels.decision_cache_arrays`) maps a state to the row
of its decision tables, ``slot_of[state]``: 0 while nobody has them, :data:`CLAIMED` while a
thread computes them, the row once they are written. A thread claims a state (compare and
swap 0 -> CLAIMED), takes the next free row (``used[0]``, fetch and add), writes the tables and
publishes the row (a release store); a reader that finds a row (an acquire load) reads the
tables written before it. A state claimed by another thread is computed again in the reader's
own row (the same tables: the decisions of a state do not depend on who computes them).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from gamelab.yatzy._lane_ops import item_pointer

#: slot_of's value while a thread computes the state's tables
CLAIMED = -1


def _item(context, builder, aryty, ary, index):
    return item_pointer(context, builder, aryty, ary, [index])


def _int_array(a, bits: int) -> bool:
    want = types.int32 if bits == 32 else types.int64
    return isinstance(a, types.Array) and a.ndim == 1 and a.dtype == want


@intrinsic
def peek(typingctx, a, i):
    """a[i] of an int32 array, read with acquire ordering."""
    if not _int_array(a, 32):
        return None
    sig = types.int32(a, i)

    def codegen(context, builder, signature, args):
        return builder.load_atomic(
            _item(context, builder, signature.args[0], args[0], args[1]), "acquire", 4
        )

    return sig, codegen


@intrinsic
def publish(typingctx, a, i, value):
    """a[i] = value (int32 array), stored with release ordering: what this thread wrote before is
    seen by a thread that then peeks the value."""
    if not _int_array(a, 32):
        return None
    sig = types.void(a, i, value)

    def codegen(context, builder, signature, args):
        ptr = _item(context, builder, signature.args[0], args[0], args[1])
        v = context.cast(builder, args[2], signature.args[2], types.int32)
        builder.store_atomic(v, ptr, "release", 4)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def claim(typingctx, a, i):
    """Whether this call turned a[i] (int32 array) from 0 into :data:`CLAIMED` (compare and swap)."""
    if not _int_array(a, 32):
        return None
    sig = types.boolean(a, i)

    def codegen(context, builder, signature, args):
        ptr = _item(context, builder, signature.args[0], args[0], args[1])
        i32 = ir.IntType(32)
        pair = builder.cmpxchg(
            ptr, ir.Constant(i32, 0), ir.Constant(i32, CLAIMED), "acq_rel", "acquire"
        )
        return builder.extract_value(pair, 1)

    return sig, codegen


@intrinsic
def take(typingctx, a, i):
    """a[i] of an int64 array, then a[i] += 1, at once (fetch and add): the next free row."""
    if not _int_array(a, 64):
        return None
    sig = types.int64(a, i)

    def codegen(context, builder, signature, args):
        ptr = _item(context, builder, signature.args[0], args[0], args[1])
        return builder.atomic_rmw("add", ptr, ir.Constant(ir.IntType(64), 1), "acq_rel")

    return sig, codegen
