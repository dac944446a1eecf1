package vhedplot

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSaveFigures writes both figures in both formats into a new nested
// folder: exactly the four named files, each a sound PNG or SVG.
func TestSaveFigures(t *testing.T) {
	series := plotSeriesSmall(t)
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := SaveFigures(dir, series); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"accuracy_by_gap.png", "accuracy_by_gap.svg", "accuracy_by_omega.png", "accuracy_by_omega.svg"}
	if !slices.Equal(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	for _, name := range want {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(name) == ".png" {
			plotCheckPNG(t, path, data)
		} else {
			plotCheckSVG(t, path, data, series)
		}
	}
	if err := SaveFigures(dir, nil); err == nil {
		t.Errorf("no series: no error")
	}
}
