// Bias + activation, fused, and the activations' derivatives. Each
// activation is computed in double and rounded once, as the CPU path
// (encoders/activation.go) computes in float64 and narrows; the bias is
// added in float first, as encoders.linear adds it before the activation.

// se_erf32 is internal/npmath's Erf32, the erf the CPU path's GELU uses
// (Eigen's float32 minimax rational function, evaluated in double): the
// same operations in the same order, so with --fmad=false the GELU of the
// two paths is the same float.
__device__ double se_erf32(double x) {
  x = fmin(fmax(x, -4.0), 4.0);
  double x2 = x * x;
  double p = -2.72614225801306e-10;
  p = p * x2 + 2.77068142495902e-08;
  p = p * x2 - 2.10102402082508e-06;
  p = p * x2 - 5.69250639462346e-05;
  p = p * x2 - 7.34990630326855e-04;
  p = p * x2 - 2.95459980854025e-03;
  p = p * x2 - 1.60960333262415e-02;
  double q = -1.45660718464996e-05;
  q = q * x2 - 2.13374055278905e-04;
  q = q * x2 - 1.68282697438203e-03;
  q = q * x2 - 7.37332916720468e-03;
  q = q * x2 - 1.42647390514189e-02;
  return x * p / q;
}

__device__ float se_act(float v, int act) {
  double f = (double)v;
  switch (act) {
  case SE_ACT_GELU: // x / sqrt(2), as encoders' geluErf
    return (float)(0.5 * f * (1.0 + se_erf32(f / 1.41421356237309504880)));
  case SE_ACT_GELU_TANH:
    return (float)(0.5 * f * (1.0 + tanh(0.79788456080286535588 * (f + 0.044715 * f * f * f))));
  case SE_ACT_QUICK_GELU:
    return (float)(f / (1.0 + exp(-1.702 * f)));
  case SE_ACT_RELU:
    return v < 0.0f ? 0.0f : v;
  case SE_ACT_TANH:
    return (float)tanh(f);
  }
  return v;
}

// se_act_grad is the derivative of activation act at v.
__device__ double se_act_grad(float v, int act) {
  double f = (double)v;
  switch (act) {
  case SE_ACT_GELU: // Phi(x) + x*phi(x), as compute's Activation.derivative
    return 0.5 * (1.0 + se_erf32(f / 1.41421356237309504880)) + f * exp(-0.5 * f * f) * 0.39894228040143267794;
  case SE_ACT_GELU_TANH: {
    const double c = 0.79788456080286535588;
    double t = tanh(c * (f + 0.044715 * f * f * f));
    return 0.5 * (1.0 + t) + 0.5 * f * (1.0 - t * t) * c * (1.0 + 3.0 * 0.044715 * f * f);
  }
  case SE_ACT_QUICK_GELU: {
    double s = 1.0 / (1.0 + exp(-1.702 * f));
    return s + 1.702 * f * s * (1.0 - s);
  }
  case SE_ACT_RELU:
    return v > 0.0f ? 1.0 : 0.0;
  case SE_ACT_TANH: {
    double t = tanh(f);
    return 1.0 - t * t;
  }
  }
  return 1.0;
}

// bias_act_f32: y[r][c] = act(y[r][c] + bias[c]) over rows x cols (bias may
// be null), in place after the GEMM that wrote y.
extern "C" __global__ void bias_act_f32(float* y, const float* bias, int rows, int cols, int act) {
  SE_FOR(i, (long long)rows * cols) {
    float v = y[i];
    if (bias) v = v + bias[i % cols];
    y[i] = se_act(v, act);
  }
}

// bias_act_save_f32 is BiasActSave: x[r][c] += bias[c] in place (bias may
// be null), so that x keeps the pre-activation, and dst = act(x), which is
// what bias_act_f32 leaves in y.
extern "C" __global__ void bias_act_save_f32(float* dst, float* x, const float* bias, int rows, int cols, int act) {
  SE_FOR(i, (long long)rows * cols) {
    float v = x[i];
    if (bias) v = v + bias[i % cols];
    x[i] = v;
    dst[i] = se_act(v, act);
  }
}

// act_backward_f32: dx[i] = dy[i] * act'(x[i]) (dx may be dy), x the
// activation's input, as compute.ActivationBackward: the derivative in
// double rounded once, except tanh's, 1 - t*t in float from t =
// float(tanh(x)), the forward's output.
extern "C" __global__ void act_backward_f32(float* dx, const float* dy, const float* x, long long n, int act) {
  SE_FOR(i, n) {
    if (act == SE_ACT_TANH) {
      float t = (float)tanh((double)x[i]);
      dx[i] = dy[i] * (1.0f - t * t);
    } else {
      dx[i] = dy[i] * (float)se_act_grad(x[i], act);
    }
  }
}

// column_sums_f32: dst[c] += sum over r of x[r][c], summed in row order in
// float (one thread per column), as compute.ColumnSums: the bias
// gradients, deterministic.
extern "C" __global__ void column_sums_f32(const float* x, int rows, int cols, float* dst) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols) return;
  float acc = 0.0f;
  for (int r = 0; r < rows; r++) acc += x[(long long)r * cols + c];
  dst[c] += acc;
}
