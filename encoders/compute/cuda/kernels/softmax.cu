// Masked (and causal) softmax over attention scores, one block of SE_BLOCK
// threads per row, and its backward pass.

// masked_softmax_f32 replaces each row of scores [B*heads*Sq, S] by its
// softmax over the keys a query may attend to: key j of sequence b is
// hidden when key_valid (bytes, [B*S], may be null) is 0 at b*S+j, or with
// causal when j is after the query. Hidden keys get weight exactly 0, as
// adding HF's most negative float32 before the softmax gives; a row with no
// visible key gets uniform weights, as that addition gives too. A nonzero
// divisor divides the scores first (the training path's 1/sqrt(d) scaling;
// inference scales in the GEMM). exp and the sum are in double and the
// weights rounded once, as encoders.softmaxInPlace.
extern "C" __global__ void masked_softmax_f32(float* scores, const unsigned char* key_valid, int B, int heads,
                                              int Sq, int S, int causal, float divisor) {
  long long row = blockIdx.x;
  if (row >= (long long)B * heads * Sq) return;
  int b = (int)(row / ((long long)heads * Sq));
  int q = (int)(row % Sq);
  float* x = scores + row * S;
  float m = 0.0f;
  int has = 0;
  for (int j = threadIdx.x; j < S; j += SE_BLOCK) {
    float v = x[j];
    if (divisor != 0.0f) v = v / divisor;
    x[j] = v;
    int ok = (key_valid == 0 || key_valid[(long long)b * S + j]) && !(causal && j > q);
    if (ok && (!has || v > m)) {
      m = v;
      has = 1;
    }
  }
  int any;
  m = se_max_float(m, has, &any);
  double s = 0.0;
  for (int j = threadIdx.x; j < S; j += SE_BLOCK) {
    int ok = !any || ((key_valid == 0 || key_valid[(long long)b * S + j]) && !(causal && j > q));
    if (ok) s += exp((double)(any ? x[j] - m : 0.0f));
  }
  double inv = 1.0 / se_sum<double>(s);
  for (int j = threadIdx.x; j < S; j += SE_BLOCK) {
    int ok = !any || ((key_valid == 0 || key_valid[(long long)b * S + j]) && !(causal && j > q));
    x[j] = ok ? (float)(exp((double)(any ? x[j] - m : 0.0f)) * inv) : 0.0f;
  }
}

// softmax_bwd_f32 turns dp, the gradient of the weights p [rows, S], into
// the gradient of the scaled scores in place: p*(dp - sum(p*dp))*scale,
// in double and rounded once, as compute.AttentionBackwardHost (scale is
// the attention's, whose GEMM scaled the scores).
extern "C" __global__ void softmax_bwd_f32(const float* p, float* dp, int rows, int S, float scale) {
  long long r = blockIdx.x;
  if (r >= rows) return;
  const float* pr = p + r * S;
  float* dr = dp + r * S;
  double d = 0.0;
  for (int j = threadIdx.x; j < S; j += SE_BLOCK) d += (double)pr[j] * (double)dr[j];
  double dot = se_sum<double>(d);
  for (int j = threadIdx.x; j < S; j += SE_BLOCK)
    dr[j] = (float)((double)pr[j] * ((double)dr[j] - dot) * (double)scale);
}
