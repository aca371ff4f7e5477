//===- CPUTaskRuntime.cpp - concurrent tasks and mbarriers on the CPU -----===//
//
// A GPU program (thread block) may split into tasks that run concurrently
// (warp specialization) and synchronise through mbarriers. On the CPU each
// task of a program is a thread of its own, started by tpx_cpu_run_tasks;
// an mbarrier is four 32-bit words in the program's memory with Hopper's
// semantics: a phase completes when the expected number of arrivals and
// every expected transaction byte have arrived, then the next phase starts
// with the same expectation. A wait that no task can ever satisfy (every
// other task of the program waits too, or has finished) is a deadlock: it
// is reported with the program, the task, the source line of the wait and
// the barrier, and the waits return so that the launch ends with that error
// instead of hanging.
//
// A kernel launched in thread-block clusters runs the programs of each
// cluster at once, each on a thread of its own (runClusterPrograms), and
// all their threads (the programs' and their tasks') share one task group:
// a program may arrive on a peer's barrier (tpx_cpu_cluster_map gives the
// peer's copy of an address in the program's local memory, which every
// program registers at its start), a deadlock is one of the whole cluster,
// and tpx_cpu_cluster_barrier waits for every program of the cluster.
//
// Every entry point takes the six trailing grid arguments the CPU lowering
// appends to calls (program id and number of programs along x, y, z).
//
//===----------------------------------------------------------------------===//
#include "CPURuntimeState.h"

#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <thread>

using namespace tpx::cpu;

namespace {
/// The words of one mbarrier.
struct MBarrier {
  int32_t expected; // arrivals per phase
  int32_t pending;  // arrivals still missing in this phase
  int32_t tx;       // transaction bytes still missing in this phase
  int32_t phase;    // parity of the current phase
};

/// A hardware (named) barrier of a program: threads arrived in the current
/// round, and how many rounds have completed.
struct NamedBarrier {
  int64_t arrived = 0;
  uint64_t generation = 0;
};

struct WaitSite {
  // The program (its rank in the cluster) and task the thread runs.
  int32_t rank = 0, task = 0;
  bool waiting = false;
  // An mbarrier wait: the barrier and the phase parity waited for.
  const MBarrier *barrier = nullptr;
  int32_t line = 0, allocLine = 0, index = 0, phase = 0;
  // A named barrier wait: its round counter and the round waited in.
  const NamedBarrier *named = nullptr;
  int32_t namedId = 0;
  uint64_t round = 0;

  /// Still waiting: its phase (or round) has not completed (a woken waiter
  /// that has not run yet is not stuck).
  bool isStuck() const {
    if (!waiting)
      return false;
    return named ? named->generation == round : barrier->phase == phase;
  }
};

/// A program's local memory registered for its cluster's peers.
struct MemoryRange {
  uintptr_t begin;
  uint64_t bytes;
};

/// The tasks of one program, or every thread of one cluster's programs.
struct TaskGroup {
  std::mutex mutex;
  std::condition_variable changed;
  int32_t size = 0;
  int32_t finished = 0;
  bool deadlocked = false;
  // A deque: the threads keep references to their sites while tasks of a
  // cluster's programs add theirs.
  std::deque<WaitSite> waits;
  // Named barriers by (rank << 8) | id: each program has its own.
  std::map<int64_t, NamedBarrier> named;
  // Clusters only: the programs, their registered memory by rank, and the
  // program whose id names the cluster in messages.
  int32_t programs = 0;
  std::vector<std::vector<MemoryRange>> memory;
  int32_t x = 0, y = 0, z = 0;

