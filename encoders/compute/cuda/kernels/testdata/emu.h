// A CPU emulation of the few CUDA features the storyeval kernels use, so
// that their logic (indexing, masks, block reductions) can be checked
// with a C++ compiler on a machine without a GPU (emu_test.cpp, run by
// kernels' TestKernelsOnCPUEmulation). Blocks run one after another, the
// threads of a block as real threads meeting at __syncthreads, so
// __shared__ (static) memory is shared by the threads of the running block
// as on a GPU. Numerics are the host's, not the GPU's: only the logic is
// checked here.
#include <barrier>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thread>
#include <vector>

struct dim3 {
  unsigned x, y, z;
};
thread_local dim3 threadIdx, blockIdx;
dim3 blockDim, gridDim;
std::barrier<>* se_emu_barrier;

#define __global__
#define __device__
#define __shared__ static
#define __syncthreads() se_emu_barrier->arrive_and_wait()

// launch runs kernel k on grid blocks of block threads: block threads
// take the blocks one after another, meeting at a barrier between blocks
// so that a block's shared memory is not reused while a thread is still in
// the previous block.
template <typename F, typename... Args> void launch(F k, unsigned grid, unsigned block, Args... args) {
  gridDim = {grid, 1, 1};
  blockDim = {block, 1, 1};
  std::barrier<> bar(block);
  se_emu_barrier = &bar;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < block; t++)
    threads.emplace_back([=, &bar] {
      threadIdx = {t, 0, 0};
      for (unsigned b = 0; b < grid; b++) {
        blockIdx = {b, 0, 0};
        k(args...);
        bar.arrive_and_wait();
      }
    });
  for (auto& th : threads) th.join();
}
