"""Triton's semantics, as TTIR: type promotion, broadcasting, casts, memory.

One Semantic per kernel being compiled; it owns the ir.Builder. Every
function takes and returns `tensor`s (Python numbers are converted with
to_tensor first, following Triton's promotion rules for Python scalars).
Errors are TypeError/ValueError with Triton's wording where users know it;
the code generator adds the kernel source location.
"""

import math
import numbers
import struct

from tpx.compiler.ir import Raw
from tpx.language import core as tl
from tpx.language.core import block_type, constexpr, tensor


from tpx.language.core import _unwrap_if_constexpr as _unwrap  # noqa


class IncompatibleTypeErrorImpl(TypeError):
    def __init__(self, type_a, type_b):
        super().__init__("invalid operands of type %s and %s" %
                         (type_a, type_b))


# -- constant text -------------------------------------------------------------

def _round_to_bf16_bits(value):
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if value != value:
        return 0x7FC0
    lsb = (bits >> 16) & 1
    return ((bits + 0x7FFF + lsb) >> 16) & 0xFFFF


def float_bits_text(value, dt):
    """A float constant as MLIR's hex bit pattern (exact for NaN/inf)."""
    if dt.is_fp64():
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    if dt.is_fp32():
        try:
            packed = struct.pack("<f", value)
        except OverflowError:
            packed = struct.pack("<f", math.copysign(math.inf, value))
        return "0x%08X" % struct.unpack("<I", packed)[0]
    if dt.is_fp16():
        try:
            packed = struct.pack("<e", value)
        except OverflowError:
            packed = struct.pack("<e", math.copysign(math.inf, value))
        return "0x%04X" % struct.unpack("<H", packed)[0]
    if dt.is_bf16():
        return "0x%04X" % _round_to_bf16_bits(value)
    raise TypeError("no constant form for %s" % dt)


def scalar_text(value, dt):
    """The attribute text of one element `value` of type `dt`."""
    if dt.is_floating():
        return float_bits_text(float(value), dt)
    if dt.is_bool():
        return "true" if value else "false"
    value = int(value)
    bits = dt.int_bitwidth
    value &= (1 << bits) - 1          # wrap to the type's width
    if value >= 1 << (bits - 1):      # MLIR wants the signed spelling
        value -= 1 << bits
    return str(value)


