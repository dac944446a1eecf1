#!/usr/bin/env bash
# The prepared GPU check of the CUDA backend (issue 22). It runs on a
# machine with the NVIDIA driver, CUDA 13 libraries and PyTorch but no Go
# and no network, in one call, with the repository at hand and the binaries
# of scripts/cuda-check-build.sh in .cuda-check/bin. It writes one summary
# (one line per step: name, PASS/FAIL/SKIP, seconds, detail) and one log
# of every step's output, to $OUT if set (the device tool's folder), else
# .cuda-check/out:
#   bash scripts/cuda-check.sh [OUTDIR]
# Each step is a function; parity and speed steps are added as the backend
# lands. The run stays under ten minutes: each step has a time limit, cut
# to what is left of CUDA_CHECK_BUDGET seconds (default 540) for the whole
# run; a step with under 10 s left is skipped.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# The carried test binaries are gzipped; unpack them beside the run.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cp "$root"/.cuda-check/bin/* "$bin"/ 2>/dev/null
gunzip -f "$bin"/*.gz 2>/dev/null
chmod +x "$bin"/*.test 2>/dev/null
out=${1:-${OUT:-$root/.cuda-check/out}}
mkdir -p "$out"
summary=$out/cuda-check-summary.txt
log=$out/cuda-check.log
: >"$summary"
: >"$log"
budget=${CUDA_CHECK_BUDGET:-540}
start=$(date +%s)

# record NAME STATUS SECONDS DETAIL: one summary line.
record() { printf '%-18s %-5s %4ss  %s\n' "$1" "$2" "$3" "$4" | tee -a "$summary"; }

# step NAME LIMIT_SECONDS COMMAND...: runs the command with its output in
# the log; PASS on exit 0, SKIP on exit 3, FAIL otherwise. The detail is the
# command's last line of output that starts with "detail: ", else its
# last line.
step() {
  local name=$1 limit=$2
  shift 2
  local t0 rc status tmp left
  left=$((budget - ($(date +%s) - start)))
  if [ "$left" -lt 10 ]; then
    record "$name" SKIP 0 "the run's ${budget}s budget is spent"
    return
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  tmp=$(mktemp)
  t0=$(date +%s)
  # timeout runs the step in a process group of its own and ends all of it.
  timeout -k 10 "$limit" bash -c '"$@"' step "$@" >"$tmp" 2>&1
  rc=$?
  case $rc in
  0) status=PASS ;;
  3) status=SKIP ;;
  124) status=FAIL; echo "(timed out after ${limit}s)" >>"$tmp" ;;
  *) status=FAIL ;;
  esac
  { echo "==== $name: $status (exit $rc)"; cat "$tmp"; echo; } >>"$log"
  local detail
  detail=$(grep '^detail: ' "$tmp" | tail -n 1 | sed 's/^detail: //')
  [ -n "$detail" ] || detail=$(grep -v '^\s*$' "$tmp" | tail -n 1 | cut -c1-200)
  record "$name" "$status" "$(($(date +%s) - t0))" "$detail"
  rm -f "$tmp"
}

# gpu_step NAME LIMIT COMMAND...: a step that needs GPU 0; when the devices
# step found none usable, it is skipped with that reason instead of
# failing test by test (a dry run without a GPU reports what it could not
# run, one line each).
gpu_step() {
  if [ -n "$no_gpu" ]; then
    record "$1" SKIP 0 "needs a GPU: $no_gpu"
    return
  fi
  step "$@"
}

# ---- the steps ----

# The machine: GPU, driver, PyTorch.
machine() {
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || return 1
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' || true
  echo "detail: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1); binaries of commit $(cat "$bin/commit" 2>/dev/null || echo unknown)"
}

# The folders holding CUDA 13 (or 12) cuBLAS and NVRTC: the toolkit's and
# PyTorch's wheels (site-packages/nvidia/...), added to the search path.
find_libraries() {
  local dirs
  dirs=$(find /usr/local/cuda/lib64 /usr/local/cuda/targets /opt /usr/local/lib /usr/lib/python3* -maxdepth 9 \
    \( -name 'libcublas.so.1[23]' -o -name 'libnvrtc.so.1[23]' \) -printf '%h\n' 2>/dev/null | sort -u | paste -sd: -)
  export STORYEVAL_CUDA_LIB_PATH=${STORYEVAL_CUDA_LIB_PATH:+$STORYEVAL_CUDA_LIB_PATH:}$dirs
  echo "STORYEVAL_CUDA_LIB_PATH=$STORYEVAL_CUDA_LIB_PATH"
}

# The libraries and GPUs the backend finds (what `storyeval devices -v`
# prints), GPU 0 required to be usable.
devices() {
  local o rc
  o=$(go_test encoders_compute_cuda -test.run '^TestReportOnThisMachine$')
  rc=$?
  echo "$o"
  echo "detail: $(echo "$o" | grep -m1 -E '^ +(no usable GPU|[0-9]+ usable GPU)' | sed 's/^ *//')"
  return $rc
}

