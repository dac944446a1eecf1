package compare

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteModelsTable checks the table worked out by hand: columns two
// spaces apart, paths under the folder, a multi-line problem on one line.
func TestWriteModelsTable(t *testing.T) {
	status := []ModelStatus{
		{Metric: "rovist-c", Enabled: true, Found: []string{"a.json", "b.bin"}},
		{Metric: "vrank", Missing: []ModelFile{{Path: "vrank/model.safetensors", What: "Vrank weights", Source: "the paper's release"}},
			Invalid: []ModelProblem{{Path: "vrank/config.json", Error: "bad\nconfig"}}},
	}
	var b strings.Builder
	if err := WriteModelsTable(&b, "m", status); err != nil {
		t.Fatal(err)
	}
	miss, bad := filepath.Join("m", "vrank", "model.safetensors"), filepath.Join("m", "vrank", "config.json")
	// The second column is as wide as its longest cell, "missing
	// m/vrank/model.safetensors", plus the padding of 2.
	col := len("missing "+miss) + 2
	pad := func(cell string) string { return cell + strings.Repeat(" ", col-len(cell)) }
	want := "rovist-c  " + pad("enabled") + "a.json, b.bin\n" +
		"vrank     " + pad("disabled") + "\n" +
		"          " + pad("missing "+miss) + "Vrank weights: the paper's release\n" +
		"          " + pad("invalid "+bad) + "bad config\n"
	if b.String() != want {
		t.Fatalf("table:\n%q\nwant:\n%q", b.String(), want)
	}
}
