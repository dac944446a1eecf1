package npmath

import (
	"math"
	"testing"
)

// Values of Python 3.11's math.e ** (-(d*d)/(2*6.0**2)) on glibc 2.36, the
// expression CIDEr-D and the StyleM scorer evaluate. Go's math.Exp and
// math.Pow each miss some of them by an ulp.
func TestLengthPenaltyMatchesPythonPow(t *testing.T) {
	tests := []struct {
		delta int
		want  float64
	}{
		{0, 1},
		{2, 0.9459594689067655},
		{3, 0.8824969025845955},
		{5, 0.7066482778577163},
		{7, 0.5063356166481007},
		{11, 0.18627046369770092},
		{17, 0.01806301341978128},
		{20, 0.003865920139472809},
		{31, 1.5972578828343175e-06},
		{45, 6.101936677605333e-13},
		{-5, 0.7066482778577163},
	}
	expMisses := 0
	for _, tt := range tests {
		if got := CIDErLengthPenalty(tt.delta); got != tt.want {
			t.Errorf("CIDErLengthPenalty(%d) = %v, want %v", tt.delta, got, tt.want)
		}
		if math.Exp(-float64(tt.delta*tt.delta)/72) != tt.want {
			expMisses++
		}
	}
	if expMisses == 0 {
		t.Error("math.Exp matched every value: the table no longer tells pow from exp")
	}
}

// Subnormal results and underflow, as Python prints them.
func TestLengthPenaltyLargeDelta(t *testing.T) {
	for _, tt := range []struct {
		delta int
		want  float64
	}{{230, 8.207e-320}, {231, 1.4e-322}, {232, 0}, {300, 0}, {1 << 20, 0}} {
		if got := CIDErLengthPenalty(tt.delta); got != tt.want {
			t.Errorf("CIDErLengthPenalty(%d) = %v, want %v", tt.delta, got, tt.want)
		}
	}
}
