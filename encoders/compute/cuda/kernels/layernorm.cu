// LayerNorm (torch.nn.LayerNorm: biased variance), one block of SE_BLOCK
// threads per row. Mean and variance are summed in double as the CPU path
// does (encoders/layernorm.go); only the order of the additions differs
// (a tree instead of a loop), which double precision hides.

// layernorm_fwd_f32 normalises rows x H of x into y (y may be x) as
// compute.LayerNormHost: y = float((x-mean)*inv)*gamma + beta. With xhat
// and rstd (LayerNormSave) it also keeps what the backward pass needs:
// xhat = float((x-mean)*inv), the same float y is made from, and
// rstd = float(inv).
extern "C" __global__ void layernorm_fwd_f32(const float* x, const float* gamma, const float* beta, float* y,
                                             float* xhat, float* rstd, int rows, int H, double eps) {
  int r = blockIdx.x;
  if (r >= rows) return;
  const float* xr = x + (long long)r * H;
  float* yr = y + (long long)r * H;
  double s = 0.0;
  for (int j = threadIdx.x; j < H; j += SE_BLOCK) s += (double)xr[j];
  double mean = se_sum<double>(s) / H;
  double q = 0.0;
  for (int j = threadIdx.x; j < H; j += SE_BLOCK) {
    double d = (double)xr[j] - mean;
    q += d * d;
  }
  double var = se_sum<double>(q) / H;
  double inv = 1.0 / sqrt(var + eps);
  if (xhat == 0) {
    for (int j = threadIdx.x; j < H; j += SE_BLOCK)
      yr[j] = (float)(((double)xr[j] - mean) * inv) * gamma[j] + beta[j];
    return;
  }
  if (threadIdx.x == 0) rstd[r] = (float)inv;
  float* xh = xhat + (long long)r * H;
  for (int j = threadIdx.x; j < H; j += SE_BLOCK) {
    float h = (float)(((double)xr[j] - mean) * inv);
    xh[j] = h;
    yr[j] = h * gamma[j] + beta[j];
  }
}

// layernorm_bwd_f32 writes dx (may be dy) from dy and the forward pass's
// xhat and rstd: dx = rstd*(dy*gamma - mean(dy*gamma) - xhat*mean(dy*gamma*xhat)),
// the sums in float as compute.LayerNormBackwardHost (in a tree of
// SE_BLOCK partial sums rather than in row order). Launch
// layernorm_param_grad_f32 first when dx is dy.
extern "C" __global__ void layernorm_bwd_f32(const float* dy, const float* xhat, const float* rstd,
                                             const float* gamma, float* dx, int rows, int H) {
  int r = blockIdx.x;
  if (r >= rows) return;
  const float* dr = dy + (long long)r * H;
  const float* xh = xhat + (long long)r * H;
  float s = 0.0f, dot = 0.0f;
  for (int j = threadIdx.x; j < H; j += SE_BLOCK) {
    float d = dr[j] * gamma[j];
    s += d;
    dot += d * xh[j];
  }
  s = se_sum<float>(s) / (float)H;
  dot = se_sum<float>(dot) / (float)H;
  float rs = rstd[r];
  float* out = dx + (long long)r * H;
  for (int j = threadIdx.x; j < H; j += SE_BLOCK) out[j] = rs * (dr[j] * gamma[j] - s - xh[j] * dot);
}

// layernorm_param_grad_f32 adds the gradients of gamma and beta, one thread
// per column adding row by row in row order, exactly as
// compute.LayerNormBackwardHost does.
extern "C" __global__ void layernorm_param_grad_f32(const float* dy, const float* xhat, int rows, int H,
                                                    float* dgamma, float* dbeta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= H) return;
  float g = dgamma[j], b = dbeta[j];
  for (int r = 0; r < rows; r++) {
    float d = dy[(long long)r * H + j];
    g += d * xhat[(long long)r * H + j];
    b += d;
  }
  dgamma[j] = g;
  dbeta[j] = b;
}
