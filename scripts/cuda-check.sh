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

# Steps still to come (each prints why it is skipped).
pending() {
  echo "detail: $1: not yet built"
  return 3
}

cd "$root" || exit 1
export root bin out
export -f machine devices go_test torch_speed speed pending
step machine 60 machine
find_libraries >>"$log" 2>&1
step devices 60 devices
step cudalib 120 go_test encoders_compute_cuda_cudalib
step kernels-nvrtc 120 go_test encoders_compute_cuda_kernels
step cuda-kernels 180 go_test encoders_compute_cuda -test.skip '^TestGPUFullSize'
step goldens-cuda 180 go_test encoders -test.run '^TestGoldensOnCUDA$'
step fullsize-cuda 180 go_test encoders_compute_cuda -test.run '^TestGPUFullSize'
step torch-speed 240 torch_speed
step speed-storyeval 300 speed
step e2e-cuda 10 pending "RoViST-C/VG, GROOViST, CLIPScore, Vrank e2e sets on CUDA (the metrics take no backend yet)"
step train-step-cuda 10 pending "one training step of each trainer vs the CPU (training runs on host slices, not on a Backend, yet)"
echo "summary: $summary; log: $log"
grep -q ' FAIL ' "$summary" && exit 1
exit 0
