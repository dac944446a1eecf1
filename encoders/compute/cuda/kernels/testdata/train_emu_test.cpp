// Checks the training kernels on the CPU (see emu.h) against the CPU
// backend's results for the same inputs (train_cases.h, written by the Go
// test TestTrainKernelsMatchCPUBackend from compute.CPU's TrainBackend
// operations). Prints one line per failed check and "ok N checks" at the
// end; exits 1 on any failure.
#include "emu.h"

#include "kernels.cu"     // kernels.Source(), written by the Go test
#include "train_cases.h"  // inputs and the CPU backend's outputs

static int checks, failures;

// expect compares n values with a relative tolerance (0: bit-identical).
static void expect(const char* what, const float* got, const float* want, int n, double tol) {
  checks++;
  for (int i = 0; i < n; i++) {
    double d = fabs((double)got[i] - (double)want[i]);
    if (!(d <= tol * fmax(1.0, fabs((double)want[i])))) {
      printf("FAIL %s: element %d is %.9g, the CPU backend's %.9g\n", what, i, got[i], want[i]);
      failures++;
      return;
    }
  }
}

static std::vector<float> copy(const float* v, int n) { return std::vector<float>(v, v + n); }

static const int B = SE_BLOCK, N = ROWS * WIDTH;
static const float* act_pre[] = {act0_pre, act1_pre, act2_pre, act3_pre, act4_pre, act5_pre};
static const float* act_dst[] = {act0_dst, act1_dst, act2_dst, act3_dst, act4_dst, act5_dst};
static const float* act_dx[] = {act0_dx, act1_dx, act2_dx, act3_dx, act4_dx, act5_dx};
static const float* act_dbias[] = {act0_dbias, act1_dbias, act2_dbias, act3_dbias, act4_dbias, act5_dbias};

static void activations() {
  char what[64];
  for (int a = SE_ACT_NONE; a <= SE_ACT_TANH; a++) {
    auto x = copy(act_x, N);
    std::vector<float> dst(N), dx(N);
    launch(bias_act_save_f32, 2, B, dst.data(), x.data(), (const float*)act_bias, ROWS, WIDTH, a);
    snprintf(what, sizeof what, "bias_act_save_f32 act %d pre-activation", a);
    expect(what, x.data(), act_pre[a], N, 0);
    snprintf(what, sizeof what, "bias_act_save_f32 act %d", a);
    expect(what, dst.data(), act_dst[a], N, 1e-6);
    launch(act_backward_f32, 2, B, dx.data(), (const float*)act_dy, (const float*)act_pre[a], (long long)N, a);
    snprintf(what, sizeof what, "act_backward_f32 act %d", a);
    expect(what, dx.data(), act_dx[a], N, 1e-6);
    auto db = copy(act_dbias0, WIDTH);
    launch(column_sums_f32, (WIDTH + B - 1) / B, B, (const float*)dx.data(), ROWS, WIDTH, db.data());
    snprintf(what, sizeof what, "column_sums_f32 (bias gradient) act %d", a);
    expect(what, db.data(), act_dbias[a], WIDTH, 1e-6);
  }
}

static void layernorm() {
  std::vector<float> y(N), xh(N), rs(ROWS), dx(N);
  launch(layernorm_fwd_f32, ROWS, B, (const float*)act_x, (const float*)ln_gamma, (const float*)ln_beta, y.data(), xh.data(),
         rs.data(), ROWS, WIDTH, 1e-5);
  expect("layernorm_fwd_f32 (saved) y", y.data(), ln_y, N, 0);
  expect("layernorm_fwd_f32 (saved) xhat", xh.data(), ln_xhat, N, 0);
  expect("layernorm_fwd_f32 (saved) rstd", rs.data(), ln_rstd, ROWS, 1e-6);
  auto dg = copy(ln_dgamma0, WIDTH), db = copy(ln_dbeta0, WIDTH);
  launch(layernorm_param_grad_f32, (WIDTH + B - 1) / B, B, (const float*)act_dy, (const float*)ln_xhat, ROWS, WIDTH, dg.data(),
         db.data());
  launch(layernorm_bwd_f32, ROWS, B, (const float*)act_dy, (const float*)ln_xhat, (const float*)ln_rstd, (const float*)ln_gamma,
         dx.data(), ROWS, WIDTH);
  expect("layernorm_param_grad_f32 dgamma", dg.data(), ln_dgamma, WIDTH, 0);
  expect("layernorm_param_grad_f32 dbeta", db.data(), ln_dbeta, WIDTH, 0);
  expect("layernorm_bwd_f32 dx", dx.data(), ln_dx, N, 1e-5);
}

