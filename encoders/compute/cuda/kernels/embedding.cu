// Token and patch embeddings, and pooling.

// embed_sum_f32: dst[r] = word[ids[r]] + pos[r % S] + typ[types[r]] for
// rows of E values (typ and types may be null: CLIP's text tower has no
// token types), added in that order as encoders.sumEmbeddings.
extern "C" __global__ void embed_sum_f32(float* dst, const float* word, const float* pos, const float* typ,
                                         const int* ids, const int* types, int rows, int S, int E) {
  SE_FOR(i, (long long)rows * E) {
    int r = (int)(i / E), j = (int)(i % E);
    float v = word[(long long)ids[r] * E + j] + pos[(long long)(r % S) * E + j];
    if (typ) v = v + typ[(long long)types[r] * E + j];
    dst[i] = v;
  }
}

// embed_sum_bwd_f32 adds d [rows, E] to the gradients of the three tables
// (gtyp may be null), one thread per column adding row by row: the same
// order of additions as compute.EmbedBackwardHost, so the
// result is deterministic without atomics.
extern "C" __global__ void embed_sum_bwd_f32(float* gword, float* gpos, float* gtyp, const int* ids, const int* types,
                                             int rows, int S, int E, const float* d) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= E) return;
  for (int r = 0; r < rows; r++) {
    float v = d[(long long)r * E + j];
    gword[(long long)ids[r] * E + j] += v;
    gpos[(long long)(r % S) * E + j] += v;
    if (gtyp) gtyp[(long long)types[r] * E + j] += v;
  }
}

// im2col_f32 lays the patches of B images [C, img, img] out as rows of
// C*patch*patch values (channel, then row, then column within the patch),
// patches in row-major order, as encoders.patchEmbedding.apply: the patch
// convolution is then one GEMM with the Conv2d weight read as [hidden, C*p*p].
extern "C" __global__ void im2col_f32(const float* imgs, float* cols, int B, int C, int img, int patch) {
  int g = img / patch, n = g * g, k = C * patch * patch;
  SE_FOR(i, (long long)B * n * k) {
    long long row = i / k;
    int e = (int)(i % k);
    int b = (int)(row / n), p = (int)(row % n);
    int py = p / g, px = p % g;
    int c = e / (patch * patch), rem = e % (patch * patch);
    int y = rem / patch, x = rem % patch;
    cols[i] = imgs[(((long long)b * C + c) * img + py * patch + y) * img + px * patch + x];
  }
}

// vit_embed_f32 writes the first layer's input [B, N+1, H]: the class
// embedding then the N patch embeddings of each image, plus the position
// embeddings pos [N+1, H], as encoders.patchEmbedding.embed.
extern "C" __global__ void vit_embed_f32(float* x, const float* patches, const float* cls, const float* pos,
                                         int B, int N, int H) {
  int seq = N + 1;
  SE_FOR(i, (long long)B * seq * H) {
    int j = (int)(i % H);
    int t = (int)((i / H) % seq);
    long long b = i / ((long long)seq * H);
    float v = t == 0 ? cls[j] : patches[(b * N + t - 1) * H + j];
    x[i] = v + pos[(long long)t * H + j];
  }
}

// gather_rows_f32: dst[i] = x[idx[i]] for n rows of H values (the CLS
// token of each sequence for BERT's pooler, CLIP's end-of-text token, ViT's
// class token); a negative idx[i] leaves dst row i as it is.
extern "C" __global__ void gather_rows_f32(float* dst, const float* x, const int* idx, int n, int H) {
  SE_FOR(i, (long long)n * H) {
    int r = (int)(i / H), j = (int)(i % H);
    if (idx[r] >= 0) dst[i] = x[(long long)idx[r] * H + j];
  }
}

// embed_gather_f32 writes (accumulate 0) or adds (accumulate 1) one table's
// rows to dst [rows, width]: row ids[r] of table, or with ids null row
// r % period (absolute positions), or row r itself when period is 0 (table
// may then be dst). Calling it for each table in order, the first writing,
// sums the tables left to right in float as compute.CPUBackend.Embed.
extern "C" __global__ void embed_gather_f32(float* dst, const float* table, const int* ids, int rows, int width,
                                            int period, int accumulate) {
  SE_FOR(i, (long long)rows * width) {
    int r = (int)(i / width), j = (int)(i % width);
    long long at = ids ? ids[r] : (period > 0 ? r % period : r);
    float v = table[at * width + j];
    dst[i] = accumulate ? dst[i] + v : v;
  }
}

// split_heads_f32 copies src [B*S, heads*dh] (the rows of a Q, K or V
// projection) to dst [B, heads, S, dh], so that every (sequence, head) is
// one matrix of a strided batched GEMM.
extern "C" __global__ void split_heads_f32(float* dst, const float* src, int B, int S, int heads, int dh) {
  int H = heads * dh;
  SE_FOR(i, (long long)B * S * H) {
    long long row = i / H;
    int c = (int)(i % H);
    int b = (int)(row / S), s = (int)(row % S), h = c / dh, e = c % dh;
    dst[(((long long)b * heads + h) * S + s) * dh + e] = src[i];
  }
}

// merge_heads_f32 is split_heads_f32's inverse: src [B, heads, S, dh] to
// dst [B*S, heads*dh] (the attention context, before the output projection).
extern "C" __global__ void merge_heads_f32(float* dst, const float* src, int B, int S, int heads, int dh) {
  int H = heads * dh;
  SE_FOR(i, (long long)B * S * H) {
    long long row = i / H;
    int c = (int)(i % H);
    int b = (int)(row / S), s = (int)(row % S), h = c / dh, e = c % dh;
    dst[i] = src[(((long long)b * heads + h) * S + s) * dh + e];
  }
}

// l2_normalize_f32 divides each row [rows, H] by max(float(sqrt(sum x^2)),
// min_norm), the sum in double: CLIP's x / x.norm() with min_norm 0,
// F.normalize's max(norm, 1e-12) with min_norm 1e-12.
extern "C" __global__ void l2_normalize_f32(float* x, int rows, int H, float min_norm) {
  int r = blockIdx.x;
  if (r >= rows) return;
  float* xr = x + (long long)r * H;
  double s = 0.0;
  for (int j = threadIdx.x; j < H; j += SE_BLOCK) s += (double)xr[j] * (double)xr[j];
  float n = fmaxf((float)sqrt(se_sum<double>(s)), min_norm);
  for (int j = threadIdx.x; j < H; j += SE_BLOCK) xr[j] = xr[j] / n;
}

// scatter_rows_f32 is the backward of embed_gather_f32 and gather_rows_f32
// (EmbedBackward, RowsBackward): grad row at(r) += dy row r for r in order,
// at(r) = ids[r], or with ids null r % period (period > 0) or r itself; a
// negative ids[r] is skipped. One thread per column adds row by row, as
// compute.EmbedBackwardHost, so repeated rows sum in row order without
// atomics.
extern "C" __global__ void scatter_rows_f32(float* grad, const float* dy, const int* ids, int rows, int width,
                                            int period) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= width) return;
  for (int r = 0; r < rows; r++) {
    long long at = ids ? ids[r] : (period > 0 ? r % period : r);
    if (at < 0) continue;
    grad[at * width + j] += dy[(long long)r * width + j];
  }
}
