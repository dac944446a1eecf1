package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/correlation"
)

// correlateFixture is the binary_vs_score_n12 case of SciPy 1.10.1's
// goldens (correlation/testdata/scipy_cases.json.gz), whose x and y are the
// error_flag and metric_score columns of the CSV read here.
const correlateFixture = "../../correlation/testdata/binary_vs_score_n12.csv.gz"

type correlateJSON struct {
	N             int                 `json:"n"`
	Pearson       map[string]*float64 `json:"pearson"`
	Spearman      map[string]*float64 `json:"spearman"`
	KendallB      map[string]*float64 `json:"kendall_b"`
	KendallC      map[string]*float64 `json:"kendall_c"`
	PointBiserial map[string]*float64 `json:"pointbiserial"`
}

func runCorrelateJSON(t *testing.T, args ...string) correlateJSON {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := runMain(append([]string{"correlate"}, args...), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out correlateJSON
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	return out
}

func TestCorrelateMatchesSciPy(t *testing.T) {
	out := runCorrelateJSON(t, "-in", correlateFixture, "-x", "error_flag", "-y", "metric_score")
	if out.N != 12 {
		t.Errorf("n = %d, want 12", out.N)
	}
	golden := []struct {
		name      string
		got       map[string]*float64
		key       string
		stat, pva float64
	}{
		{"pearson", out.Pearson, "r", 0.2519986226548037, 0.42944473253639126},
		{"spearman", out.Spearman, "rho", 0.10241831129983783, 0.751446929730252},
		{"kendall_b", out.KendallB, "tau", 0.08703882797784891, 0.7340951823194757},
		{"kendall_c", out.KendallC, "tau", 0.1111111111111111, 0.7340951823194757},
		{"pointbiserial", out.PointBiserial, "r", 0.2519986226548037, 0.42944473253639126},
	}
	for _, g := range golden {
		s, p := g.got[g.key], g.got["p"]
		if s == nil || p == nil {
			t.Errorf("%s: missing %q or p in %v", g.name, g.key, g.got)
			continue
		}
		if math.Abs(*s-g.stat) > 1e-12 || math.Abs(*p-g.pva) > 1e-9*g.pva {
			t.Errorf("%s: %s %v p %v, SciPy %v %v", g.name, g.key, *s, *p, g.stat, g.pva)
		}
	}
}

func TestCorrelateNonBinaryXHasNoPointBiserial(t *testing.T) {
	// Swapped columns: Pearson, Spearman and Kendall are symmetric.
	out := runCorrelateJSON(t, "-in", correlateFixture, "-x", "metric_score", "-y", "error_flag")
	if out.PointBiserial != nil {
		t.Errorf("pointbiserial present for non-binary x: %v", out.PointBiserial)
	}
	if r := out.Spearman["rho"]; r == nil || math.Abs(*r-0.10241831129983783) > 1e-12 {
		t.Errorf("spearman rho %v, want 0.10241831129983783", r)
	}
}

func TestCorrelateUndefinedIsNull(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "constant.csv")
	if err := os.WriteFile(path, []byte("human,metric\n1,0.5\n2,0.5\n3,0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"correlate", "-in", path, "-x", "human", "-y", "metric"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := `{
  "n": 3,
  "pearson": {
    "r": null,
    "p": null
  },
  "spearman": {
    "rho": null,
    "p": null
  },
  "kendall_b": {
    "tau": null,
    "p": null
  },
  "kendall_c": {
    "tau": null,
    "p": null
  }
}
`
	if stdout.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", stdout.String(), want)
	}
}

func TestCorrelateErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, file, x, y, wantErr string
	}{
		{"missing column", write("a.csv", "a,b\n1,2\n2,3\n"), "a", "c", `no column "c"`},
		{"not a number", write("b.csv", "a,b\n1,2\n2,x\n"), "a", "b", `row 3, column "b": "x" is not a finite number`},
		{"empty field", write("c.csv", "a,b\n1,\n2,3\n"), "a", "b", `row 2, column "b"`},
		{"NaN", write("d.csv", "a,b\n1,NaN\n2,3\n"), "a", "b", `row 2, column "b"`},
		{"duplicate column", write("e.csv", "a,a,b\n1,2,3\n"), "a", "b", `appears twice`},
		{"empty file", write("f.csv", ""), "a", "b", "no header row"},
		{"ragged row", write("g.csv", "a,b\n1,2\n3\n"), "a", "b", "wrong number of fields"},
		{"one row", write("h.csv", "a,b\n1,2\n"), "a", "b", "at least 2"},
		{"bad gzip", write("i.csv.gz", "not gzip"), "a", "b", "gzip"},
		{"no such file", filepath.Join(dir, "none.csv"), "a", "b", "no such file"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := runMain([]string{"correlate", "-in", tt.file, "-x", tt.x, "-y", tt.y}, &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), tt.wantErr) {
			t.Errorf("%s: exit %d, stderr %q; want an error containing %q", tt.name, code, stderr.String(), tt.wantErr)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := runMain([]string{"correlate", "-in", correlateFixture}, &stdout, &stderr); code == 0 {
		t.Error("missing -x/-y: exit 0")
	}
}

// TestCorrelateBootstrap checks the -bootstrap member against the library
// called directly with the same settings (the library's intervals are
// checked against independent derivations in correlation/bootstrap_test.go).
func TestCorrelateBootstrap(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"correlate", "-in", correlateFixture, "-x", "error_flag", "-y", "metric_score", "-bootstrap", "500", "-confidence", "0.9", "-seed", "3"}
	if code := runMain(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out struct {
		Bootstrap struct {
			Resamples  int                `json:"resamples"`
			Confidence float64            `json:"confidence"`
			Seed       uint64             `json:"seed"`
			Spearman   map[string]float64 `json:"spearman"`
			KendallB   map[string]float64 `json:"kendall_b"`
		} `json:"bootstrap"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	b := out.Bootstrap
	if b.Resamples != 500 || b.Confidence != 0.9 || b.Seed != 3 {
		t.Errorf("settings %+v", b)
	}
	x, y := correlateFixtureColumns(t)
	for _, c := range []struct {
		name string
		got  map[string]float64
		coef correlation.Coefficient
	}{{"spearman", b.Spearman, correlation.Spearman}, {"kendall_b", b.KendallB, correlation.KendallTauB}} {
		iv, err := correlation.Bootstrap(x, y, c.coef, correlation.BootstrapOptions{Resamples: 500, Confidence: 0.9, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if c.got["low"] != iv.Low || c.got["high"] != iv.High || c.got["undefined"] != float64(iv.Undefined) {
			t.Errorf("%s: %v, library %+v", c.name, c.got, iv)
		}
		if !(iv.Low < iv.Estimate && iv.Estimate < iv.High) {
			t.Errorf("%s: estimate %v outside [%v, %v]", c.name, iv.Estimate, iv.Low, iv.High)
		}
	}
	if code := runMain([]string{"correlate", "-in", correlateFixture, "-x", "error_flag", "-y", "metric_score", "-bootstrap", "-2"}, &stdout, &stderr); code == 0 {
		t.Error("-bootstrap -2: exit 0")
	}
}

func correlateFixtureColumns(t *testing.T) (x, y []float64) {
	t.Helper()
	cols, err := correlation.LoadColumns(correlateFixture, "error_flag", "metric_score")
	if err != nil {
		t.Fatal(err)
	}
	return cols[0], cols[1]
}
