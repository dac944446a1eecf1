package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
)

// TestRunMatchesSciPy runs the example on its default CSV and checks every
// printed coefficient and p-value against SciPy 1.10.1's golden values for
// the same case (correlation/testdata/scipy_cases.json.gz), to the
// package's documented accuracy (1e-12 relative; Spearman and Kendall are
// bit-identical).
func TestRunMatchesSciPy(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{"-in", "../../correlation/testdata/binary_vs_score_n12.csv.gz"}); err != nil {
		t.Fatal(err)
	}
	t.Logf("output:\n%s", out.String())
	got := map[string][2]float64{}
	for _, line := range strings.Split(out.String(), "\n") {
		var name string
		var v, p float64
		if n, _ := fmt.Sscanf(line, "%s %g p %g", &name, &v, &p); n == 3 {
			got[name] = [2]float64{v, p}
		}
	}
	f, err := os.Open("../../correlation/testdata/scipy_cases.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var gold struct {
		Cases []map[string]json.RawMessage `json:"cases"`
	}
	if err := json.NewDecoder(zr).Decode(&gold); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range gold.Cases {
		if string(c["name"]) != `"binary_vs_score_n12"` {
			continue
		}
		for _, coef := range []struct{ name, stat string }{
			{"pearson", "r"}, {"spearman", "rho"}, {"kendall_b", "tau"}, {"kendall_c", "tau"}, {"pointbiserial", "r"},
		} {
			var want map[string]float64
			if err := json.Unmarshal(c[coef.name], &want); err != nil {
				t.Fatal(err)
			}
			g, ok := got[coef.name]
			if !ok {
				t.Errorf("%s not printed", coef.name)
				continue
			}
			for i, key := range []string{coef.stat, "p"} {
				if math.Abs(g[i]-want[key]) > 1e-12*math.Abs(want[key]) {
					t.Errorf("%s %s = %v, SciPy %v", coef.name, key, g[i], want[key])
				}
				checked++
			}
		}
	}
	if checked != 10 {
		t.Fatalf("checked %d values, want 10 (golden case missing?)", checked)
	}
	if !strings.Contains(out.String(), "spearman 95% interval [") {
		t.Error("no bootstrap interval printed")
	}
}
