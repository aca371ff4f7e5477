#!/usr/bin/env bash
# Runs on the GPU machine (device tool) over a copy of the checkout that
# carries .mlir-runtime/ (Debian's LLVM/MLIR runtime .debs, from
# ../shared/device/fetch-mlir-runtime.sh) and .device/ (stripped bin/, lib/,
# the corpus and unpack-mlir-runtime.sh; see docs/nvidia-target.md).
#   bench/run-on-h200.sh corpus|sanitizer|racecheck|pytest|paths|sanitizer-suite|bench|
#                        quick|python|main|tutorials|launch|frontend|autotune|
#                        tlx|clusters
#   (any subset, in order; paths and sanitizer-suite need pytest first)
#   python: the Python front end's suite (test/Python) on CUDA, its files
#   spread over 8 processes; main: the main job on the GPU; tutorials: the
#   tutorial-style programs through tpx and stock Triton, compared;
#   launch: launch overhead of a cached kernel, tpx vs Triton; frontend:
#   Python -> TTIR time; autotune: 8 configs compiled serially and in
#   parallel; bench: bench/bench.py's table, a process per row
#   (BENCH_ONLY=TEXT: only rows whose name contains TEXT); quick: its
#   --quick rows in one process.
# Writes its reports into $OUT (or /tmp/tpx-out).
set -uo pipefail
out=${OUT:-/tmp/tpx-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$(bash .device/unpack-mlir-runtime.sh .mlir-runtime):$PWD/.device/lib
export TPX_CACHE_DIR=/tmp/tpx-cache
bin=$PWD/.device/bin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/machine.txt" 2>&1
for step in "$@"; do
  case $step in
  corpus)
    for c in .device/corpus/*/; do
      "$bin/tpx-run" "$c" --target cuda --verbose
    done > "$out/cuda-corpus.txt" 2>&1
    cat "$out/cuda-corpus.txt" ;;
  sanitizer)
    for c in .device/corpus/*/; do
      echo "== $(basename $c)"
      compute-sanitizer --tool memcheck --print-limit 5 "$bin/tpx-run" "$c" --target cuda 2>&1 | tail -3
    done > "$out/cuda-sanitizer.txt" 2>&1
    grep -E "^==|ERROR SUMMARY|PASS|FAIL" "$out/cuda-sanitizer.txt" | head -60 ;;
  racecheck)
    # Shared-memory hazards in the software-pipelined kernels: the corpus
    # cases whose loops feed wgmma from cp.async buffers, then the
    # warp-specialized TLX kernels at small sizes (bench/checks).
    for c in matmul_f16_256 matmul_f16_odd attn_fwd_f16; do
      echo "== $c"
      compute-sanitizer --tool racecheck --print-limit 5 "$bin/tpx-run" \
        .device/corpus/$c --target cuda 2>&1 | tail -3
    done > "$out/cuda-racecheck.txt" 2>&1
    echo "== tlx_ws_kernels" >> "$out/cuda-racecheck.txt"
    TPX_BUILD_DIR=$PWD/.device PYTHONPATH=$PWD/python timeout 240 \
      compute-sanitizer --tool racecheck --print-limit 5 \
      python3 bench/checks/tlx_ws_kernels.py >> "$out/cuda-racecheck.txt" 2>&1
    grep -E "^==|ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL" "$out/cuda-racecheck.txt" | head -40 ;;
  pytest)
    # The CPU test suite's kernels, run on the GPU (tests of CPU-only
    # behaviour -- bounds checking, x86 inline asm, shapes Triton does not
    # allow -- are skipped: tpxcase.cpu_only).
    TPX_TEST_TARGET=cuda TPX_BUILD_DIR=$PWD/.device python3 -m pytest -q \
      -p no:cacheprovider --basetemp=/tmp/tpx-pytest-cases test/CPU \
      > "$out/cuda-pytest.txt" 2>&1
    tail -40 "$out/cuda-pytest.txt" ;;
  paths)
    # Which pipeline each corpus case and CPU-suite kernel (kept by the
    # pytest step) compiles on for sm_90a: the coverage check's remark
    # names the op of every one that takes the one-thread path.
    for f in .device/corpus/*/kernel.ttir $(find /tmp/tpx-pytest-cases -name kernel.ttir 2>/dev/null | sort); do
      r=$("$bin/tpx-compile" --target=sm_90a --no-cache -o /tmp/tpx-paths.cubin "$f" 2>&1 \
          | grep -m1 -E "remark|error" | sed 's/.*does not cover //')
      echo "$(basename $(dirname "$f")): ${r:-simt}"
    done > "$out/cuda-paths.txt" 2>&1
    echo "simt: $(grep -c ': simt$' "$out/cuda-paths.txt") of $(wc -l < "$out/cuda-paths.txt")"
    grep -v ': simt$' "$out/cuda-paths.txt" | head -40 ;;
  sanitizer-suite)
    # memcheck over every CPU-suite case (kept by the pytest step in
    # /tmp/tpx-pytest-cases), 8 at a time, each case's report in its own
    # file (cases that test CPU-only behaviour still FAIL, as in pytest).
    rm -rf /tmp/tpx-memcheck && mkdir -p /tmp/tpx-memcheck
    find /tmp/tpx-pytest-cases -name case.json | xargs -r -n1 dirname | sort \
      | xargs -r -P 8 -I{} sh -c 'compute-sanitizer --tool memcheck --print-limit 5 \
          "$0" "$1" --target cuda > /tmp/tpx-memcheck/$(echo "$1" | tr / _).txt 2>&1; true' \
          "$bin/tpx-run" {}
    for f in /tmp/tpx-memcheck/*.txt; do
      echo "== $(basename $f .txt)"; tail -3 "$f"
    done > "$out/cuda-sanitizer-suite.txt" 2>&1
    echo "clean: $(grep -cE "ERROR SUMMARY: 0 errors" "$out/cuda-sanitizer-suite.txt") of $(ls /tmp/tpx-memcheck | wc -l)"
    grep -E "ERROR SUMMARY: [1-9]" -B3 "$out/cuda-sanitizer-suite.txt" | head -40 ;;
  clusters)
    # Thread-block clusters: the cluster tests of test/Python on CUDA (a
    # multicast pair copy, the 2-CTA gemm_ws on edge shapes), then gemm_ws
    # with and without clusters beside cuBLAS. Time limits: a protocol
    # error shows as a hang.
    TPX_TEST_TARGET=cuda TPX_BUILD_DIR=$PWD/.device PYTHONPATH=$PWD/python \
      timeout 240 python3 -m pytest -q -p no:cacheprovider -rfE \
      test/Python/test_tlx_clusters.py > "$out/cuda-clusters.txt" 2>&1
    tail -5 "$out/cuda-clusters.txt"
    TPX_BUILD_DIR=$PWD/.device PYTHONPATH=$PWD/python timeout 300 \
      python3 bench/tlx_bench.py "$out/tlx-bench-clusters.json" \
      gemm_ws,gemm_ws_cluster > "$out/tlx-bench-clusters.txt" 2>&1
    cat "$out/tlx-bench-clusters.txt" ;;
  tlx)
    # The TLX tutorials that run on the GPU beside torch (bench/tlx_bench.py).
    TPX_BUILD_DIR=$PWD/.device PYTHONPATH=$PWD/python \
      python3 bench/tlx_bench.py "$out/tlx-bench.json" > "$out/tlx-bench.txt" 2>&1
    cat "$out/tlx-bench.txt" ;;
  python)
    # Every test file in one of 8 groups, each a process with its own
    # compile cache, so the 16 cores compile in parallel.
    files=$(ls test/Python/test_*.py)
    rm -rf /tmp/tpx-py && mkdir -p /tmp/tpx-py
    i=0
    for f in $files; do echo "$f" >> /tmp/tpx-py/group$((i % 8)); i=$((i + 1)); done
    for g in /tmp/tpx-py/group*; do
      TPX_TEST_TARGET=cuda TPX_BUILD_DIR=$PWD/.device \
        TPX_CACHE_DIR=/tmp/tpx-py/cache-$(basename $g) PYTHONPATH=$PWD/python \
        timeout 200 python3 -m pytest -q -p no:cacheprovider -rfE $(cat $g) \
        > $g.log 2>&1 &
    done
    wait
    cat /tmp/tpx-py/group*.log > "$out/cuda-python.txt"
    grep -hE "passed|failed" /tmp/tpx-py/group*.log
    grep -hE "^(FAILED|ERROR) " /tmp/tpx-py/group*.log | cut -c1-200 | head -80 ;;
  main)
    TPX_BUILD_DIR=$PWD/.device bash scripts/main-job.sh > "$out/main-job.txt" 2>&1
    cat "$out/main-job.txt" | cut -c1-200 ;;
  tutorials)
    PYTHONPATH=$PWD/python TPX_BUILD_DIR=$PWD/.device timeout 420 \
      python3 bench/python/compare.py --device cuda --json "$out/tutorials.json" \
      > "$out/tutorials.txt" 2>&1
    cat "$out/tutorials.txt" | cut -c1-220 | tail -40 ;;
  launch)
    PYTHONPATH=$PWD/python TPX_BUILD_DIR=$PWD/.device timeout 200 \
      python3 bench/python/launch_overhead.py --device cuda --json "$out/launch.json" \
      > "$out/launch.txt" 2>&1
    cat "$out/launch.txt" | tail -20 ;;
  frontend)
    PYTHONPATH=$PWD/python TPX_BUILD_DIR=$PWD/.device \
      python3 bench/python/frontend_time.py > "$out/frontend-time.txt" 2>&1
    cat "$out/frontend-time.txt" ;;
  autotune)
    PYTHONPATH=$PWD/python TPX_BUILD_DIR=$PWD/.device timeout 200 \
      python3 bench/python/autotune_compile.py > "$out/autotune-compile.txt" 2>&1
    cat "$out/autotune-compile.txt" | tail -5 ;;
  quick)
    # A few small rows (one of each kind, fp8 and causal attention
    # included) in one process.
    python3 bench/bench.py --tpx-bin "$bin" --quick --out "$out/bench-quick.json" 2>&1 | tail -20
    python3 bench/results_table.py "$out/bench-quick.json" ;;
  bench)
    # One process per benchmark: a kernel that kills its CUDA context (an
    # exhausted device heap, say) must not take the others down with it.
    # BENCH_ONLY=TEXT runs the rows whose name contains TEXT, or one of
    # several TEXTs separated by '|' (the whole table, 21 rows, is about
    # 5 minutes; split it, e.g. BENCH_ONLY='f32|matmul' then
    # BENCH_ONLY=attention, when a call's limit is near). A row whose process
    # timed out or died before writing its report is merged as 'did not
    # finish'. The per-benchmark reports stay out of $OUT (the device tool
    # returns few files); only the merged one goes there.
    parts=$(mktemp -d)
    tag=${BENCH_ONLY:+-${BENCH_ONLY//[^A-Za-z0-9]/_}}
    missing=()
    while IFS=$'\t' read -r i name; do
      timeout "${BENCH_TIMEOUT:-240}" python3 bench/bench.py --tpx-bin "$bin" --index "$i" \
        --out "$parts/bench-$i.json" < /dev/null 2>&1 | grep -v "Assertion" \
        | grep -vE '^(Traceback|  File|    )' | tail -4
      [ -s "$parts/bench-$i.json" ] || missing+=(--missing "$i:$name")
    done < <(python3 bench/bench.py --list ${BENCH_ONLY:+--only "$BENCH_ONLY"})
    python3 bench/merge_results.py "$parts"/bench-*.json "${missing[@]}" > "$out/bench$tag.json"
    python3 bench/results_table.py "$out/bench$tag.json" ;;
  esac
done
