package npmath

// Erf32 approximates erf to within 6.5e-8 absolute (half a float32 ulp at
// 1) with a rational function of x² on [−4, 4], where erf is ±1 to float32
// precision outside; the coefficients are the float32 minimax fit Eigen
// uses (generic_fast_erf_float). TestErf32 checks the bound against
// math.Erf. The encoders' GELU and the trainers' float32 GELU use it, so
// training and inference compute the same activation.
func Erf32(x float64) float64 {
	x = min(max(x, -4), 4)
	x2 := x * x
	p := -2.72614225801306e-10
	p = p*x2 + 2.77068142495902e-08
	p = p*x2 - 2.10102402082508e-06
	p = p*x2 - 5.69250639462346e-05
	p = p*x2 - 7.34990630326855e-04
	p = p*x2 - 2.95459980854025e-03
	p = p*x2 - 1.60960333262415e-02
	q := -1.45660718464996e-05
	q = q*x2 - 2.13374055278905e-04
	q = q*x2 - 1.68282697438203e-03
	q = q*x2 - 7.37332916720468e-03
	q = q*x2 - 1.42647390514189e-02
	return x * p / q
}
