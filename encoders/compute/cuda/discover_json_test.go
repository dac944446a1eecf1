package cuda

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/compute/cuda/cudalib"
)

// TestReportJSON checks the JSON form against the report: error lines,
// [] for no rejected file, the capability as major.minor, memory in GiB.
func TestReportJSON(t *testing.T) {
	slow := h100
	slow.Index, slow.Unusable = 1, "too old"
	r := Report{Libraries: withLibrary(1, lib(cudalib.CuBLAS, "", "", errors.New("cuda: libcublas.so.13 not found"))), GPUs: []GPU{h100, slow}}
	b, err := json.Marshal(r.JSON())
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		`"summary":"no usable GPU: libcublas.so.13 not found"`,
		`{"name":"cuBLAS","path":"","version":"","error":"cuda: libcublas.so.13 not found","rejected":[]}`,
		`{"device":"cuda:0","name":"NVIDIA H100 80GB HBM3","compute_capability":"9.0","multiprocessors":132,"memory_gib":85,"error":"cuda: libcublas.so.13 not found"}`,
		`"search_path":null`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("JSON %s\nlacks %s", got, want)
		}
	}
	if empty, _ := json.Marshal(Report{}.JSON()); string(empty) != `{"summary":"no usable GPU: ","libraries":[],"gpus":[],"search_path":null}` {
		t.Errorf("empty report: %s", empty)
	}
}

// TestWriteBrief: the summary line alone when no GPU is usable, the whole
// report when one is or with verbose.
func TestWriteBrief(t *testing.T) {
	bad := h100
	bad.Unusable = "prohibited"
	// Fresh libraries without rejected files (TestWriteText adds one to
	// allLibraries).
	libs := func() []LibraryInfo {
		out := withLibrary(0, allLibraries[0])
		for i := range out {
			out[i].Rejected = nil
		}
		return out
	}
	for _, c := range []struct {
		name    string
		r       Report
		verbose bool
		lines   int
	}{
		{"none usable", Report{Libraries: libs(), GPUs: []GPU{bad}}, false, 1},
		{"none usable, verbose", Report{Libraries: libs(), GPUs: []GPU{bad}}, true, 6},
		{"usable", Report{Libraries: libs(), GPUs: []GPU{h100}}, false, 5},
	} {
		var b strings.Builder
		if err := c.r.WriteBrief(&b, c.verbose); err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(b.String(), "\n"); n != c.lines || !strings.HasPrefix(b.String(), c.r.Summary()+"\n") {
			t.Errorf("%s: %d lines, want %d starting with the summary:\n%s", c.name, n, c.lines, b.String())
		}
	}
}
