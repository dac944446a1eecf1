package stylem

import "testing"

func TestECDFValues(t *testing.T) {
	tests := []struct {
		count, m int
		kind     ECDFKind
		want     float64
	}{
		{0, 5, ECDFStatsmodels, 0},
		{0, 5, ECDFCountRatio, 0},
		{1, 1, ECDFStatsmodels, 1},
		{3, 3, ECDFStatsmodels, 1},
		// np.linspace(1/3, 1, 3)[1] = 1·((1−1/3)/2) + 1/3 rounds up to
		// 0.6666666666666667, one ulp above 2/3.
		{2, 3, ECDFStatsmodels, 0.6666666666666667},
		{2, 3, ECDFCountRatio, 0.6666666666666666},
		{1, 4, ECDFStatsmodels, 0.25},
		{3, 4, ECDFCountRatio, 0.75},
	}
	for _, tt := range tests {
		if got := ecdfValue(tt.count, tt.m, tt.kind); got != tt.want {
			t.Errorf("ecdfValue(%d, %d, %v) = %v, want %v", tt.count, tt.m, tt.kind, got, tt.want)
		}
	}
}

func TestNewECDFSteps(t *testing.T) {
	// df values 1, 1, 2, 5: ECDF(0)=0, ECDF(1)=2/4, ECDF(2..4)=3/4, ECDF(5+)=1.
	e := newECDF([]uint32{5, 1, 2, 1}, ECDFCountRatio)
	for x, want := range map[uint32]float64{0: 0, 1: 0.5, 2: 0.75, 4: 0.75, 5: 1, 9: 1} {
		if got := e.at(x); got != want {
			t.Errorf("ECDF(%d) = %v, want %v", x, got, want)
		}
	}
}
