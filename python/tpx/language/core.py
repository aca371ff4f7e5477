"""The kernel language's values and types: dtype, tensor, constexpr.

Names and meanings follow `triton.language` so that Triton kernels run
unchanged. A `tensor` is an IR value (tpx.compiler.ir.Value) plus its
language type; scalars inside kernels are 0-d tensors (type a dtype), Python
numbers are `constexpr`. Functions marked @builtin are called by the code
generator with `_semantic=` (the Semantic of the kernel being compiled); they
cannot run outside a kernel.
"""

import builtins as _py
import functools

from tpx.errors import CompilationError

TRITON_MAX_TENSOR_NUMEL = 1048576


def builtin(fn):
    """Marks a language function: the code generator passes `_semantic`."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if kwargs.get("_semantic") is None:
            raise ValueError(
                "Did you forget to add @tpx.jit ? (`_semantic` argument must "
                "be provided outside of JIT functions.)")
        return fn(*args, **kwargs)
    wrapper.__tpx_builtin__ = True
    return wrapper


def is_builtin(fn):
    return getattr(fn, "__tpx_builtin__", False)


# -- constexpr ---------------------------------------------------------------

class constexpr:
    """A value known when the kernel is compiled (folded into the IR)."""

    def __init__(self, value):
        self.value = value.value if isinstance(value, constexpr) else value
        self.type = constexpr_type(self.value)

    def __repr__(self):
        return "constexpr[%r]" % (self.value,)

    def __hash__(self):
        return hash((type(self.value), self.value))

    def __bool__(self):
        return bool(self.value)

    def __index__(self):
        return self.value.__index__()

    def __int__(self):
        return int(self.value)

    def __float__(self):
        return float(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    def __getattr__(self, name):
        if name in ("value", "type"):
            raise AttributeError(name)
        return getattr(self.value, name)


def _unwrap_if_constexpr(x):
    """The value of a constexpr, anything else unchanged (Triton's name)."""
    return x.value if isinstance(x, constexpr) else x


_unwrap = _unwrap_if_constexpr


def _make_constexpr_binop(op):
    def method(self, other):
        if isinstance(other, tensor):
            return NotImplemented
        return constexpr(op(self.value, _unwrap(other)))

    def rmethod(self, other):
        if isinstance(other, tensor):
            return NotImplemented
        return constexpr(op(_unwrap(other), self.value))
    return method, rmethod


import operator as _op

for _name, _fn in [("add", _op.add), ("sub", _op.sub), ("mul", _op.mul),
                   ("truediv", _op.truediv), ("floordiv", _op.floordiv),
                   ("mod", _op.mod), ("pow", _op.pow), ("and", _op.and_),
                   ("or", _op.or_), ("xor", _op.xor), ("lshift", _op.lshift),
                   ("rshift", _op.rshift), ("matmul", _op.matmul)]:
    _m, _r = _make_constexpr_binop(_fn)
    setattr(constexpr, "__%s__" % _name, _m)
    setattr(constexpr, "__r%s__" % _name, _r)
for _name, _fn in [("eq", _op.eq), ("ne", _op.ne), ("lt", _op.lt),
                   ("le", _op.le), ("gt", _op.gt), ("ge", _op.ge)]:
    setattr(constexpr, "__%s__" % _name, _make_constexpr_binop(_fn)[0])
constexpr.__neg__ = lambda self: constexpr(-self.value)
constexpr.__pos__ = lambda self: constexpr(+self.value)
constexpr.__invert__ = lambda self: constexpr(~self.value)
constexpr.__abs__ = lambda self: constexpr(abs(self.value))
constexpr.__hash__ = lambda self: hash((type(self.value), repr(self.value)))


class constexpr_type:
    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return "constexpr_type[%r]" % (self.value,)


# -- dtypes ------------------------------------------------------------------

class dtype:
    """A scalar element type (Triton's names: fp32, int32, uint8, ...)."""

    SINT_TYPES = ["int8", "int16", "int32", "int64"]
    UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
    FP_TYPES = ["fp8e4b15", "fp8e4nv", "fp8e4b8", "fp8e5", "fp8e5b16",
                "fp16", "bf16", "fp32", "fp64"]
    OTHER_TYPES = ["void"]

    _IR = {
        "int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32",
        "int64": "i64", "uint8": "i8", "uint16": "i16", "uint32": "i32",
        "uint64": "i64", "fp8e4b15": "f8E4M3B11FNUZ", "fp8e4nv": "f8E4M3FN",
        "fp8e4b8": "f8E4M3FNUZ", "fp8e5": "f8E5M2", "fp8e5b16": "f8E5M2FNUZ",
        "fp16": "f16", "bf16": "bf16", "fp32": "f32", "fp64": "f64",
    }
    # (exponent bits, mantissa bits, exponent bias)
    _FP = {
        "fp8e4b15": (4, 3, 15), "fp8e4nv": (4, 3, 7), "fp8e4b8": (4, 3, 8),
        "fp8e5": (5, 2, 15), "fp8e5b16": (5, 2, 16), "fp16": (5, 10, 15),
        "bf16": (8, 7, 127), "fp32": (8, 23, 127), "fp64": (11, 52, 1023),
    }

    def __init__(self, name):
        name = _unwrap(name)
        if name not in dtype._IR and name != "void":
            raise ValueError("unknown dtype %r" % (name,))
        self.name = name
        if name in dtype.SINT_TYPES or name in dtype.UINT_TYPES:
            self.int_signedness = ("signed" if name in dtype.SINT_TYPES
                                   else "unsigned")
            self.int_bitwidth = int(name.split("int")[-1])
            self.primitive_bitwidth = self.int_bitwidth
        elif name in dtype.FP_TYPES:
            exp, man, bias = dtype._FP[name]
            self.exponent_bias = bias
            self.fp_mantissa_width = man
            self.primitive_bitwidth = 1 + exp + man
        else:
            self.primitive_bitwidth = 0

    # predicates, as in triton.language
    def is_fp8(self):
        return self.name.startswith("fp8")

    def is_fp8e4nv(self):
        return self.name == "fp8e4nv"

    def is_fp8e4b8(self):
        return self.name == "fp8e4b8"

    def is_fp8e4b15(self):
        return self.name == "fp8e4b15"

    def is_fp8e5(self):
        return self.name == "fp8e5"

    def is_fp8e5b16(self):
        return self.name == "fp8e5b16"

    def is_fp16(self):
        return self.name == "fp16"

    def is_bf16(self):
        return self.name == "bf16"

    def is_fp32(self):
        return self.name == "fp32"

    def is_fp64(self):
        return self.name == "fp64"

    def is_int1(self):
        return self.name == "int1"

    def is_int8(self):
        return self.name == "int8"

    def is_int16(self):
        return self.name == "int16"

    def is_int32(self):
        return self.name == "int32"

    def is_int64(self):
        return self.name == "int64"

    def is_uint8(self):
        return self.name == "uint8"

    def is_uint16(self):
        return self.name == "uint16"

    def is_uint32(self):
        return self.name == "uint32"

    def is_uint64(self):
        return self.name == "uint64"

    def is_floating(self):
        return self.name in dtype.FP_TYPES

    def is_standard_floating(self):
        return self.name in ("fp16", "bf16", "fp32", "fp64")

    def is_int_signed(self):
        return self.name in dtype.SINT_TYPES

    def is_int_unsigned(self):
        return self.name in dtype.UINT_TYPES

    def is_int(self):
        return self.is_int_signed() or self.is_int_unsigned()

    def is_bool(self):
        return self.is_int1()

    def is_void(self):
        return self.name == "void"

    def is_ptr(self):
        return False

    def is_block(self):
        return False

    def is_const(self):
        return False

    @property
    def scalar(self):
        return self

    def kind(self):
        """0 bool, 1 integral, 2 floating (Python-scalar promotion)."""
        if self.is_bool():
            return 0
        if self.is_int():
            return 1
        return 2

    def get_int_max_value(self):
        if self.is_int_signed():
            return 2 ** (self.int_bitwidth - 1) - 1
        return 2 ** self.int_bitwidth - 1

    def get_int_min_value(self):
        if self.is_int_signed():
            return -2 ** (self.int_bitwidth - 1)
        return 0

    def to_ir(self, builder=None):
        if self.name == "void":
            return ""
        return dtype._IR[self.name]

    def with_element_ty(self, element_ty):
        return element_ty

    def to(self, *args, **kwargs):
        raise TypeError("a dtype has no .to(); use tensor.to(dtype)")

    def __eq__(self, other):
        other = _unwrap(other)
        return isinstance(other, dtype) and not other.is_ptr() and \
            not other.is_block() and self.name == other.name

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("dtype", self.name))

    def __str__(self):
        return self.name

    def __repr__(self):
        return "tpx.language." + _DTYPE_PY_NAMES.get(self.name, self.name)

    @property
    def cache_key_part(self):
        return self.name


