package compare

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRunOptionsOpen opens a run of BLEU and RoViST-C without a models folder: the
// hook sees the opened models, C is Absent and says what it needs; a models
// folder that does not exist is a ModelsError naming it, and a missing story
// set fails before any model is opened.
func TestRunOptionsOpen(t *testing.T) {
	dir := t.TempDir()
	stories := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(stories, []byte(testSuiteJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	opened := 0
	o := RunOptions{Sources: SourcesOptions{Stories: stories}, Metrics: []string{"bleu", "c"},
		Models: ModelsOptions{NoFolderNeeds: "-models DIR"},
		Opened: func(r *Run) error {
			if opened++; r.Models == nil || r.Sources.Suite.Len() != 2 || r.Demo != nil {
				t.Errorf("Opened got models %v, %d sequences, demo %v", r.Models, r.Sources.Suite.Len(), r.Demo)
			}
			return nil
		}}
	r, err := o.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	u := UnavailableColumns(r.Sources.Suite, r.Metrics)
	if opened != 1 || len(r.Metrics) != 2 || len(u) != 1 || u[0].Needs != "-models DIR" {
		t.Errorf("Opened called %d times, %d metrics, unavailable %+v; want 1, 2 and RoViST-C needing -models DIR", opened, len(r.Metrics), u)
	}
	o.ModelsDir = filepath.Join(dir, "no-models")
	var me *ModelsError
	if _, err := o.Open(); !errors.As(err, &me) || me.Dir != o.ModelsDir || opened != 1 {
		t.Errorf("missing models folder: %v (hook called %d times), want a ModelsError naming %s", err, opened, o.ModelsDir)
	}
	o.Sources.Stories = filepath.Join(dir, "missing.json")
	if _, err := o.Open(); !errors.Is(err, os.ErrNotExist) || errors.As(err, &me) {
		t.Errorf("missing story set: %v", err)
	}
}
