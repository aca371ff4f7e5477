"""TLX warp specialization: `with tlx.async_tasks():` and its tasks."""

from tpx.compiler.ir import Raw
from tpx.language import core

from ._support import EXTENSION, tlx_builtin, unwrap

# Hopper: 1024 threads per block, 32 warps.
_MAX_WARPS = 32


def _state(generator):
    """Per-function stack of the open `async_tasks` / `async_task` scopes."""
    return generator.__dict__.setdefault("_tlx_task_scopes", [])


class _Region:
    """An op with one region filled by the body of a `with`."""

    def __init__(self, op_name, attrs, check):
        self.op_name = op_name
        self.attrs = attrs
        self.check = check

    def __tpx_copies__(self, _semantic=None, _generator=None):
        """How many times the `with` body is generated: once per replica."""
        return getattr(self, "replicas", 1)

    def __tpx_enter__(self, _semantic=None, _generator=None):
        self.check(_generator)
        builder = _generator.builder
        self.block = builder.new_block()
        self.saved = builder.block
        builder.block = self.block
        _state(_generator).append(self)
        return None

    def __tpx_exit__(self, _semantic=None, _generator=None):
        builder = _generator.builder
        _state(_generator).pop()
        builder.op("tlx.task_region_end", [], [], terminator=True)
        builder.block = self.saved
        _generator.module.select_pipeline_extension(EXTENSION)
        builder.op(self.op_name, [], [], props=self.attrs or None,
                   regions=[[self.block]])
        if self.op_name == "tlx.async_tasks":
            self.finish(_semantic)

    def finish(self, semantic):
        """Checks the tasks' warps against the kernel's."""
        num_warps = getattr(getattr(semantic, "options", None), "num_warps",
                            None) or 4
        extra = sum(t.warps * t.replicate for t in self.tasks)
        if num_warps + extra > _MAX_WARPS:
            raise ValueError(
                "tlx.async_tasks(): the tasks need %d warps beside the "
                "kernel's %d, more than the %d a thread block can have" %
                (extra, num_warps, _MAX_WARPS))
        for task in self.tasks:
            if task.start is not None and task.start < num_warps:
                raise ValueError(
                    "tlx.async_task(): warp_group_start_id=%d overlaps the "
                    "default task's warps 0..%d" % (task.start,
                                                    num_warps - 1))


@tlx_builtin
def async_tasks(_semantic=None, _generator=None):
    """`with tlx.async_tasks():` opens a region of tasks that run
    concurrently; it holds `with tlx.async_task(...):` blocks only."""
    def check(generator):
        if _state(generator):
            raise ValueError("tlx.async_tasks() cannot be nested in a task")

    region = _Region("tlx.async_tasks", {}, check)
    region.tasks = []
    return region


@tlx_builtin
def async_task(*args, num_warps=None, num_regs=None, replicate=1,
               warp_group_start_id=None, registers=None, _semantic=None,
               _generator=None):
    """`with tlx.async_task("default"):` or `with
    tlx.async_task(num_warps=4, num_regs=..., replicate=...,
    warp_group_start_id=...):` inside `tlx.async_tasks()`."""
    args = [unwrap(a) for a in args]
    is_default = False
    if args:
        if args == ["default"]:
            is_default = True
        elif len(args) == 1 and isinstance(args[0], (list, tuple)):
            pass    # task ids ([0], [1, 2]) name tasks; the order suffices
        else:
            raise ValueError("tlx.async_task() takes \"default\" or keyword "
                             "arguments, got %r" % (args,))
    num_warps = unwrap(num_warps)
    num_regs = unwrap(num_regs if num_regs is not None else registers)
    replicate = unwrap(replicate)
    start = unwrap(warp_group_start_id)
    attrs = {}
    if is_default:
        attrs["isDefault"] = Raw("unit")
    elif num_warps is None:
        raise ValueError("tlx.async_task() needs num_warps (or \"default\")")
    if not isinstance(replicate, int) or isinstance(replicate, bool) or \
            replicate < 1:
        raise ValueError("tlx.async_task(): replicate must be a positive "
                         "int, got %r" % (replicate,))
    if is_default and replicate != 1:
        raise ValueError("tlx.async_task(\"default\") cannot be replicated")
    if num_warps is not None:
        attrs["numWarps"] = int(num_warps)
    if num_regs is not None:
        attrs["numRegs"] = int(num_regs)

    region = _Region("tlx.async_task", attrs, None)
    region.warps = None if is_default else int(num_warps)
    # Each replica is a task of its own, its body generated once per
    # replica (the `with` runs __tpx_copies__ times): the replica id is a
    # constexpr there, as TLX's code generator makes it. Replica r sits at
    # warp_group_start_id + r x num_warps when the kernel places its tasks;
    # otherwise the placement keeps equal tasks side by side.
    region.replicas = int(replicate)
    region.replica = -1

    def check(generator):
        scopes = _state(generator)
        if not scopes or scopes[-1].op_name != "tlx.async_tasks":
            raise ValueError("tlx.async_task() must be used directly inside "
                             "`with tlx.async_tasks():`")
        region.replica = (region.replica + 1) % region.replicas
        region.attrs = dict(attrs)
        if start is not None:
            region.attrs["warpGroupStartId"] = \
                int(start) + region.replica * int(num_warps)
        if not is_default:
            task = type("task", (), {})()
            task.warps, task.replicate = int(num_warps), 1
            task.start = None if start is None else \
                region.attrs["warpGroupStartId"]
            scopes[-1].tasks.append(task)

    region.check = check
    return region


def current_threads(semantic, generator):
    """Threads of the warps running the code being emitted: the innermost
    task's, or the kernel's num_warps outside tasks (and in the default
    task)."""
    warps = getattr(getattr(semantic, "options", None), "num_warps",
                    None) or 4
    for scope in reversed(_state(generator)):
        if scope.op_name == "tlx.async_task":
            if scope.warps is not None:
                warps = scope.warps
            break
    return warps * 32


@tlx_builtin
def async_task_replica_id(_semantic=None, _generator=None):
    """Which copy of a replicated task is running (0 .. replicate-1), as a
    constexpr: each replica's body is generated on its own."""
    for scope in reversed(_state(_generator)):
        if scope.op_name == "tlx.async_task":
            return core.constexpr(scope.replica)
    raise ValueError("tlx.async_task_replica_id() must be used inside "
                     "`with tlx.async_task(...)`")
