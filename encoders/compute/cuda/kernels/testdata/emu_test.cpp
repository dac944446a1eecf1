// Checks the kernels' logic on the CPU (see emu.h): each kernel against a
// plain loop of what it must compute. Prints one line per failed check and
// "ok N checks" at the end; exits 1 on any failure.
#include "emu.h"

#include "kernels.cu" // kernels.Source(), written by the Go test

static int checks, failures;

static void expect(const char* what, const float* got, const float* want, int n, double tol) {
  checks++;
  for (int i = 0; i < n; i++) {
    double d = fabs((double)got[i] - (double)want[i]);
    if (!(d <= tol * fmax(1.0, fabs((double)want[i])))) {
      printf("FAIL %s: element %d is %.9g, want %.9g\n", what, i, got[i], want[i]);
      failures++;
      return;
    }
  }
}

static float rnd(unsigned* s) {
  *s = *s * 1664525u + 1013904223u;
  return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

static std::vector<float> randoms(unsigned seed, int n, float scale) {
  std::vector<float> v(n);
  for (auto& x : v) x = rnd(&seed) * scale;
  return v;
}

static const int B = SE_BLOCK;

static void layernorm() {
  const int rows = 3, H = 300;
  auto x = randoms(1, rows * H, 3), g = randoms(2, H, 1), b = randoms(3, H, 1);
  std::vector<float> y(rows * H), want(rows * H), xh(rows * H), rs(rows);
  launch(layernorm_fwd_f32, rows, B, x.data(), g.data(), b.data(), y.data(), (float*)0, (float*)0, rows, H, 1e-12);
  for (int r = 0; r < rows; r++) {
    double m = 0, v = 0;
    for (int j = 0; j < H; j++) m += x[r * H + j];
    m /= H;
    for (int j = 0; j < H; j++) v += (x[r * H + j] - m) * (x[r * H + j] - m);
    v /= H;
    for (int j = 0; j < H; j++) want[r * H + j] = (float)((x[r * H + j] - m) / sqrt(v + 1e-12)) * g[j] + b[j];
  }
  expect("layernorm forward", y.data(), want.data(), rows * H, 1e-6);
  launch(layernorm_fwd_f32, rows, B, x.data(), g.data(), b.data(), y.data(), xh.data(), rs.data(), rows, H, 1e-12);
  expect("layernorm forward (training)", y.data(), want.data(), rows * H, 1e-5);
  // Backward: the gradient of sum(dy*y) w.r.t. x by finite differences
  // would need double; check the identity sum_j dx_j = 0 per row instead
  // (LayerNorm's output ignores a shift of its input) and the formula.
  auto dy = randoms(4, rows * H, 1);
  std::vector<float> dx(rows * H), wdx(rows * H);
  launch(layernorm_bwd_f32, rows, B, dy.data(), xh.data(), rs.data(), g.data(), dx.data(), rows, H);
  for (int r = 0; r < rows; r++) {
    double s = 0, dot = 0;
    for (int j = 0; j < H; j++) {
      s += dy[r * H + j] * g[j];
      dot += dy[r * H + j] * g[j] * xh[r * H + j];
    }
    s /= H;
    dot /= H;
    for (int j = 0; j < H; j++) wdx[r * H + j] = rs[r] * (dy[r * H + j] * g[j] - s - xh[r * H + j] * dot);
  }
  expect("layernorm backward", dx.data(), wdx.data(), rows * H, 1e-4);
  std::vector<float> dg(H, 0.5f), db(H, -0.5f), wdg(H, 0.5f), wdb(H, -0.5f);
  launch(layernorm_param_grad_f32, (H + B - 1) / B, B, dy.data(), xh.data(), rows, H, dg.data(), db.data());
  for (int r = 0; r < rows; r++)
    for (int j = 0; j < H; j++) {
      wdg[j] += dy[r * H + j] * xh[r * H + j];
      wdb[j] += dy[r * H + j];
    }
  expect("layernorm dgamma", dg.data(), wdg.data(), H, 0);
  expect("layernorm dbeta", db.data(), wdb.data(), H, 0);
}

static void softmax() {
  const int Bs = 3, heads = 2, S = 260; // S > SE_BLOCK: the strided loops
  auto x = randoms(5, Bs * heads * S * S, 10);
  std::vector<unsigned char> valid(Bs * S);
  for (int j = 0; j < Bs * S; j++) valid[j] = j < S || (j >= S && j < S + 200); // sequence 2 all padding

  for (int causal = 0; causal < 2; causal++) {
    auto p = x;
    launch(masked_softmax_f32, Bs * heads * S, B, p.data(), valid.data(), Bs, heads, S, S, causal, 0.0f);
    std::vector<float> want(p.size());
    for (int row = 0; row < Bs * heads * S; row++) {
      int b = row / (heads * S), q = row % S;
      auto vis = [&](int j) { return valid[b * S + j] && !(causal && j > q); };
      float m = -INFINITY;
      int any = 0;
      for (int j = 0; j < S; j++)
        if (vis(j)) m = fmaxf(m, x[row * S + j]), any = 1;
      double s = 0;
      for (int j = 0; j < S; j++) s += !any ? 1.0 : vis(j) ? exp((double)(x[row * S + j] - m)) : 0.0;
      for (int j = 0; j < S; j++)
        want[row * S + j] = !any ? (float)(1 / s) : vis(j) ? (float)(exp((double)(x[row * S + j] - m)) / s) : 0.0f;
    }
    expect(causal ? "masked causal softmax" : "masked softmax", p.data(), want.data(), (int)p.size(), 1e-6);
  }
}

static void heads_and_gathers() {
  const int Bs = 2, S = 5, heads = 3, dh = 4, n = Bs * S * heads * dh;
  auto x = randoms(6, n, 1);
  std::vector<float> sp(n), back(n), want(n);
  launch(split_heads_f32, 1, 64, sp.data(), x.data(), Bs, S, heads, dh);
  launch(merge_heads_f32, 2, 32, back.data(), sp.data(), Bs, S, heads, dh);
  for (int b = 0; b < Bs; b++)
    for (int s = 0; s < S; s++)
      for (int h = 0; h < heads; h++)
        for (int e = 0; e < dh; e++) want[((b * heads + h) * S + s) * dh + e] = x[(b * S + s) * heads * dh + h * dh + e];
  expect("split heads", sp.data(), want.data(), n, 0);
  expect("merge heads", back.data(), x.data(), n, 0);

  const int rows = 6, w = 7, vocab = 4, period = 4;
  auto word = randoms(7, vocab * w, 1), pos = randoms(8, period * w, 1);
  int ids[rows] = {3, 1, 0, 3, 2, 2};
  std::vector<float> dst(rows * w), wd(rows * w);
  launch(embed_gather_f32, 1, 32, dst.data(), word.data(), ids, rows, w, 0, 0);
  launch(embed_gather_f32, 3, 8, dst.data(), pos.data(), (int*)0, rows, w, period, 1);
  launch(embed_gather_f32, 1, 16, dst.data(), dst.data(), (int*)0, rows, w, 0, 1);
  for (int r = 0; r < rows; r++)
    for (int j = 0; j < w; j++) {
      float e = word[ids[r] * w + j] + pos[(r % period) * w + j];
      wd[r * w + j] = e + e;
    }
  expect("embedding gathers", dst.data(), wd.data(), rows * w, 0);

  int idx[3] = {5, -1, 0};
  std::vector<float> out(3 * w, 7.0f), wout(3 * w, 7.0f);
  launch(gather_rows_f32, 1, 16, out.data(), dst.data(), idx, 3, w);
  for (int j = 0; j < w; j++) wout[j] = dst[5 * w + j], wout[2 * w + j] = dst[j];
  expect("row gather", out.data(), wout.data(), 3 * w, 0);

  const int E = 5, tr = 7, tvocab = 3, S2 = 3;
  int tids[tr] = {2, 2, 0, 1, 2, 0, 1}, types[tr] = {0, 1, 1, 0, 0, 1, 0};
  auto d = randoms(9, tr * E, 1);
  std::vector<float> gw(tvocab * E), gp(S2 * E), gt(2 * E), wgw(tvocab * E), wgp(S2 * E), wgt(2 * E);
  launch(embed_sum_bwd_f32, 1, 8, gw.data(), gp.data(), gt.data(), tids, types, tr, S2, E, d.data());
  for (int r = 0; r < tr; r++)
    for (int j = 0; j < E; j++) {
      wgw[tids[r] * E + j] += d[r * E + j];
      wgp[(r % S2) * E + j] += d[r * E + j];
      wgt[types[r] * E + j] += d[r * E + j];
    }
  expect("embedding word gradient", gw.data(), wgw.data(), tvocab * E, 0);
  expect("embedding position gradient", gp.data(), wgp.data(), S2 * E, 0);
  expect("embedding type gradient", gt.data(), wgt.data(), 2 * E, 0);
}

static void patches() {
  const int Bs = 2, C = 3, img = 8, patch = 4, g = img / patch, n = g * g, k = C * patch * patch;
  auto im = randoms(10, Bs * C * img * img, 1);
  std::vector<float> cols(Bs * n * k), want;
  launch(im2col_f32, 3, 32, im.data(), cols.data(), Bs, C, img, patch);
  for (int b = 0; b < Bs; b++)
    for (int py = 0; py < g; py++)
      for (int px = 0; px < g; px++)
        for (int c = 0; c < C; c++)
          for (int y = 0; y < patch; y++)
            for (int x = 0; x < patch; x++) want.push_back(im[((b * C + c) * img + py * patch + y) * img + px * patch + x]);
  expect("im2col", cols.data(), want.data(), Bs * n * k, 0);
}

static void rows_and_losses() {
  const int rows = 4, cols = 300;
  auto x = randoms(11, rows * cols, 5);
  // Cross-entropy: train_emu_test.cpp, against the CPU backend.

  double sum = 0, want = 0;
  launch(sum_f32, 1, B, x.data(), (long long)(rows * cols), &sum);
  for (float v : x) want += v;
  float gs = (float)sum, ws = (float)want;
  expect("sum", &gs, &ws, 1, 1e-6);

  auto y = x;
  launch(l2_normalize_f32, rows, B, y.data(), rows, cols, 1e-12f);
  std::vector<float> wy(x.size());
  for (int r = 0; r < rows; r++) {
    double ss = 0;
    for (int j = 0; j < cols; j++) ss += (double)x[r * cols + j] * x[r * cols + j];
    for (int j = 0; j < cols; j++) wy[r * cols + j] = x[r * cols + j] / (float)sqrt(ss);
  }
  expect("l2 normalise", y.data(), wy.data(), rows * cols, 1e-6);

  std::vector<float> cs(cols, 1.0f), wcs(cols, 1.0f);
  launch(column_sums_f32, (cols + B - 1) / B, B, x.data(), rows, cols, cs.data());
  for (int j = 0; j < cols; j++) {
    float a = 0;
    for (int r = 0; r < rows; r++) a += x[r * cols + j];
    wcs[j] += a;
  }
  expect("column sums", cs.data(), wcs.data(), cols, 0);

  auto z = x;
  std::vector<float> wz(x.size());
  launch(bias_act_f32, 3, 64, z.data(), wcs.data(), rows, cols, SE_ACT_RELU);
  for (int i = 0; i < rows * cols; i++) wz[i] = fmaxf(x[i] + wcs[i % cols], 0.0f);
  expect("bias + ReLU", z.data(), wz.data(), rows * cols, 0);
}

int main() {
  layernorm();
  softmax();
  heads_and_gathers();
  patches();
  rows_and_losses();
  if (failures) return 1;
  printf("ok %d checks\n", checks);
  return 0;
}