# go_test NAME [ARGS...]: runs the test binary NAME from its package folder
# (where its testdata is), with the GPU required: a skipped GPU test would
# otherwise pass.
go_test() {
  local name=$1
  shift
  [ -x "$bin/$name.test" ] || { echo "detail: $name.test not built (scripts/cuda-check-build.sh)"; return 3; }
  local pkg
  pkg=$(cat "$bin/$name.pkg")
  (cd "$root/$pkg" && STORYEVAL_REQUIRE_CUDA=1 STORYEVAL_REQUIRE_NVRTC=1 "$bin/$name.test" -test.count=1 -test.v "$@") >"$out/.go_test.tmp" 2>&1
  local rc=$?
  local out_text
  out_text=$(cat "$out/.go_test.tmp")
  cat "$out/.go_test.tmp"
  local pass fail skip
  pass=$(grep -c -- '^--- PASS' "$out/.go_test.tmp")
  fail=$(grep -c -- '^--- FAIL' "$out/.go_test.tmp")
  skip=$(grep -c -- '^--- SKIP' "$out/.go_test.tmp")
  rm -f "$out/.go_test.tmp"
  echo "detail: $pkg: $pass passed, $fail failed, $skip skipped"
  # A selection that matched nothing (a test not built in yet) is no pass.
  if [ "$rc" = 0 ] && [ "$pass$fail" = 00 ] && ! grep -q '^Benchmark' <<<"$out_text"; then
    echo "detail: $pkg: no test matched $*"
    return 3
  fi
  return $rc
}

# The PyTorch side of the speed comparison (same shapes, random weights,
# float32, TF32 off, eager), independent of the backend.
torch_speed() {
  PYTHONUNBUFFERED=1 python3 "$root/scripts/cuda_check_torch_speed.py"
}

# The storyeval side of the speed comparison: the benchmarks of package
# cuda (the shapes of torch_speed, float32, TF32 and BF16), one line each.
speed() {
  local o rc
  o=$(go_test encoders_compute_cuda -test.run '^$' -test.bench '^BenchmarkGPU' -test.benchtime 3x)
  rc=$?
  echo "$o"
  local lines
  lines=$(echo "$o" | grep -E '^BenchmarkGPU.*items/s' | sed -E 's/^BenchmarkGPU([^ \t]*)-[0-9]+[ \t].* ([0-9.]+) items\/s.*/\1 \2\/s/' | paste -sd';' -)
  [ -n "$lines" ] && echo "detail: $lines"
  return $rc
}

# The end-to-end fixture tests of the commands (RoViST-C and VG, GROOViST,
# CLIPScore, Vrank predictions against the reference implementations'
# outputs, the CPU tests' tolerances) with every model on CUDA.
e2e_cuda() {
  STORYEVAL_DEVICE=cuda go_test cmd_storyeval -test.run \
    '^(TestRoViSTCommandCoherence|TestRoViSTCommandGrounding|TestGroovistCommandMatchesOriginalOutputs|TestCLIPScoreCommandMatchesOriginalOutput|TestVrankPredictCommandMatchesFixture)$'
}

# The storyeval side of the end-to-end comparison: rovist VG and groovist
# with full-size random models, CUDA (100 stories × 5 images × 10 crops)
# vs the CPU (4 stories), stories/s; one detail line per metric.
e2e_speed() {
  local o rc
  o=$(go_test cmd_storyeval -test.run '^$' -test.bench '^BenchmarkDeviceStoriesPerSecond$' -test.benchtime 1x)
  rc=$?
  echo "$o"
  local lines
  lines=$(echo "$o" | grep '^detail: [A-Za-z-]*: CPU' | sed 's/^detail: //' | paste -sd';' -)
  [ -n "$lines" ] && echo "detail: $lines"
  return $rc
}

cd "$root" || exit 1
export root bin out
export -f machine devices go_test torch_speed speed e2e_cuda e2e_speed
step machine 60 machine
find_libraries >>"$log" 2>&1
step devices 60 devices
no_gpu=
if ! grep -q '^devices  *PASS' "$summary"; then
  no_gpu=$(grep '^devices ' "$summary" | sed -E 's/^devices +[A-Z]+ +[0-9]+s +//')
  [ -n "$no_gpu" ] || no_gpu="GPU 0 is not usable"
fi
step cudalib 120 go_test encoders_compute_cuda_cudalib
step kernels-nvrtc 120 go_test encoders_compute_cuda_kernels
# Estimated on an H100 (nothing has run on a GPU yet): machine, devices,
# cudalib and kernels ~30 s; cuda-kernels ~40 s; goldens and full-size
# ~90 s; training ops and steps ~40 s; e2e fixtures on CUDA ~60 s; e2e
# stories/s ~120 s (writing the random models ~20 s, the CPU's 4 stories
# ~30 s); the two speed steps ~150 s: about 9 minutes at most, within the
# 540 s budget that skips whatever would overrun it (parity first).
gpu_step cuda-kernels 180 go_test encoders_compute_cuda -test.skip '^(TestGPUFullSize|TestGPUTrain)'
gpu_step goldens-cuda 180 go_test encoders -test.run '^TestGoldensOnCUDA$'
gpu_step fullsize-cuda 180 go_test encoders_compute_cuda -test.run '^TestGPUFullSize'
gpu_step train-ops-cuda 120 go_test encoders_compute_cuda -test.run '^(TestGPUTrainOpsMatchCPU|TestGPUTrainingStepMatchesCPU)$'
gpu_step train-step-cuda 120 go_test cmd_storyeval -test.run '^TestGPU(Vrank|Coherence|VG)TrainerStepMatchesCPU$|^TestGPUPretrainerStepMatchesCPU$'
gpu_step e2e-cuda 180 e2e_cuda
gpu_step e2e-speed 200 e2e_speed
gpu_step torch-speed 240 torch_speed
gpu_step speed-storyeval 300 speed
echo "summary: $summary; log: $log"
grep -q ' FAIL ' "$summary" && exit 1
exit 0
