"""The vector steps of the four-lane widget (:func:`gamelab.yatzy._widget_kernels.widget_lanes`),
written as LLVM vector instructions (numba intrinsics, callable from kernels only).

numba leaves LLVM's superword vectoriser off (it once miscompiled), and its loop vectoriser does
not take the widget's short lane loops, whose loads and stores share one array: written as
numba loops, the four lanes of a widget ran one after the other, one scalar at a time. Each step
here works on whole rows of the lane buffers: K [462, 8] (column l < 4 the value of lane l,
column 4 + l its second moment), A [462, 4] (the best sub-keep of each lane) and the successor
table T [7, 8] (the same two halves). Every lane computes what the scalar code computes, in the
same order of operations and with the same comparisons (no fast-math: IEEE arithmetic lane by
lane), so the tables stay equal bit for bit; the plain-Python twin is still
:func:`gamelab.yatzy._widget_kernels.widget_python`.

The arrays must be C-contiguous (the rows are loaded as vectors) and the row indices in range:
nothing is checked inside (the kernels index only by the rule tables).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_F64 = ir.DoubleType()
_I64 = ir.IntType(64)
_I32 = ir.IntType(32)
#: lanes of a widget_lanes call (a vector of four float64: one AVX register)
WIDTH = 4


def _c_arrays(*arrays) -> bool:
    return all(isinstance(a, types.Array) and a.layout == "C" and a.ndim == 2 for a in arrays)


def item_pointer(context, builder, aryty, ary, inds):
    """A pointer to ary[inds] (no bounds check, no wraparound): the element the intrinsics here
    and in :mod:`gamelab.yatzy._atomic_ops` load and store."""
    arr = context.make_array(aryty)(context, builder, ary)
    return cgutils.get_item_pointer2(
        context,
        builder,
        data=arr.data,
        shape=cgutils.unpack_tuple(builder, arr.shape),
        strides=cgutils.unpack_tuple(builder, arr.strides),
        layout=aryty.layout,
        inds=inds,
        wraparound=False,
        boundscheck=False,
    )


def _row(context, builder, aryty, ary, row, col, vec):
    """A pointer to ary[row, col] as a vector pointer."""
    ptr = item_pointer(context, builder, aryty, ary, [row, col])
    return builder.bitcast(ptr, vec.as_pointer())


def _splat(builder, value, vec):
    undef = ir.Constant(vec, ir.Undefined)
    first = builder.insert_element(undef, value, ir.Constant(_I32, 0))
    return builder.shuffle_vector(
        first, undef, ir.Constant(ir.VectorType(_I32, vec.count), [0] * vec.count)
    )


@intrinsic
def mean6_row(typingctx, K, k, x0, x1, x2, x3, x4, x5):
    """K[k, :8] = (0 + K[x0] + K[x1] + K[x2] + K[x3] + K[x4] + K[x5]) / 6, added left to right
    (the keep recursion of the two halves of four lanes at once)."""
    if not _c_arrays(K):
        return None
    sig = types.void(K, k, x0, x1, x2, x3, x4, x5)

    def codegen(context, builder, signature, args):
        vec = ir.VectorType(_F64, 2 * WIDTH)
        aryty = signature.args[0]
        zero = context.get_constant(types.intp, 0)
        acc = ir.Constant(vec, [0.0] * vec.count)
        for x in args[2:]:
            acc = builder.fadd(
                acc, builder.load(_row(context, builder, aryty, args[0], x, zero, vec), align=8)
            )
        acc = builder.fdiv(acc, ir.Constant(vec, [6.0] * vec.count))
        builder.store(acc, _row(context, builder, aryty, args[0], args[1], zero, vec), align=8)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def best_keep(typingctx, K, A, k, subs, start, stop):
    """The best keep of row k in each lane (values K[:, :4], best keeps A): K[k] and keep k
    against K[s] and A[s] for s in subs[start:stop] (the keeps with one die fewer), in that
    order; a larger value wins, an equal one when its keep index is smaller. Leaves the winners
    in K[k, :4] and A[k]."""
    if not _c_arrays(K, A):
        return None
    sig = types.void(K, A, k, subs, start, stop)

    def codegen(context, builder, signature, args):
        fv = ir.VectorType(_F64, WIDTH)
        iv = ir.VectorType(_I64, WIDTH)
        kt, at, st = signature.args[0], signature.args[1], signature.args[3]
        zero = context.get_constant(types.intp, 0)
        one = context.get_constant(types.intp, 1)
        pk = _row(context, builder, kt, args[0], args[2], zero, fv)
        qk = _row(context, builder, at, args[1], args[2], zero, iv)
        best = cgutils.alloca_once(builder, fv)
        arg = cgutils.alloca_once(builder, iv)
        builder.store(builder.load(pk, align=8), best)
        builder.store(_splat(builder, args[2], iv), arg)
        subs = context.make_array(st)(context, builder, args[3])
        with cgutils.for_range_slice(builder, args[4], args[5], one, inc=True) as (i, _):
            s = builder.load(builder.gep(subs.data, [i]))
            v = builder.load(_row(context, builder, kt, args[0], s, zero, fv), align=8)
            sa = builder.load(_row(context, builder, at, args[1], s, zero, iv), align=8)
            b = builder.load(best)
            a = builder.load(arg)
            wins = builder.or_(
                builder.fcmp_ordered(">", v, b),
                builder.and_(builder.fcmp_ordered("==", v, b), builder.icmp_signed("<", sa, a)),
            )
            builder.store(builder.select(wins, v, b), best)
            builder.store(builder.select(wins, sa, a), arg)
        builder.store(builder.load(best), pk, align=8)
        builder.store(builder.load(arg), qk, align=8)
        return context.get_dummy_value()

    return sig, codegen


def _halves(context, builder, signature, args):
    """(pointers to K[row]'s two halves, T[c]'s first half loaded) for the place_* steps."""
    fv = ir.VectorType(_F64, WIDTH)
    kt, tt = signature.args[0], signature.args[2]
    zero = context.get_constant(types.intp, 0)
    half = context.get_constant(types.intp, WIDTH)
    pv = _row(context, builder, kt, args[0], args[1], zero, fv)
    pw = _row(context, builder, kt, args[0], args[1], half, fv)
    e = builder.load(_row(context, builder, tt, args[2], args[3], zero, fv), align=8)
    return pv, pw, e


def _second_half(context, builder, signature, args):
    """T[c]'s second half, loaded."""
    fv = ir.VectorType(_F64, WIDTH)
    half = context.get_constant(types.intp, WIDTH)
    return builder.load(
        _row(context, builder, signature.args[2], args[2], args[3], half, fv), align=8
    )


