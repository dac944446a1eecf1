// Adam, dropout and the elementwise operations of the losses.

// adam_f32 is one step of torch.optim.Adam on n parameters, as
// compute.AdamHost: with decoupled (AdamW) p *= decay first, otherwise
// g += wd*p (when wd != 0);
// m = m*b1 + g*c1; v = v*b2 + c2*g*g; p -= step*(m/(sqrt(v)/bc2_sqrt + eps)),
// with c1 = 1-b1, c2 = 1-b2, step = lr/(1-b1^t), bc2_sqrt = sqrt(1-b2^t) computed
// on the host in double and rounded to float, as there. With -fmad=false
// and IEEE sqrt and division, each element is bit-identical to the CPU step.
extern "C" __global__ void adam_f32(float* p, const float* g, float* m, float* v, long long n, float b1, float b2,
                                    float c1, float c2, float step, float bc2_sqrt, float eps, float wd, float decay,
                                    int decoupled) {
  SE_FOR(i, n) {
    float gi = g[i];
    if (decoupled)
      p[i] *= decay;
    else if (wd != 0.0f)
      gi += wd * p[i];
    float mi = m[i] * b1 + gi * c1;
    float vi = v[i] * b2 + c2 * gi * gi;
    m[i] = mi;
    v[i] = vi;
    float denom = sqrtf(vi) / bc2_sqrt + eps;
    p[i] -= step * (mi / denom);
  }
}

// dropout_f32 multiplies x (elements offset.. offset+n of a mask stream) by
// its mask: 0 when dropped, keep_scale = float(1/(1-p)) when kept. The mask
// is compute.Dropout.Factor, a splitmix64 hash of (seed,
// stream, element) compared with threshold = p*2^64, so the GPU and the CPU
// drop the same elements and the backward pass regenerates the mask.
extern "C" __global__ void dropout_f32(float* x, long long n, unsigned long long seed, unsigned long long stream,
                                       long long offset, unsigned long long threshold, float keep_scale) {
  SE_FOR(i, n) {
    unsigned long long z = seed ^ stream * 0x9E3779B97F4A7C15ULL;
    z += (unsigned long long)(offset + i) * 0xD1B54A32D192ED03ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    x[i] = x[i] * (z < threshold ? 0.0f : keep_scale);
  }
}

// scale_f32: x *= s.
extern "C" __global__ void scale_f32(float* x, long long n, float s) {
  SE_FOR(i, n) { x[i] = x[i] * s; }
}

// add_f32: dst += a (residual connections, gradient accumulation).
extern "C" __global__ void add_f32(float* dst, const float* a, long long n) {
  SE_FOR(i, n) { dst[i] = dst[i] + a[i]; }
}

// sum_f32: out[0] = the sum of x in double, one block of SE_BLOCK threads
// (losses are sums over a batch: small).
extern "C" __global__ void sum_f32(const float* x, long long n, double* out) {
  double s = 0.0;
  for (long long i = threadIdx.x; i < n; i += SE_BLOCK) s += (double)x[i];
  s = se_sum<double>(s);
  if (threadIdx.x == 0) out[0] = s;
}

// axpy_f32: dst += alpha*x (AddScaled), the product rounded before the sum
// as Go computes it.
extern "C" __global__ void axpy_f32(float* dst, const float* x, long long n, float alpha) {
  SE_FOR(i, n) { dst[i] = dst[i] + alpha * x[i]; }
}

// mul_f32: dst *= x element-wise (Mul).
extern "C" __global__ void mul_f32(float* dst, const float* x, long long n) {
  SE_FOR(i, n) { dst[i] = dst[i] * x[i]; }
}

// sumsq_f32: out[0] = the sum of x*x in double (SumSquares), one block of
// SE_BLOCK threads.
extern "C" __global__ void sumsq_f32(const float* x, long long n, double* out) {
  double s = 0.0;
  for (long long i = threadIdx.x; i < n; i += SE_BLOCK) s += (double)x[i] * (double)x[i];
  s = se_sum<double>(s);
  if (threadIdx.x == 0) out[0] = s;
}

// xent_f32 is softmax cross-entropy per row of logits [rows, cols] as
// compute.SoftmaxCrossEntropyHost, one block of SE_BLOCK threads per row:
// loss[r] = lse - row[label] with lse = m + log(sum exp(row - m)) in
// double, hit[r] = whether label is the row's first argmax, and
// dlogits[r] = float((exp(row - lse) - onehot(label)) / n), n the number of
// rows counted. Rows with a negative label get loss 0, hit 0 and gradient 0.
extern "C" __global__ void xent_f32(const float* logits, const int* labels, int rows, int cols, double n,
                                    double* loss, int* hit, float* dlogits) {
  __shared__ float bv[SE_BLOCK];
  __shared__ int bi[SE_BLOCK];
  int r = blockIdx.x;
  if (r >= rows) return;
  const float* x = logits + (long long)r * cols;
  float* d = dlogits + (long long)r * cols;
  int label = labels[r];
  if (label < 0 || label >= cols) {
    for (int j = threadIdx.x; j < cols; j += SE_BLOCK) d[j] = 0.0f;
    if (threadIdx.x == 0) {
      loss[r] = 0.0;
      hit[r] = 0;
    }
    return;
  }
  // Each thread's first maximum, then the block's: the larger value, or
  // the smaller index of equal ones (torch.argmax's first maximum).
  float m = 0.0f;
  int arg = -1;
  for (int j = threadIdx.x; j < cols; j += SE_BLOCK)
    if (arg < 0 || x[j] > m) {
      m = x[j];
      arg = j;
    }
  unsigned t = threadIdx.x;
  bv[t] = m;
  bi[t] = arg;
  __syncthreads();
  for (unsigned s = SE_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s && bi[t + s] >= 0 &&
        (bi[t] < 0 || bv[t + s] > bv[t] || (bv[t + s] == bv[t] && bi[t + s] < bi[t]))) {
      bv[t] = bv[t + s];
      bi[t] = bi[t + s];
    }
    __syncthreads();
  }
  double mx = (double)bv[0];
  int best = bi[0];
  __syncthreads();
  double s = 0.0;
  for (int j = threadIdx.x; j < cols; j += SE_BLOCK) s += exp((double)x[j] - mx);
  double lse = mx + log(se_sum<double>(s));
  for (int j = threadIdx.x; j < cols; j += SE_BLOCK) {
    double p = exp((double)x[j] - lse);
    if (j == label) p -= 1.0;
    d[j] = (float)(p / n);
  }
  if (threadIdx.x == 0) {
    loss[r] = lse - (double)x[label];
    hit[r] = best == label;
  }
}