  /// Every task that has not finished waits for a phase nobody can
  /// complete any more. Called with the mutex held.
  bool isDeadlocked() const {
    int32_t stuck = 0;
    for (const WaitSite &site : waits)
      stuck += site.isStuck();
    return stuck > 0 && stuck == size - finished;
  }
};

struct TaskContext {
  TaskGroup *group = nullptr;
  int32_t task = 0; // the thread's wait site in the group
  int32_t rank = 0; // its program's rank in the cluster
};

/// The key of a program's named barrier `id` in its group; the cluster
/// barrier is id -1 of rank 0.
int64_t namedKey(int32_t rank, int32_t id) {
  return (int64_t(rank) << 8) | (id & 0xff);
}
constexpr int64_t kClusterBarrierKey = -1;

TaskContext &currentTask() {
  thread_local TaskContext context;
  return context;
}

/// Held while a task touches barrier words; a no-op outside task groups
/// (the program's only thread).
std::unique_lock<std::mutex> lockBarriers() {
  TaskGroup *group = currentTask().group;
  return group ? std::unique_lock<std::mutex>(group->mutex)
               : std::unique_lock<std::mutex>();
}

MBarrier *asBarrier(int64_t address) {
  return reinterpret_cast<MBarrier *>(static_cast<uintptr_t>(address));
}

/// Completes the phase if nothing is missing. Called with the lock held.
void maybeComplete(MBarrier *bar) {
  if (bar->pending > 0 || bar->tx > 0)
    return;
  bar->phase ^= 1;
  bar->pending = bar->expected;
  bar->tx = 0;
  if (TaskGroup *group = currentTask().group)
    group->changed.notify_all();
}

/// "barrier 2 of the mbarriers allocated at line 40".
std::string describeBarrier(int32_t allocLine, int32_t index) {
  std::string text = index >= 0 ? llvm::formatv("barrier {0}", index).str()
                                : std::string("a barrier");
  if (allocLine > 0)
    text += llvm::formatv(" of the mbarriers allocated at line {0}", allocLine)
                .str();
  return text;
}

/// Reports the deadlock of `group` (lock held) and releases its waiters.
void reportDeadlock(TaskGroup *group, int32_t x, int32_t y, int32_t z) {
  bool cluster = group->programs > 0;
  std::string text =
      cluster
          ? llvm::formatv("deadlock in the cluster of {0} programs from "
                          "program ({1}, {2}, {3}): no task can make "
                          "progress;",
                          group->programs, group->x, group->y, group->z)
                .str()
          : llvm::formatv("deadlock in program ({0}, {1}, {2}): no task can "
                          "make progress;",
                          x, y, z)
                .str();
  for (const WaitSite &site : group->waits) {
    if (!site.isStuck())
      continue;
    std::string who =
        cluster ? llvm::formatv(" CTA {0} task {1}", site.rank, site.task).str()
                : llvm::formatv(" task {0}", site.task).str();
    if (site.named && site.namedId < 0)
      text += llvm::formatv("{0} waits at line {1} at the cluster barrier;",
                            who, site.line)
                  .str();
    else if (site.named)
      text += llvm::formatv("{0} waits at line {1} at named barrier {2};", who,
                            site.line, site.namedId)
                  .str();
    else
      text += llvm::formatv("{0} waits at line {1} for phase {2} of {3};", who,
                            site.line, site.phase,
                            describeBarrier(site.allocLine, site.index))
                  .str();
  }
  text += llvm::formatv(" {0} of {1} tasks have finished", group->finished,
                        group->size)
              .str();
  if (LaunchState *launch = currentLaunch())
    launch->fail(std::move(text));
  group->deadlocked = true;
  group->changed.notify_all();
}
/// Waits (lock held) until `bar`'s current round completes, as the site
/// of thread `task` (a named barrier `id`, -1 for the cluster barrier).
void waitForRound(TaskGroup *group, std::unique_lock<std::mutex> &lock,
                  int32_t task, NamedBarrier &bar, int32_t id, int32_t line,
                  int32_t x, int32_t y, int32_t z) {
  uint64_t round = bar.generation;
  WaitSite &site = group->waits[task];
  site.waiting = true;
  site.barrier = nullptr;
  site.line = line;
  site.named = &bar;
  site.namedId = id;
  site.round = round;
  if (group->isDeadlocked())
    reportDeadlock(group, x, y, z);
  group->changed.wait(
      lock, [&] { return bar.generation != round || group->deadlocked; });
  group->waits[task].waiting = false;
}
} // namespace

