package stylem

import (
	"strings"
	"testing"
)

func TestEnumNamesRoundTrip(t *testing.T) {
	for _, f := range []CNGFormula{CNGMeanOverOthers, CNGSumOverStyleCount} {
		if got, err := FormulaByName(f.String()); err != nil || got != f {
			t.Errorf("FormulaByName(%q) = %v, %v; want %v", f.String(), got, err, f)
		}
	}
	for _, k := range []ECDFKind{ECDFCountRatio, ECDFStatsmodels} {
		if got, err := ECDFByName(k.String()); err != nil || got != k {
			t.Errorf("ECDFByName(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	if s := CNGFormula(7).String(); s != "CNGFormula(7)" || CNGFormula(7).valid() || CNGFormula(-1).valid() {
		t.Errorf("CNGFormula(7) = %q, valid %v", s, CNGFormula(7).valid())
	}
	if _, err := ECDFByName("linspace"); err == nil || !strings.Contains(err.Error(), "count-ratio or statsmodels") {
		t.Errorf("ECDFByName(linspace): %v", err)
	}
}