class pointer_type(dtype):
    def __init__(self, element_ty, address_space=1, const=False):
        element_ty = _unwrap(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError("pointer_type: element type must be a dtype, "
                            "got %r" % (element_ty,))
        self.element_ty = element_ty
        self.address_space = address_space
        self.const = const
        self.name = "pointer<%s>" % element_ty.name
        self.primitive_bitwidth = 64

    def to_ir(self, builder=None):
        if self.address_space == 1:
            return "!tt.ptr<%s>" % self.element_ty.to_ir()
        return "!tt.ptr<%s, %d>" % (self.element_ty.to_ir(),
                                    self.address_space)

    def is_ptr(self):
        return True

    def is_const(self):
        return self.const

    def is_int(self):
        return False

    def is_floating(self):
        return False

    def is_bool(self):
        return False

    def kind(self):
        return 3

    def __eq__(self, other):
        other = _unwrap(other)
        return isinstance(other, pointer_type) and \
            self.element_ty == other.element_ty and \
            self.address_space == other.address_space

    def __hash__(self):
        return hash(("ptr", self.element_ty, self.address_space))

    def __str__(self):
        return self.name

    __repr__ = __str__


class block_type(dtype):
    def __init__(self, element_ty, shape):
        self.element_ty = element_ty
        self.shape = tuple(_unwrap(s) for s in shape)
        if not self.shape:
            raise TypeError("0d block_type is forbidden")
        self.numel = 1
        for s in self.shape:
            self.numel *= s
        if self.numel > TRITON_MAX_TENSOR_NUMEL:
            raise ValueError(
                "numel (%d) exceeds triton maximum tensor numel (%d)" %
                (self.numel, TRITON_MAX_TENSOR_NUMEL))
        self.name = "<%s, %s>" % (list(self.shape), element_ty)
        self.primitive_bitwidth = element_ty.primitive_bitwidth

    def to_ir(self, builder=None):
        return "tensor<%s%s>" % ("".join("%dx" % s for s in self.shape),
                                 self.element_ty.to_ir())

    @property
    def scalar(self):
        return self.element_ty

    def is_block(self):
        return True

    def get_block_shapes(self):
        return self.shape

    def with_element_ty(self, element_ty):
        return block_type(element_ty, self.shape)

    def __eq__(self, other):
        other = _unwrap(other)
        return isinstance(other, block_type) and \
            self.element_ty == other.element_ty and self.shape == other.shape

    def __hash__(self):
        return hash(("block", self.element_ty, self.shape))

    def __str__(self):
        return self.name

    __repr__ = __str__

    # a block's predicates are its element's
    def is_ptr(self):
        return False


class void_type(dtype):
    def __init__(self):
        dtype.__init__(self, "void")


_DTYPE_PY_NAMES = {
    "int1": "int1", "int8": "int8", "int16": "int16", "int32": "int32",
    "int64": "int64", "uint8": "uint8", "uint16": "uint16",
    "uint32": "uint32", "uint64": "uint64", "fp8e4b15": "float8e4b15",
    "fp8e4nv": "float8e4nv", "fp8e4b8": "float8e4b8", "fp8e5": "float8e5",
    "fp8e5b16": "float8e5b16", "fp16": "float16", "bf16": "bfloat16",
    "fp32": "float32", "fp64": "float64", "void": "void",
}

void = void_type()
int1 = dtype("int1")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float8e5 = dtype("fp8e5")
float8e5b16 = dtype("fp8e5b16")
float8e4nv = dtype("fp8e4nv")
float8e4b8 = dtype("fp8e4b8")
float8e4b15 = dtype("fp8e4b15")
float16 = dtype("fp16")
bfloat16 = dtype("bf16")
float32 = dtype("fp32")
float64 = dtype("fp64")
pi32_t = pointer_type(int32)

# Signature strings ("*fp32", "i32", ...) of the runtime -> dtypes.
_SIGNATURE_NAMES = {
    "i1": int1, "i8": int8, "i16": int16, "i32": int32, "i64": int64,
    "u1": int1, "u8": uint8, "u16": uint16, "u32": uint32, "u64": uint64,
    "fp8e5": float8e5, "fp8e5b16": float8e5b16, "fp8e4nv": float8e4nv,
    "fp8e4b8": float8e4b8, "fp8e4b15": float8e4b15, "fp16": float16,
    "bf16": bfloat16, "fp32": float32, "fp64": float64,
}


class constexpr_function:
    """A Python function a kernel calls while it is compiled (Triton's
    `triton.constexpr_function`): its arguments must be compile-time values
    (constexprs, dtypes), and what it returns is one. Called from host
    code it is the plain function."""

    def __init__(self, fn):
        self.fn = fn
        self.__name__ = getattr(fn, "__name__", "constexpr_function")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn

    def __call__(self, *args, **kwargs):
        args = [a.value if isinstance(a, constexpr) else a for a in args]
        kwargs = {k: v.value if isinstance(v, constexpr) else v
                  for k, v in kwargs.items()}
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return "constexpr_function(%s)" % self.__name__


def str_to_ty(name, c=None):
    """A signature string ("*fp16", "i32", "*k*fp32") -> its language type
    (`c`, Triton's constexpr value for "constexpr", is not used)."""
    if name.startswith("*"):
        inner = name[1:]
        const = False
        if inner.startswith("k"):
            const, inner = True, inner[1:]
        return pointer_type(str_to_ty(inner), 1, const)
    if name not in _SIGNATURE_NAMES:
        raise TypeError("unknown signature type %r" % (name,))
    return _SIGNATURE_NAMES[name]


# -- tensor ------------------------------------------------------------------

class tensor:
    """A value in a kernel: a block (type block_type) or a scalar."""

    def __init__(self, handle, type):
        self.handle = handle
        self.type = type
        self.dtype = type.scalar
        self.shape = tuple(constexpr(s) for s in type.shape) \
            if type.is_block() else ()
        self.numel = constexpr(type.numel if type.is_block() else 1)

    def __str__(self):
        return "%s[%s]" % (self.dtype, ", ".join(str(s.value)
                                                 for s in self.shape))

    def __repr__(self):
        return "tensor(%s)" % (self.type,)

    def __bool__(self):
        raise CompilationError(
            "a tensor's truth value is only known when the kernel runs; "
            "use it in `if`/`while` directly or compare it explicitly")

    def __iter__(self):
        raise TypeError("a tensor cannot be iterated over in Python; use "
                        "tl.static_range or index it")

    def __hash__(self):
        return id(self)

    @property
    def T(self):
        raise TypeError("tensor.T needs the kernel's semantic; call "
                        "tl.trans(x) instead")


def get_bool_env_var(name):
    import os
    value = os.environ.get(name, "0")
    return value.lower() in ("1", "true", "on", "yes")