extern "C" {

/// Runs tasks 0..count-1 of the calling program concurrently:
/// trampoline(task, context, grid...) on threads of their own (task 0 on
/// the caller's), and returns when all have finished.
static void tpx_cpu_run_tasks(int32_t count, int64_t trampoline,
                              int64_t context, int32_t x, int32_t y, int32_t z,
                              int32_t nx, int32_t ny, int32_t nz) {
  using TaskFn = void (*)(int32_t, int64_t, int32_t, int32_t, int32_t, int32_t,
                          int32_t, int32_t);
  auto run = reinterpret_cast<TaskFn>(static_cast<uintptr_t>(trampoline));
  LaunchState *launch = currentLaunch();
  TaskContext saved = currentTask();
  // In a cluster the tasks join its group: task 0 is the program's own
  // thread, with its site; the others get sites of their own.
  TaskGroup local;
  bool inCluster = saved.group && saved.group->programs > 0;
  TaskGroup &group = inCluster ? *saved.group : local;
  std::vector<int32_t> sites(std::max(count, 0));
  {
    std::lock_guard<std::mutex> lock(group.mutex);
    for (int32_t task = 0; task < count; ++task) {
      if (inCluster && task == 0) {
        sites[0] = saved.task;
        group.waits[saved.task].task = 0;
        continue;
      }
      sites[task] = static_cast<int32_t>(group.waits.size());
      group.waits.emplace_back();
      group.waits.back().rank = saved.rank;
      group.waits.back().task = task;
      ++group.size;
    }
  }
  int32_t running = count; // tasks of this call not finished (lock held)
  auto body = [&](int32_t task) {
    currentLaunch() = launch;
    currentTask() = {&group, sites[task], saved.rank};
    run(task, context, x, y, z, nx, ny, nz);
    std::lock_guard<std::mutex> lock(group.mutex);
    ++group.finished;
    // In a cluster the program's thread (task 0) goes on after the join:
    // while it waits for its tasks it counts as finished (it can only be
    // stalled by them), and once they are all done it runs again.
    if (inCluster && --running == 0)
      --group.finished;
    // The last running task finishing while others wait: nobody is left
    // to arrive.
    if (!group.deadlocked && group.isDeadlocked())
      reportDeadlock(&group, x, y, z);
  };
  std::vector<std::thread> threads;
  for (int32_t task = 1; task < count; ++task)
    threads.emplace_back(body, task);
  if (count > 0)
    body(0);
  for (std::thread &thread : threads)
    thread.join();
  currentTask() = saved;
}

static void tpx_cpu_mbarrier_init(int64_t address, int32_t count, int32_t,
                                  int32_t, int32_t, int32_t, int32_t, int32_t) {
  auto lock = lockBarriers();
  *asBarrier(address) = {count, count, 0, 0};
}

static void tpx_cpu_mbarrier_arrive(int64_t address, int32_t count, int32_t,
                                    int32_t, int32_t, int32_t, int32_t,
                                    int32_t) {
  auto lock = lockBarriers();
  MBarrier *bar = asBarrier(address);
  bar->pending -= count;
  maybeComplete(bar);
}

/// One arrival that also expects `bytes` more transaction bytes in this
/// phase (mbarrier.arrive.expect_tx).
static void tpx_cpu_mbarrier_expect_tx(int64_t address, int32_t bytes, int32_t,
                                       int32_t, int32_t, int32_t, int32_t,
                                       int32_t) {
  auto lock = lockBarriers();
  MBarrier *bar = asBarrier(address);
  bar->tx += bytes;
  bar->pending -= 1;
  maybeComplete(bar);
}

/// A copy tracked by the barrier has delivered `bytes`.
static void tpx_cpu_mbarrier_complete_tx(int64_t address, int32_t bytes,
                                         int32_t, int32_t, int32_t, int32_t,
                                         int32_t, int32_t) {
  auto lock = lockBarriers();
  MBarrier *bar = asBarrier(address);
  bar->tx -= bytes;
  maybeComplete(bar);
}

/// Waits until the phase with parity `phase` has completed (the barrier's
/// current parity differs from it).
static void tpx_cpu_mbarrier_wait(int64_t address, int32_t phase, int32_t line,
                                  int32_t allocLine, int32_t index, int32_t x,
                                  int32_t y, int32_t z, int32_t, int32_t,
                                  int32_t) {
  MBarrier *bar = asBarrier(address);
  TaskContext &self = currentTask();
  phase &= 1;
  if (!self.group) {
    // The program's only thread: nothing else can arrive.
    if (bar->phase == phase && currentLaunch())
      currentLaunch()->fail(
          llvm::formatv("deadlock in program ({0}, {1}, {2}): the wait at "
                        "line {3} for phase {4} of {5} can never complete "
                        "(no other task runs)",
                        x, y, z, line, phase, describeBarrier(allocLine, index))
              .str());
    return;
  }
  TaskGroup *group = self.group;
  std::unique_lock<std::mutex> lock(group->mutex);
  if (bar->phase != phase || group->deadlocked)
    return;
  WaitSite &site = group->waits[self.task];
  site.waiting = true;
  site.named = nullptr;
  site.barrier = bar;
  site.line = line;
  site.allocLine = allocLine;
  site.index = index;
  site.phase = phase;
  if (group->isDeadlocked())
    reportDeadlock(group, x, y, z);
  group->changed.wait(lock,
                      [&] { return bar->phase != phase || group->deadlocked; });
  group->waits[self.task].waiting = false;
}

/// bar.sync / bar.arrive on hardware barrier `id`: the caller's `threads`
/// arrive; the round completes when `count` threads have.
static void tpx_cpu_named_barrier(int32_t id, int32_t count, int32_t threads,
                                  int32_t wait, int32_t line, int32_t x,
                                  int32_t y, int32_t z, int32_t, int32_t,
                                  int32_t) {
  TaskContext &self = currentTask();
  if (!self.group) {
    if (threads < count && wait && currentLaunch())
      currentLaunch()->fail(
          llvm::formatv("deadlock in program ({0}, {1}, {2}): named barrier "
                        "{3} at line {4} waits for {5} threads, but the "
                        "program runs {6} (no other task runs)",
                        x, y, z, id, line, count, threads)
              .str());
    return;
  }
  TaskGroup *group = self.group;
  std::unique_lock<std::mutex> lock(group->mutex);
  if (group->deadlocked)
    return;
  NamedBarrier &bar = group->named[namedKey(self.rank, id)];
  bar.arrived += threads;
  if (bar.arrived >= count) {
    bar.arrived -= count;
    ++bar.generation;
    group->changed.notify_all();
    return;
  }
  if (!wait)
    return;
  waitForRound(group, lock, self.task, bar, id, line, x, y, z);
}

/// This program's rank in its cluster (0 outside clusters).
static int32_t tpx_cpu_cluster_rank(int32_t, int32_t, int32_t, int32_t, int32_t,
                                    int32_t) {
  TaskContext &self = currentTask();
  return self.group && self.group->programs > 0 ? self.rank : 0;
}

/// Records `bytes` of local memory at `address` (done at the program's
/// start, in the same order in every program of the cluster).
static void tpx_cpu_cluster_register(int64_t address, int64_t bytes, int32_t,
                                     int32_t, int32_t, int32_t, int32_t,
                                     int32_t) {
  TaskContext &self = currentTask();
  if (!self.group || self.group->programs == 0)
    return;
  std::lock_guard<std::mutex> lock(self.group->mutex);
  self.group->memory[self.rank].push_back(
      {static_cast<uintptr_t>(address), static_cast<uint64_t>(bytes)});
}

/// The address in program `rank`'s local memory at which that program has
/// what this program has at `address`.
static int64_t tpx_cpu_cluster_map(int64_t address, int32_t rank, int32_t x,
                                   int32_t y, int32_t z, int32_t, int32_t,
                                   int32_t) {
  TaskContext &self = currentTask();
  TaskGroup *group = self.group;
  auto fail = [&](const std::string &why) {
    if (LaunchState *launch = currentLaunch())
      launch->fail(
          llvm::formatv("program ({0}, {1}, {2}): {3}", x, y, z, why).str());
    return address;
  };
  if (!group || group->programs == 0)
    return rank == 0
               ? address
               : fail(llvm::formatv("CTA rank {0} of a cluster of one", rank)
                          .str());
  if (rank < 0 || rank >= group->programs)
    return fail(llvm::formatv("CTA rank {0} outside the cluster of {1}", rank,
                              group->programs)
                    .str());
  std::lock_guard<std::mutex> lock(group->mutex);
  const std::vector<MemoryRange> &mine = group->memory[self.rank];
  const std::vector<MemoryRange> &theirs = group->memory[rank];
  auto at = static_cast<uintptr_t>(address);
  for (size_t i = 0; i < mine.size() && i < theirs.size(); ++i)
    if (at >= mine[i].begin && at < mine[i].begin + mine[i].bytes)
      return static_cast<int64_t>(theirs[i].begin + (at - mine[i].begin));
  return fail("an address outside the program's local memory used on a peer "
              "CTA of the cluster");
}

/// Every program of the cluster waits here for all the others (barrier
/// .cluster); outside clusters nothing (a cluster of one).
static void tpx_cpu_cluster_barrier(int32_t line, int32_t x, int32_t y,
                                    int32_t z, int32_t, int32_t, int32_t) {
  TaskContext &self = currentTask();
  TaskGroup *group = self.group;
  if (!group || group->programs == 0)
    return;
  std::unique_lock<std::mutex> lock(group->mutex);
  if (group->deadlocked)
    return;
  NamedBarrier &bar = group->named[kClusterBarrierKey];
  if (++bar.arrived >= group->programs) {
    bar.arrived = 0;
    ++bar.generation;
    group->changed.notify_all();
    return;
  }
  waitForRound(group, lock, self.task, bar, /*id=*/-1, line, x, y, z);
}

static int64_t tpx_cpu_clock64(int32_t, int32_t, int32_t, int32_t, int32_t,
                               int32_t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // extern "C"

std::vector<RuntimeSymbol> tpx::cpu::getTaskRuntimeSymbols() {
  return {
      {"tpx_cpu_run_tasks", reinterpret_cast<void *>(&tpx_cpu_run_tasks)},
      {"tpx_cpu_mbarrier_init",
       reinterpret_cast<void *>(&tpx_cpu_mbarrier_init)},
      {"tpx_cpu_mbarrier_arrive",
       reinterpret_cast<void *>(&tpx_cpu_mbarrier_arrive)},
      {"tpx_cpu_mbarrier_expect_tx",
       reinterpret_cast<void *>(&tpx_cpu_mbarrier_expect_tx)},
      {"tpx_cpu_mbarrier_complete_tx",
       reinterpret_cast<void *>(&tpx_cpu_mbarrier_complete_tx)},
      {"tpx_cpu_mbarrier_wait",
       reinterpret_cast<void *>(&tpx_cpu_mbarrier_wait)},
      {"tpx_cpu_clock64", reinterpret_cast<void *>(&tpx_cpu_clock64)},
      {"tpx_cpu_named_barrier",
       reinterpret_cast<void *>(&tpx_cpu_named_barrier)},
      {"tpx_cpu_cluster_rank", reinterpret_cast<void *>(&tpx_cpu_cluster_rank)},
      {"tpx_cpu_cluster_register",
       reinterpret_cast<void *>(&tpx_cpu_cluster_register)},
      {"tpx_cpu_cluster_map", reinterpret_cast<void *>(&tpx_cpu_cluster_map)},
      {"tpx_cpu_cluster_barrier",
       reinterpret_cast<void *>(&tpx_cpu_cluster_barrier)},
  };
}

void tpx::cpu::runClusterPrograms(
    int32_t programs, std::array<int32_t, 3> first,
    const std::function<void(int32_t rank)> &program) {
  TaskGroup group;
  group.programs = programs;
  group.size = programs;
  group.memory.resize(programs);
  group.x = first[0];
  group.y = first[1];
  group.z = first[2];
  for (int32_t rank = 0; rank < programs; ++rank) {
    group.waits.emplace_back();
    group.waits.back().rank = rank;
  }
  LaunchState *launch = currentLaunch();
  auto body = [&](int32_t rank) {
    currentLaunch() = launch;
    currentTask() = {&group, rank, rank};
    program(rank);
    currentTask() = {};
    std::lock_guard<std::mutex> lock(group.mutex);
    ++group.finished;
    if (!group.deadlocked && group.isDeadlocked())
      reportDeadlock(&group, first[0], first[1], first[2]);
  };
  std::vector<std::thread> threads;
  for (int32_t rank = 1; rank < programs; ++rank)
    threads.emplace_back(body, rank);
  body(0);
  for (std::thread &thread : threads)
    thread.join();
}
