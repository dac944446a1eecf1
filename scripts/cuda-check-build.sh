#!/usr/bin/env bash
# Builds what scripts/cuda-check.sh runs on a GPU machine that has no Go:
# the test binaries of the CUDA packages (go test -c), for linux/amd64
# without cgo (the CUDA libraries are loaded at run time), stripped, into
# .cuda-check/bin (git-ignored), gzipped (about 28 MB). The storyeval
# command itself stays behind: its test binary runs the commands (the
# end-to-end fixture tests with STORYEVAL_DEVICE=cuda, the stories/s
# benchmark), and package cuda's TestReportOnThisMachine prints what
# `storyeval devices -v` prints. Carry that folder to the GPU machine with
# the repository and run
#   bash scripts/cuda-check.sh
# there. Run this from anywhere: bash scripts/cuda-check-build.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
bin=.cuda-check/bin
rm -rf "$bin"
mkdir -p "$bin"
export CGO_ENABLED=0 GOOS=linux GOARCH=amd64
flags=(-trimpath -ldflags='-s -w')

# One test binary per package; cuda-check.sh runs each from its package
# folder, where the tests find their testdata. Packages whose tests run on
# the CUDA backend are added here as the backend reaches them.
packages=(
  ./encoders
  ./encoders/compute/cuda/cudalib
  ./encoders/compute/cuda/kernels
  ./encoders/compute/cuda
  ./cmd/storyeval
)
for p in "${packages[@]}"; do
  name=$(echo "${p#./}" | tr / _)
  go test -c "${flags[@]}" -o "$bin/$name.test" "$p"
  gzip -9 "$bin/$name.test"
  echo "${p#./}" >"$bin/$name.pkg"
done
git rev-parse HEAD >"$bin/commit" 2>/dev/null || true
du -sh "$bin"