class Semantic:
    def __init__(self, builder):
        self.builder = builder

    # -- helpers ---------------------------------------------------------------

    def op(self, name, operands, result_type, props=None, attrs=None):
        handles = [o.handle for o in operands]
        value = self.builder.op1(name, handles, result_type.to_ir(), props,
                                 attrs)
        return tensor(value, result_type)

    def constant(self, value, dt, shape=()):
        """arith.constant of `value` (a Python number) in dtype `dt`."""
        if dt.is_fp8():
            # No fp8 literal syntax is worth relying on: build it in f32 and
            # convert as Triton does.
            f = self.constant(value, tl.float32, shape)
            return self.cast(f, dt)
        ty = block_type(dt, shape) if shape else dt
        text = scalar_text(value, dt)
        if shape:
            attr = "dense<%s> : %s" % (text, ty.to_ir())
        elif dt.is_bool():
            attr = text     # `true : i1` does not parse; `true` is an i1
        else:
            attr = "%s : %s" % (text, dt.to_ir())
        return self.op("arith.constant", [], ty, props={"value": Raw(attr)})

    @staticmethod
    def scalar_type(x):
        """The dtype a Python number becomes (Triton's to_tensor rules)."""
        if isinstance(x, bool):
            return tl.int1
        if isinstance(x, int):
            if -2 ** 31 <= x < 2 ** 31:
                return tl.int32
            if 2 ** 31 <= x < 2 ** 32:
                return tl.uint32
            if -2 ** 63 <= x < 2 ** 63:
                return tl.int64
            if 2 ** 63 <= x < 2 ** 64:
                return tl.uint64
            raise ValueError("Nonrepresentable integer %d." % x)
        if isinstance(x, float):
            min_float32 = 2 ** -126
            max_float32 = (2 - 2 ** -23) * 2 ** 127
            abs_x = abs(x)
            if abs_x == math.inf or abs_x == 0.0 or x != x or \
                    min_float32 <= abs_x <= max_float32:
                return tl.float32
            return tl.float64
        raise TypeError("cannot convert %r of type %s to a tensor" %
                        (x, type(x).__name__))

    def to_tensor(self, x, check_type=None):
        x = _unwrap(x)
        if isinstance(x, tensor):
            return x
        if isinstance(x, numbers.Number):
            return self.constant(x, self.scalar_type(x))
        raise TypeError("cannot convert %r of type %s to a tensor" %
                        (x, type(x).__name__))

    # -- type promotion --------------------------------------------------------

    @staticmethod
    def integer_promote_impl(a_ty, b_ty):
        a_rank, b_rank = a_ty.int_bitwidth, b_ty.int_bitwidth
        a_sn, b_sn = a_ty.int_signedness, b_ty.int_signedness
        if a_sn == b_sn:
            return a_ty if a_rank > b_rank else b_ty
        if a_sn == "unsigned":
            return a_ty if a_rank >= b_rank else b_ty
        return b_ty if b_rank >= a_rank else a_ty

    def computation_type_impl(self, a_ty, a_is_scalar, b_ty, b_is_scalar,
                              div_or_mod):
        # Python scalars of a lower or equal kind (bool < int < float) do not
        # take part in the promotion, as in PyTorch.
        if a_is_scalar != b_is_scalar:
            scalar_ty, tensor_ty = (a_ty, b_ty) if a_is_scalar else \
                (b_ty, a_ty)
            if scalar_ty.kind() <= tensor_ty.kind():
                if div_or_mod and tensor_ty in (tl.float16, tl.bfloat16):
                    return tl.float32
                return tensor_ty
        if a_ty.is_fp64() or b_ty.is_fp64():
            return tl.float64
        if a_ty.is_fp32() or b_ty.is_fp32():
            return tl.float32
        if a_ty.is_fp16() or b_ty.is_fp16():
            return tl.float32 if div_or_mod else tl.float16
        if a_ty.is_bf16() and b_ty.is_bf16():
            return tl.float32 if div_or_mod else tl.bfloat16
        if a_ty.is_bf16() or b_ty.is_bf16():
            return tl.float32
        if a_ty.is_fp8() and b_ty.is_fp8():
            return a_ty if a_ty == b_ty else tl.float16
        if not a_ty.is_int() or not b_ty.is_int():
            raise TypeError("unexpected type %s and %s" % (a_ty, b_ty))
        if div_or_mod and a_ty.int_signedness != b_ty.int_signedness:
            raise TypeError(
                "Cannot use /, //, or %% with %r and %r because they have "
                "different signedness; this is unlikely to result in a "
                "useful answer. Cast them to the same signedness." %
                (a_ty, b_ty))
        return self.integer_promote_impl(a_ty, b_ty)

    def check_ptr_type_impl(self, type_a, type_b, allow_ptr_a):
        if type_a.is_ptr():
            if not allow_ptr_a:
                raise IncompatibleTypeErrorImpl(type_a, type_b)
            if type_b.is_ptr() and type_a != type_b:
                raise IncompatibleTypeErrorImpl(type_a, type_b)
            if type_b.is_floating():
                raise IncompatibleTypeErrorImpl(type_a, type_b)

    def binary_op_type_checking_impl(self, lhs, rhs, allow_lhs_ptr=False,
                                     allow_rhs_ptr=False,
                                     arithmetic_check=True, div_or_mod=False):
        lhs, rhs = _unwrap(lhs), _unwrap(rhs)
        lhs_is_scalar = isinstance(lhs, numbers.Number)
        rhs_is_scalar = isinstance(rhs, numbers.Number)
        lhs_scalar, rhs_scalar = lhs, rhs
        lhs_sca_ty = self.scalar_type(lhs) if lhs_is_scalar else \
            self.to_tensor(lhs).type.scalar
        rhs_sca_ty = self.scalar_type(rhs) if rhs_is_scalar else \
            self.to_tensor(rhs).type.scalar
        self.check_ptr_type_impl(lhs_sca_ty, rhs_sca_ty, allow_lhs_ptr)
        self.check_ptr_type_impl(rhs_sca_ty, lhs_sca_ty, allow_rhs_ptr)
        if arithmetic_check and not lhs_sca_ty.is_ptr() and \
                not rhs_sca_ty.is_ptr():
            ret_sca_ty = self.computation_type_impl(
                lhs_sca_ty, lhs_is_scalar, rhs_sca_ty, rhs_is_scalar,
                div_or_mod)
            for is_scalar, value in ((lhs_is_scalar, lhs_is_scalar and
                                      lhs_scalar),
                                     (rhs_is_scalar, rhs_is_scalar and
                                      rhs_scalar)):
                if is_scalar and ret_sca_ty.is_int_unsigned() and \
                        value < 0:
                    raise ValueError(
                        "Cannot perform a binary operation between an "
                        "unsigned tensor and a negative scalar. Perform a "
                        "explicit cast on one of them.")
                if is_scalar and ret_sca_ty.is_int() and \
                        not isinstance(value, bool) and \
                        isinstance(value, int) and not (
                            ret_sca_ty.get_int_min_value() <= value <=
                            ret_sca_ty.get_int_max_value()):
                    raise ValueError(
                        "Scalar %d is out of range for type %s" %
                        (value, ret_sca_ty))
            lhs = self.constant(lhs_scalar, ret_sca_ty) if lhs_is_scalar \
                else self.cast(lhs, ret_sca_ty)
            rhs = self.constant(rhs_scalar, ret_sca_ty) if rhs_is_scalar \
                else self.cast(rhs, ret_sca_ty)
        else:
            lhs = self.to_tensor(lhs)
            rhs = self.to_tensor(rhs)
        return self.broadcast_impl_value(lhs, rhs)

    # -- shapes ----------------------------------------------------------------

    def splat(self, value, shape):
        if value.type.is_block():
            raise ValueError("Cannot splat a block tensor")
        if not shape:
            return value
        return self.op("tt.splat", [value], block_type(value.dtype, shape))

    def expand_dims(self, input, axis):
        if not input.type.is_block():
            return self.splat(input, [1])
        shape = list(input.type.shape)
        shape.insert(axis, 1)
        return self.op("tt.expand_dims", [input],
                       block_type(input.dtype, shape),
                       props={"axis": axis})

    def broadcast_impl_shape(self, input, shape):
        shape = tuple(shape)
        if not input.type.is_block():
            return self.splat(input, shape)
        src = input.type.shape
        if len(src) != len(shape):
            raise ValueError("Cannot broadcast, rank mismatch: %s, %s" %
                             (list(src), list(shape)))
        if src == shape:
            return input
        for i, (s, d) in enumerate(zip(src, shape)):
            if s != d and s != 1:
                raise ValueError(
                    "Cannot broadcast, the expanded size of the tensor (%d) "
                    "must match the existing size (%d) at non-singleton "
                    "dimension %d: %s, %s" % (d, s, i, list(src), list(shape)))
        return self.op("tt.broadcast", [input],
                       block_type(input.dtype, shape))

    def broadcast_impl_value(self, lhs, rhs):
        lhs_ty, rhs_ty = lhs.type, rhs.type
        if lhs_ty.is_block() and not rhs_ty.is_block():
            return lhs, self.splat(rhs, lhs_ty.shape)
        if rhs_ty.is_block() and not lhs_ty.is_block():
            return self.splat(lhs, rhs_ty.shape), rhs
        if not lhs_ty.is_block():
            return lhs, rhs
        lhs_shape, rhs_shape = list(lhs_ty.shape), list(rhs_ty.shape)
        while len(lhs_shape) < len(rhs_shape):
            lhs = self.expand_dims(lhs, 0)
            lhs_shape = list(lhs.type.shape)
        while len(rhs_shape) < len(lhs_shape):
            rhs = self.expand_dims(rhs, 0)
            rhs_shape = list(rhs.type.shape)
        shape = []
        for i, (l, r) in enumerate(zip(lhs_shape, rhs_shape)):
            if l == 1:
                shape.append(r)
            elif r == 1 or l == r:
                shape.append(l)
            else:
                raise ValueError(
                    "Cannot make_shape_compatible: incompatible dimensions "
                    "at index %d: %d and %d" % (i, l, r))
        return (self.broadcast_impl_shape(lhs, shape),
                self.broadcast_impl_shape(rhs, shape))

    # -- casts -----------------------------------------------------------------

    def bitcast(self, input, dst_ty):
        src_ty = input.type
        src_sca, dst_sca = src_ty.scalar, dst_ty
        if src_sca == dst_sca:
            return input
        if src_sca.is_ptr() or dst_sca.is_ptr():
            return self.cast(input, dst_ty)
        if src_sca.primitive_bitwidth != dst_sca.primitive_bitwidth:
            raise ValueError(
                "Cannot bitcast data-type of size %d to data-type of size %d"
                % (src_sca.primitive_bitwidth, dst_sca.primitive_bitwidth))
        return self.op("tt.bitcast", [input], src_ty.with_element_ty(dst_sca))

    def cast(self, input, dst_ty, fp_downcast_rounding=None):
        input = self.to_tensor(input)
        dst_ty = _unwrap(dst_ty)
        src_ty = input.type
        src_sca = src_ty.scalar
        dst_sca = dst_ty.scalar if dst_ty.is_block() else dst_ty
        if src_sca == dst_sca:
            return input
        out_ty = src_ty.with_element_ty(dst_sca)
        rounding = _unwrap(fp_downcast_rounding)
        if rounding is not None and rounding not in ("rtne", "rtz"):
            raise ValueError("fp_downcast_rounding must be 'rtne' or 'rtz', "
                             "got %r" % (rounding,))
        if src_sca.is_floating() and dst_sca.is_floating():
            narrowing = src_sca.primitive_bitwidth > \
                dst_sca.primitive_bitwidth or (
                    src_sca.primitive_bitwidth == dst_sca.primitive_bitwidth
                    and src_sca != dst_sca)
            if src_sca.is_fp8() or dst_sca.is_fp8() or (
                    rounding == "rtz" and narrowing):
                props = {}
                if narrowing:
                    props["rounding"] = Raw("%d : i32" % (
                        0 if rounding == "rtz" else 1))
                return self.op("tt.fp_to_fp", [input], out_ty, props=props)
            if narrowing:
                return self.op("arith.truncf", [input], out_ty)
            return self.op("arith.extf", [input], out_ty)
        if src_sca.is_int() and dst_sca.is_int():
            if dst_sca.is_bool():
                zero = self.splat(self.constant(0, src_sca), _shape(src_ty))
                return self.op("arith.cmpi", [input, zero], out_ty,
                               props={"predicate": Raw("1 : i64")})
            if src_sca.int_bitwidth == dst_sca.int_bitwidth:
                return tensor(input.handle, out_ty)  # signedness only
            if src_sca.int_bitwidth > dst_sca.int_bitwidth:
                return self.op("arith.trunci", [input], out_ty)
            ext = "arith.extsi" if src_sca.is_int_signed() else "arith.extui"
            return self.op(ext, [input], out_ty)
        if src_sca.is_floating() and dst_sca.is_int():
            if dst_sca.is_bool():
                zero = self.splat(self.constant(0.0, src_sca),
                                  _shape(src_ty))
                return self.op("arith.cmpf", [input, zero], out_ty,
                               props={"fastmath": Raw("#arith.fastmath<none>"),
                                      "predicate": Raw("13 : i64")})
            conv = "arith.fptosi" if dst_sca.is_int_signed() else \
                "arith.fptoui"
            return self.op(conv, [input], out_ty)
        if src_sca.is_int() and dst_sca.is_floating():
            if dst_sca.is_fp8():
                return self.cast(self.cast(input, tl.float32), dst_ty)
            conv = "arith.sitofp" if src_sca.is_int_signed() and \
                not src_sca.is_bool() else "arith.uitofp"
            return self.op(conv, [input], out_ty)
        if src_sca.is_ptr() and dst_sca.is_int():
            if dst_sca.int_bitwidth == 64:
                return self.op("tt.ptr_to_int", [input], out_ty)
            if dst_sca.is_bool():
                as_int = self.cast(input, tl.int64)
                return self.cast(as_int, tl.int1)
            return self.cast(self.cast(input, tl.int64), dst_sca)
        if src_sca.is_int() and dst_sca.is_ptr():
            if src_sca.int_bitwidth != 64:
                input = self.cast(input, tl.int64)
            return self.op("tt.int_to_ptr", [input], out_ty)
        if src_sca.is_ptr() and dst_sca.is_ptr():
            return self.op("tt.bitcast", [input], out_ty)
        raise TypeError("cannot cast %s to %s" % (input.type, dst_ty))

    # -- arithmetic --------------------------------------------------------------

    def _float_or_int(self, a, b, float_op, sint_op, uint_op=None):
        sca = a.type.scalar
        if sca.is_floating():
            props = {"fastmath": Raw("#arith.fastmath<none>")}
            return self.op(float_op, [a, b], a.type, props=props)
        if sca.is_int():
            name = sint_op if (sca.is_int_signed() or uint_op is None) \
                else uint_op
            props = None
            if name in ("arith.addi", "arith.subi", "arith.muli"):
                props = {"overflowFlags": Raw("#arith.overflow<none>")}
            return self.op(name, [a, b], a.type, props=props)
        raise TypeError("unexpected type %s" % sca)

    def add(self, input, other, sanitize_overflow=True):
        input, other = self.binary_op_type_checking_impl(input, other, True,
                                                         True)
        if input.type.scalar.is_ptr() and other.type.scalar.is_ptr():
            raise TypeError("cannot add pointers together")
        if other.type.scalar.is_ptr():
            input, other = other, input
        if input.type.scalar.is_ptr():
            return self.addptr(input, other)
        return self._float_or_int(input, other, "arith.addf", "arith.addi")

    def addptr(self, ptr, offset):
        ptr, offset = self.broadcast_impl_value(ptr, offset)
        if not offset.type.scalar.is_int():
            raise TypeError("pointer offsets must be integers, got %s" %
                            offset.type.scalar)
        return self.op("tt.addptr", [ptr, offset], ptr.type)

    def sub(self, input, other, sanitize_overflow=True):
        input, other = self.binary_op_type_checking_impl(input, other, True,
                                                         False)
        if input.type.scalar.is_ptr():
            return self.addptr(input, self.minus(other))
        return self._float_or_int(input, other, "arith.subf", "arith.subi")

    def mul(self, input, other, sanitize_overflow=True):
        input, other = self.binary_op_type_checking_impl(input, other)
        return self._float_or_int(input, other, "arith.mulf", "arith.muli")

    def truediv(self, input, other):
        input, other = self.binary_op_type_checking_impl(
            input, other, False, False, True, True)
        a, b = input.type.scalar, other.type.scalar
        if a.is_floating() and b.is_int():
            other = self.cast(other, a)
        elif a.is_int() and b.is_floating():
            input = self.cast(input, b)
        elif a.is_int() and b.is_int():
            input = self.cast(input, tl.float32)
            other = self.cast(other, tl.float32)
        elif a.is_floating() and b.is_floating():
            if a.primitive_bitwidth > b.primitive_bitwidth:
                other = self.cast(other, a)
            else:
                input = self.cast(input, b)
        else:
            raise TypeError("unexpected type %s" % a)
        return self.op("arith.divf", [input, other], input.type,
                       props={"fastmath": Raw("#arith.fastmath<none>")})

    def floordiv(self, input, other):
        input, other = self.binary_op_type_checking_impl(
            input, other, False, False, True, True)
        a = input.type.scalar
        if a.is_int() and other.type.scalar.is_int():
            # C semantics (truncation toward zero), as in Triton.
            name = "arith.divsi" if a.is_int_signed() else "arith.divui"
            return self.op(name, [input, other], input.type)
        raise TypeError("unexpected type %s" % a)

    def fdiv(self, input, other, ieee_rounding=False):
        input, other = self.binary_op_type_checking_impl(
            input, other, False, False, True, True)
        if not input.type.scalar.is_floating() or \
                not other.type.scalar.is_floating():
            raise TypeError("both operands of fdiv must have floating "
                            "scalar type")
        return self.op("arith.divf", [input, other], input.type,
                       props={"fastmath": Raw("#arith.fastmath<none>")})

    def mod(self, input, other):
        input, other = self.binary_op_type_checking_impl(
            input, other, False, False, True, True)
        a = input.type.scalar
        if a.is_floating():
            return self.op("arith.remf", [input, other], input.type,
                           props={"fastmath": Raw("#arith.fastmath<none>")})
        if a.is_int():
            name = "arith.remsi" if a.is_int_signed() else "arith.remui"
            return self.op(name, [input, other], input.type)
        raise TypeError("unexpected type %s" % a)

    def minus(self, input):
        input = self.to_tensor(input)
        sca = input.type.scalar
        if sca.is_ptr():
            raise ValueError("wrong type argument to unary minus (%s)" %
                             sca)
        if sca.is_floating():
            return self.op("arith.negf", [input], input.type,
                           props={"fastmath": Raw("#arith.fastmath<none>")})
        zero = self.splat(self.constant(0, sca), _shape(input.type))
        return self.sub(zero, input)

    def invert(self, input):
        input = self.to_tensor(input)
        sca = input.type.scalar
        if sca.is_ptr() or sca.is_floating():
            raise ValueError("wrong type argument to unary invert (%s)" %
                             sca)
        ones = self.splat(self.constant(-1 if not sca.is_bool() else 1, sca),
                          _shape(input.type))
        return self.op("arith.xori", [input, ones], input.type)

    def _bitwise_operand_check(self, input, other):
        input, other = self.binary_op_type_checking_impl(input, other, False,
                                                         False, False)
        a, b = input.type.scalar, other.type.scalar
        if not a.is_int() or not b.is_int():
            raise IncompatibleTypeErrorImpl(a, b)
        ret = self.integer_promote_impl(a, b)
        return self.cast(input, ret), self.cast(other, ret)

    def and_(self, input, other):
        input, other = self._bitwise_operand_check(input, other)
        return self.op("arith.andi", [input, other], input.type)

    def or_(self, input, other):
        input, other = self._bitwise_operand_check(input, other)
        return self.op("arith.ori", [input, other], input.type)

    def xor_(self, input, other):
        input, other = self._bitwise_operand_check(input, other)
        return self.op("arith.xori", [input, other], input.type)

    def logical_and(self, input, other):
        input, other = self.to_tensor(input), self.to_tensor(other)
        if not input.type.scalar.is_bool():
            input = self.cast(input, tl.int1)
        if not other.type.scalar.is_bool():
            other = self.cast(other, tl.int1)
        return self.and_(input, other)

    def logical_or(self, input, other):
        input, other = self.to_tensor(input), self.to_tensor(other)
        if not input.type.scalar.is_bool():
            input = self.cast(input, tl.int1)
        if not other.type.scalar.is_bool():
            other = self.cast(other, tl.int1)
        return self.or_(input, other)

    def not_(self, input):
        input = self.to_tensor(input)
        if not input.type.scalar.is_bool():
            input = self.cast(input, tl.int1)
        return self.invert(input)

    def shl(self, input, other):
        input, other = self._bitwise_operand_check(input, other)
        return self.op("arith.shli", [input, other], input.type)

    def lshr(self, input, other):
        input, other = self._bitwise_operand_check(input, other)
        return self.op("arith.shrui", [input, other], input.type)

    def ashr(self, input, other):
        input, other = self._bitwise_operand_check(input, other)
        name = "arith.shrsi" if input.type.scalar.is_int_signed() else \
            "arith.shrui"
        return self.op(name, [input, other], input.type)

    # -- comparisons -------------------------------------------------------------

    # arith.cmpi / cmpf predicate numbers
    _ICMP = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5,
             "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
    _FCMP = {"oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "one": 6,
             "une": 13}

    def _compare(self, input, other, fpred, spred, upred):
        input, other = self.binary_op_type_checking_impl(input, other)
        sca = input.type.scalar
        out_ty = input.type.with_element_ty(tl.int1)
        if sca.is_floating():
            return self.op("arith.cmpf", [input, other], out_ty, props={
                "fastmath": Raw("#arith.fastmath<none>"),
                "predicate": Raw("%d : i64" % self._FCMP[fpred])})
        if sca.is_ptr():
            # Pointers compare as unsigned addresses.
            input = self.cast(input, tl.int64)
            other = self.cast(other, tl.int64)
            sca = tl.uint64
        if sca.is_int():
            pred = spred if sca.is_int_signed() else upred
            return self.op("arith.cmpi", [input, other], out_ty, props={
                "predicate": Raw("%d : i64" % self._ICMP[pred])})
        raise TypeError("unexpected type %s" % sca)

    def greater_than(self, a, b):
        return self._compare(a, b, "ogt", "sgt", "ugt")

    def greater_equal(self, a, b):
        return self._compare(a, b, "oge", "sge", "uge")

    def less_than(self, a, b):
        return self._compare(a, b, "olt", "slt", "ult")

    def less_equal(self, a, b):
        return self._compare(a, b, "ole", "sle", "ule")

    def equal(self, a, b):
        return self._compare(a, b, "oeq", "eq", "eq")

    def not_equal(self, a, b):
        return self._compare(a, b, "une", "ne", "ne")

    # -- creation ----------------------------------------------------------------

    def program_id(self, axis):
        axis = _unwrap(axis)
        if axis not in (0, 1, 2):
            raise ValueError("program_id axis must be 0, 1, or 2 but got %r"
                             % (axis,))
        return self.op("tt.get_program_id", [], tl.int32,
                       props={"axis": axis})

    def num_programs(self, axis):
        axis = _unwrap(axis)
        if axis not in (0, 1, 2):
            raise ValueError("num_programs axis must be 0, 1, or 2 but got "
                             "%r" % (axis,))
        return self.op("tt.get_num_programs", [], tl.int32,
                       props={"axis": axis})

    def arange(self, start, end):
        start, end = _unwrap(start), _unwrap(end)
        if not isinstance(start, int) or not isinstance(end, int):
            raise ValueError("arange's arguments must be of type "
                             "tl.constexpr")
        if not (-2 ** 31 <= start < 2 ** 31 and -2 ** 31 <= end < 2 ** 31):
            raise ValueError("arange must fit in int32")
        if end <= start:
            raise ValueError("arange's end argument must be greater than "
                             "the start argument")
        n = end - start
        if n & (n - 1):
            raise ValueError("arange's range must be a power of 2")
        return self.op("tt.make_range", [], block_type(tl.int32, [n]),
                       props={"start": start, "end": end})

    def full(self, shape, value, dtype):
        dtype = _unwrap(dtype)
        shape = [_unwrap(s) for s in _unwrap(shape)]
        from tpx.language.shape import validate_block_shape
        validate_block_shape(shape)
        value = _unwrap(value)
        if isinstance(value, tensor):
            if value.numel.value != 1:
                raise ValueError("only single-element tensors can be used "
                                 "as full's value")
            value = self.cast(value, dtype)
            if value.type.is_block():
                value = self.reshape(value, [])
            return self.splat(value, shape)
        if dtype.is_ptr():
            v = self.cast(self.constant(value, tl.int64), dtype)
            return self.splat(v, shape)
        return self.constant(value, dtype, shape)

    def reshape(self, input, dst_shape, can_reorder=False):
        dst_shape = [_unwrap(s) for s in dst_shape]
        numel = 1
        for s in dst_shape:
            numel *= s
        src_numel = input.type.numel if input.type.is_block() else 1
        if src_numel != numel:
            raise ValueError("reshape() cannot change total number of "
                             "elements in tensor")
        if not dst_shape:
            # A one-element block back to a scalar: reduce-free extraction.
            raise ValueError("reshape to a scalar is not supported")
        if not input.type.is_block():
            return self.splat(input, dst_shape)
        attrs = {"allow_reorder": Raw("unit")} if can_reorder else None
        return self.op("tt.reshape", [input],
                       block_type(input.dtype, dst_shape), attrs=attrs)

    # -- memory ------------------------------------------------------------------

    _CACHE = {"": 1, ".ca": 2, ".cg": 3, ".wb": 4, ".cs": 5, ".wt": 6,
              ".cv": 7}
    _EVICT = {"": 1, "evict_normal": 1, "evict_first": 2, "evict_last": 3}

    def _cache_modifier(self, modifier, store):
        modifier = _unwrap(modifier) or ""
        if modifier not in self._CACHE:
            raise ValueError("Cache modifier %s not supported" % modifier)
        if store and modifier in (".ca",):
            raise ValueError("Cache modifier %s not supported for stores" %
                             modifier)
        if not store and modifier in (".wb", ".wt", ".cs") and \
                modifier != ".cs":
            raise ValueError("Cache modifier %s not supported for loads" %
                             modifier)
        return self._CACHE[modifier]

    def _eviction_policy(self, policy):
        policy = _unwrap(policy) or ""
        if policy not in self._EVICT:
            raise ValueError("Eviction policy %s not supported" % policy)
        return self._EVICT[policy]

    def load(self, ptr, mask, other, boundary_check, padding_option,
             cache_modifier, eviction_policy, is_volatile):
        cache = self._cache_modifier(cache_modifier, False)
        evict = self._eviction_policy(eviction_policy)
        ptr = self.to_tensor(ptr)
        if not ptr.type.scalar.is_ptr():
            raise ValueError("Unsupported ptr type %s in `tl.load`" %
                             ptr.type)
        if _unwrap(boundary_check) or _unwrap(padding_option):
            raise ValueError("`boundary_check` and `padding_option` are "
                             "only for block pointers")
        mask = _unwrap(mask)
        other = _unwrap(other)
        if mask is None and other is not None:
            raise ValueError("`other` cannot be provided without `mask`")
        shape = _shape(ptr.type)
        if mask is not None:
            mask = self.to_tensor(mask)
            mask = self.broadcast_impl_shape(mask, shape) if shape else mask
            if not mask.type.scalar.is_bool():
                mask = self.cast(mask, tl.int1)
        elt = ptr.type.scalar.element_ty
        load_elt = elt
        if elt.is_bool():
            # Booleans live in memory as bytes.
            load_elt = tl.int8
            ptr = self.cast(ptr, ptr.type.with_element_ty(
                tl.pointer_type(tl.int8, ptr.type.scalar.address_space)))
        if other is not None:
            other = self.cast(self.to_tensor(other), load_elt)
            if shape:
                other = self.broadcast_impl_shape(other, shape)
        result_ty = ptr.type.with_element_ty(load_elt)
        operands = [ptr] + ([mask] if mask is not None else []) + \
            ([other] if other is not None else [])
        segments = "array<i32: 1, %d, %d>" % (mask is not None,
                                              other is not None)
        result = self.op("tt.load", operands, result_ty, props={
            "boundaryCheck": Raw("array<i32>"),
            "cache": cache, "evict": evict,
            "isVolatile": Raw("true" if _unwrap(is_volatile) else "false"),
            "operandSegmentSizes": Raw(segments)})
        if elt.is_bool():
            result = self.cast(result, tl.int1)
        return result

    def store(self, ptr, val, mask, boundary_check, cache_modifier,
              eviction_policy):
        cache = self._cache_modifier(cache_modifier, True)
        evict = self._eviction_policy(eviction_policy)
        ptr = self.to_tensor(ptr)
        if not ptr.type.scalar.is_ptr():
            raise ValueError("Unsupported ptr type %s in `tl.store`" %
                             ptr.type)
        if _unwrap(boundary_check):
            raise ValueError("`boundary_check` is only for block pointers")
        if ptr.type.scalar.is_const():
            raise ValueError("Cannot store to a constant pointer")
        shape = _shape(ptr.type)
        elt = ptr.type.scalar.element_ty
        store_elt = tl.int8 if elt.is_bool() else elt
        if elt.is_bool():
            ptr = self.cast(ptr, ptr.type.with_element_ty(
                tl.pointer_type(tl.int8, ptr.type.scalar.address_space)))
        val = self.to_tensor(val)
        if shape:
            val = self.broadcast_impl_shape(val, shape)
        elif val.type.is_block():
            raise ValueError("Value argument cannot be block type if "
                             "pointer argument is not a block")
        val = self.cast(val, store_elt)
        operands = [ptr, val]
        mask = _unwrap(mask)
        if mask is not None:
            mask = self.to_tensor(mask)
            if shape:
                mask = self.broadcast_impl_shape(mask, shape)
            elif mask.type.is_block():
                raise ValueError("Mask argument cannot be block type if "
                                 "pointer argument is not a block")
            if not mask.type.scalar.is_bool():
                mask = self.cast(mask, tl.int1)
            operands.append(mask)
        self.builder.op("tt.store", [o.handle for o in operands], [], props={
            "boundaryCheck": Raw("array<i32>"), "cache": cache,
            "evict": evict})
        return None

    # -- selection -----------------------------------------------------------------

    def where(self, condition, x, y):
        condition = self.to_tensor(condition)
        if not condition.type.scalar.is_bool():
            condition = self.cast(condition, tl.int1)
        x, y = self.binary_op_type_checking_impl(x, y, True, True)
        if condition.type.is_block():
            condition, x = self.broadcast_impl_value(condition, x)
            x, y = self.broadcast_impl_value(x, y)
            condition, x = self.broadcast_impl_value(condition, x)
        elif x.type.is_block():
            pass  # a scalar condition selects whole blocks
        return self.op("arith.select", [condition, x, y], x.type)


def _shape(ty):
    return list(ty.shape) if ty.is_block() else []
