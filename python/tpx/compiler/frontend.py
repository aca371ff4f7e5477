"""The front end's entry point: a @jit function + argument specs -> TTIR.

Constexpr parameters (and arguments the runtime specialized to constants)
are folded in and do not appear in the kernel's signature, as in Triton's
TTIR; `tt.divisibility = 16` marks the pointer and integer arguments the
runtime found divisible by 16.
"""

import dataclasses

from tpx.compiler import codegen
from tpx.compiler.ir import Builder
from tpx.compiler.spec import CompileSpec
from tpx.errors import CompilationError
from tpx.language import core as tl
from tpx.language.core import constexpr, tensor


def _param_value(spec):
    if spec.is_constexpr:
        value = spec.value
        return value if isinstance(value, constexpr) else constexpr(value)
    if spec.type.startswith("tensordesc"):
        from tpx.language import descriptor_value_from_spec
        return descriptor_value_from_spec(spec)
    return None


def compile_to_ttir(jit_fn, arg_specs, compile_spec=None):
    """TTIR text of `jit_fn` specialized for `arg_specs` (spec.ArgSpec)."""
    compile_spec = compile_spec or CompileSpec()
    if jit_fn.debug and not compile_spec.debug:
        # @jit(debug=True) keeps device assertions, as in Triton.
        compile_spec = dataclasses.replace(compile_spec, debug=True)
    if len(arg_specs) != len(jit_fn.params):
        raise CompilationError(
            "%s: %d argument specs for %d parameters" %
            (jit_fn.__name__, len(arg_specs), len(jit_fn.params)))
    builder = Builder()
    module = codegen.ModuleGenerator(builder, jit_fn.file, compile_spec)
    values, arg_attrs = [], []
    for param, spec in zip(jit_fn.params, arg_specs):
        if param.is_constexpr and not spec.is_constexpr:
            raise CompilationError(
                "%s: parameter '%s' is a constexpr but was given a runtime "
                "value of type %s" % (jit_fn.__name__, param.name, spec.type))
        folded = _param_value(spec)
        if folded is not None:
            values.append(folded)
            if isinstance(folded, tensor):
                # A host tensor descriptor: several kernel arguments.
                arg_attrs.extend(folded.__tpx_arg_attrs__())
            continue
        ty = tl.str_to_ty(spec.type)
        # A placeholder tensor: emit_function only reads its type.
        values.append(tensor(None, ty))
        attrs = {}
        if spec.divisibility:
            attrs["tt.divisibility"] = spec.divisibility
        arg_attrs.append(attrs)
    codegen.emit_function(module, jit_fn, values, jit_fn.__name__,
                          visibility="public", arg_attrs=arg_attrs)
    # The kernel is emitted last (its callees first); put it first.
    functions = builder.functions
    builder.functions = [functions[-1]] + functions[:-1]
    attributes = []
    if tuple(compile_spec.cluster_dims) != (1, 1, 1):
        attributes.append('"tpxgpu.cluster-dims" = array<i32: %s>' % ", ".join(
            str(int(d)) for d in compile_spec.cluster_dims))
    return builder.module_text(module.extra_text,
                               module.pipeline_extensions, attributes)


def selected_extensions(ttir):
    """The pipeline extensions the module text `ttir` (as compile_to_ttir
    writes it) selects through its `tpx.pipeline` attribute."""
    first = ttir.split("\n", 1)[0]
    marker = "tpx.pipeline = ["
    start = first.find(marker)
    if start < 0:
        return []
    end = first.find("]", start)
    return [part.strip().strip('"') for part in
            first[start + len(marker):end].split(",") if part.strip()]