def _replace_where_larger(builder, pv, pw, v, second):
    """In each lane where v beats the value at pv, v replaces it and `second` the value at pw."""
    cur = builder.load(pv, align=8)
    wins = builder.fcmp_ordered(">", v, cur)
    builder.store(builder.select(wins, v, cur), pv, align=8)
    builder.store(builder.select(wins, second, builder.load(pw, align=8)), pw, align=8)


@intrinsic
def place_row(typingctx, K, row, T, c):
    """A box whose candidates are in T[c] (value T[c, l], second moment T[c, 4 + l]) against the
    best box so far of a roll, K[row]: in each lane where the value is larger, it replaces
    both."""
    if not _c_arrays(K, T):
        return None
    sig = types.void(K, row, T, c)

    def codegen(context, builder, signature, args):
        pv, pw, v = _halves(context, builder, signature, args)
        w = _second_half(context, builder, signature, args)
        _replace_where_larger(builder, pv, pw, v, w)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def place_points(typingctx, K, row, T, c, pts):
    """A box that scores `pts` (an integer) and leads to the successors in T[c] (value e = T[c,
    l], second moment w = T[c, 4 + l]) against the best box so far, K[row]: with s = pts as a
    float, s + e replaces the value where it is larger, and s * s + 2 s e + w (added in that
    order) the second moment."""
    if not _c_arrays(K, T) or not isinstance(pts, types.Integer):
        return None
    sig = types.void(K, row, T, c, pts)

    def codegen(context, builder, signature, args):
        fv = ir.VectorType(_F64, WIDTH)
        pv, pw, e = _halves(context, builder, signature, args)
        w = _second_half(context, builder, signature, args)
        s = builder.sitofp(args[4], _F64)
        v = builder.fadd(_splat(builder, s, fv), e)
        square = _splat(builder, builder.fmul(s, s), fv)
        twice = _splat(builder, builder.fmul(ir.Constant(_F64, 2.0), s), fv)
        vw = builder.fadd(builder.fadd(square, builder.fmul(twice, e)), w)
        _replace_where_larger(builder, pv, pw, v, vw)
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def place_box(typingctx, K, row, T, c, pts, b):
    """:func:`place_points` for the decisions: where s + e is larger, the value and box `b` (as a
    float, in the second half) replace the best so far."""
    if (
        not _c_arrays(K, T)
        or not isinstance(pts, types.Integer)
        or not isinstance(b, types.Integer)
    ):
        return None
    sig = types.void(K, row, T, c, pts, b)

    def codegen(context, builder, signature, args):
        fv = ir.VectorType(_F64, WIDTH)
        pv, pw, e = _halves(context, builder, signature, args)
        v = builder.fadd(_splat(builder, builder.sitofp(args[4], _F64), fv), e)
        box = _splat(builder, builder.sitofp(args[5], _F64), fv)
        _replace_where_larger(builder, pv, pw, v, box)
        return context.get_dummy_value()

    return sig, codegen
