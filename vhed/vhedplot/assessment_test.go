package vhedplot

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/vhed"
)

// TestSaveAssessment checks that the figures of jobs and reports are those
// of the series they pair up, in order.
func TestSaveAssessment(t *testing.T) {
	series := plotSeriesSmall(t)
	var jobs []vhed.NamedScorer
	var reports []vhed.AssessReport
	for _, s := range series {
		jobs = append(jobs, vhed.NamedScorer{Name: s.Name})
		reports = append(reports, s.Report)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := SaveAssessment(a, jobs, reports); err != nil {
		t.Fatal(err)
	}
	if err := SaveFigures(b, series); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"accuracy_by_gap.svg", "accuracy_by_omega.svg"} {
		got, err1 := os.ReadFile(filepath.Join(a, name))
		want, err2 := os.ReadFile(filepath.Join(b, name))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("%s differs from SaveFigures' (%v, %v)", name, err1, err2)
		}
	}
}