static void scatters() {
  auto g0 = copy(emb_g0_0, 5 * WIDTH), g1 = copy(emb_g1_0, 2 * WIDTH), g2 = copy(emb_g2_0, N);
  launch(scatter_rows_f32, (WIDTH + B - 1) / B, B, g0.data(), (const float*)act_dy, (const int*)emb_ids, ROWS, WIDTH, 0);
  launch(scatter_rows_f32, (WIDTH + B - 1) / B, B, g1.data(), (const float*)act_dy, (const int*)0, ROWS, WIDTH, 2);
  launch(scatter_rows_f32, (WIDTH + B - 1) / B, B, g2.data(), (const float*)act_dy, (const int*)0, ROWS, WIDTH, 0);
  expect("scatter_rows_f32 by ids (repeated)", g0.data(), emb_g0, 5 * WIDTH, 0);
  expect("scatter_rows_f32 by period", g1.data(), emb_g1, 2 * WIDTH, 0);
  expect("scatter_rows_f32 row to row", g2.data(), emb_g2, N, 0);
  auto ds = copy(rows_dsrc0, N);
  launch(scatter_rows_f32, (WIDTH + B - 1) / B, B, ds.data(), (const float*)act_dy, (const int*)rows_idx, ROWS, WIDTH, 0);
  expect("scatter_rows_f32 (rows backward, negative skipped)", ds.data(), rows_dsrc, N, 0);
}

static void cross_entropy() {
  std::vector<double> loss(XROWS);
  std::vector<int> hit(XROWS);
  std::vector<float> dl(XROWS * XCOLS, 5.0f);
  launch(xent_f32, XROWS, B, (const float*)xent_logits, (const int*)xent_labels, XROWS, XCOLS, (double)xent_counted, loss.data(),
         hit.data(), dl.data());
  expect("xent_f32 gradient", dl.data(), xent_dlogits, XROWS * XCOLS, 1e-6);
  double sum = 0;
  int correct = 0;
  for (int r = 0; r < XROWS; r++) {
    sum += loss[r];
    correct += hit[r];
  }
  float got = (float)(sum / xent_counted), want = (float)xent_loss;
  expect("xent_f32 mean loss", &got, &want, 1, 1e-6);
  float gc = (float)correct, wc = (float)xent_correct;
  expect("xent_f32 argmax hits (first maximum)", &gc, &wc, 1, 0);
}

static void optimiser_and_elementwise() {
  const float* want[2][3] = {{adam0_p, adam0_m, adam0_v}, {adam1_p, adam1_m, adam1_v}};
  const double lr = 1e-3, b1 = 0.9, b2 = 0.999, wd = 0.01;
  double bc1 = 1 - pow(b1, 3), bc2 = 1 - pow(b2, 3);
  for (int dec = 0; dec < 2; dec++) {
    auto p = copy(adam_p0, VEC), m = copy(adam_m0, VEC), v = copy(adam_v0, VEC);
    launch(adam_f32, 2, B, p.data(), (const float*)adam_g, m.data(), v.data(), (long long)VEC, (float)b1, (float)b2, (float)(1 - b1),
           (float)(1 - b2), (float)(lr / bc1), (float)sqrt(bc2), 1e-8f, (float)wd, (float)(1 - lr * wd), dec);
    expect(dec ? "adam_f32 (AdamW) parameters" : "adam_f32 parameters", p.data(), want[dec][0], VEC, 1e-6);
    expect("adam_f32 first moments", m.data(), want[dec][1], VEC, 0);
    expect("adam_f32 second moments", v.data(), want[dec][2], VEC, 0);
  }
  auto x = copy(adam_p0, VEC);
  launch(dropout_f32, 2, B, x.data(), (long long)VEC, drop_seed, 5ULL, 0LL, drop_threshold, (float)(1 / (1 - drop_p)));
  expect("dropout_f32", x.data(), drop_x, VEC, 0);
  x = copy(adam_p0, VEC);
  launch(axpy_f32, 2, B, x.data(), (const float*)adam_g, (long long)VEC, -0.37f);
  expect("axpy_f32", x.data(), axpy_x, VEC, 0);
  x = copy(adam_p0, VEC);
  launch(mul_f32, 2, B, x.data(), (const float*)adam_g, (long long)VEC);
  expect("mul_f32", x.data(), mul_x, VEC, 0);
  x = copy(adam_p0, VEC);
  launch(scale_f32, 2, B, x.data(), (long long)VEC, 1.7f);
  expect("scale_f32", x.data(), scale_x, VEC, 0);
  double s = 0;
  launch(sumsq_f32, 1, B, (const float*)adam_p0, (long long)VEC, &s);
  float gs = (float)s, ws = (float)sumsq;
  expect("sumsq_f32", &gs, &ws, 1, 1e-7);
}

int main() {
  activations();
  layernorm();
  scatters();
  cross_entropy();
  optimiser_and_elementwise();
  if (failures) return 1;
  printf("ok %d checks\n", checks);
  return 0;
}
