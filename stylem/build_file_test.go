package stylem

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuildFile(t *testing.T) {
	fx := loadToy(t)
	recs := toyRecords(fx)
	opts := BuildOptions{Step: Simple, StepName: "simple"}
	tab, err := Build(recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if _, err := tab.WriteTo(&want); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "table")
	st, err := BuildFile(context.Background(), path, recs, opts, SpillOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want.Bytes()) || st.Ngrams == 0 || len(st.Styles) != len(tab.Styles()) {
		t.Fatalf("BuildFile wrote %d bytes (%v), stats %+v; want Build+WriteTo's %d bytes", len(got), err, st, want.Len())
	}
	// A cancelled build leaves the previous table, and no temporary file.
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BuildFile(cancelled, path, recs, opts, SpillOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if got2, _ := os.ReadFile(path); !bytes.Equal(got2, want.Bytes()) {
		t.Error("a cancelled build changed the table")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("folder holds %d entries after a cancelled build, want the table only", len(ents))
	}
	var fe *FileError
	bad := filepath.Join(dir, "no-such-folder", "table")
	if _, err := BuildFile(context.Background(), bad, recs, opts, SpillOptions{Dir: dir}); !errors.As(err, &fe) || fe.Path != bad {
		t.Errorf("missing folder: %v, want a *FileError naming %s", err, bad)
	}
}

func TestScoreCaptions(t *testing.T) {
	fx := loadToy(t)
	tab, err := Build(toyRecords(fx), BuildOptions{Step: Simple, StepName: "simple"})
	if err != nil {
		t.Fatal(err)
	}
	in := `{"id": "b", "caption": "a happy dog", "refs": ["the dog is happy"]}` + "\n\n" + `{"id": "a", "caption": "so sad"}` + "\n"
	var ids []string
	n, err := tab.ScoreCaptions(strings.NewReader(in), Simple, func(id string, s *Scores) error {
		ids = append(ids, id)
		caption, refs := "a happy dog", [][]string{Tokenize("the dog is happy", Simple)}
		if id == "a" {
			caption, refs = "so sad", [][]string{}
		}
		want, err := tab.Score(Tokenize(caption, Simple), refs, nil)
		if err != nil {
			return err
		}
		for k := range tab.Styles() {
			if s.OnlyStyle[k] != want.OnlyStyle[k] || s.OnlyStyleExist[k] != want.OnlyStyleExist[k] ||
				!(s.StyleCIDEr[k] == want.StyleCIDEr[k] || math.IsNaN(s.StyleCIDEr[k]) && math.IsNaN(want.StyleCIDEr[k])) {
				t.Errorf("%s, style %d: %+v, want %+v", id, k, s, want)
			}
		}
		return nil
	})
	if err != nil || n != 2 || strings.Join(ids, ",") != "b,a" {
		t.Fatalf("n %d ids %v err %v", n, ids, err)
	}
	if _, err := tab.ScoreCaptions(strings.NewReader(in+`{"id": "b", "caption": "x"}`), Simple, func(string, *Scores) error { return nil }); err == nil || !strings.Contains(err.Error(), `line 4: id "b" appears twice`) {
		t.Errorf("duplicate id: %v", err)
	}
}
