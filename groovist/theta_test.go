package groovist

import (
	"path/filepath"
	"testing"
)

// TestThetaPresets: the presets are GROOViST's config.ini values (copied in
// testdata/), and the zero Theta is VIST's, the reference's default dataset.
func TestThetaPresets(t *testing.T) {
	ini := filepath.Join("testdata", "config.ini")
	for section, want := range map[string]float64{"VIST": ThetaVIST, "AESOP": ThetaAESOP, "VWP": ThetaVWP} {
		if got := iniTheta(t, ini, section); got != want {
			t.Errorf("%s: config.ini says %v, the constant is %v", section, got, want)
		}
	}
	if (Theta{}).Value() != ThetaVIST || ThetaOf(0).Value() != 0 {
		t.Error("zero Theta must be VIST's preset and ThetaOf(0) must be 0")
	}
}
