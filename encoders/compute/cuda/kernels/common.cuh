// Helpers shared by the storyeval kernels. The kernel files are compiled
// together, this file first, by NVRTC at run time (see the Go package doc);
// no host header is available there, only CUDA's device built-ins.
//
// Row kernels (one block per row) run with SE_BLOCK threads: their
// reductions use a fixed tree over SE_BLOCK partial sums, so that results do
// not change from run to run. (The CPU emulation of testdata/emu.h
// compiles them with fewer threads; NVRTC always with 256.)
#ifndef SE_BLOCK
#define SE_BLOCK 256
#endif

// Grid-stride loop over n elements.
#define SE_FOR(i, n) \
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += (long long)gridDim.x * blockDim.x)

// Activation codes, the same as the Go side's (kernels.Activation).
#define SE_ACT_NONE 0
#define SE_ACT_GELU 1       // erf GELU, HF "gelu"
#define SE_ACT_GELU_TANH 2  // tanh approximation, HF "gelu_new"
#define SE_ACT_QUICK_GELU 3 // CLIP's x*sigmoid(1.702x)
#define SE_ACT_RELU 4
#define SE_ACT_TANH 5

// se_sum returns the sum of v over the block (every thread gets it), in
// T: double for the sums the CPU path takes in float64, float for those it
// takes in float32 (LayerNorm's backward).
template <typename T> __device__ T se_sum(T v) {
  __shared__ T buf[SE_BLOCK];
  unsigned t = threadIdx.x;
  buf[t] = v;
  __syncthreads();
  for (unsigned s = SE_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] += buf[t + s];
    __syncthreads();
  }
  T r = buf[0];
  __syncthreads();
  return r;
}

// se_max_float returns the block's maximum of v, and in *any whether some
// thread had a value (has != 0): masked keys take no part in the maximum.
__device__ float se_max_float(float v, int has, int* any) {
  __shared__ float buf[SE_BLOCK];
  __shared__ int hb[SE_BLOCK];
  unsigned t = threadIdx.x;
  buf[t] = v;
  hb[t] = has;
  __syncthreads();
  for (unsigned s = SE_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s && hb[t + s] && (!hb[t] || buf[t + s] > buf[t])) {
      buf[t] = buf[t + s];
      hb[t] = 1;
    }
    __syncthreads();
  }
  float r = buf[0];
  *any = hb[0];
  __syncthreads();
  return r;
}
