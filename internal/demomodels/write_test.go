package demomodels_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/compare"
	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/internal/demomodels"
	"github.com/storyeval/storyeval/story"
)

// suite is a small suite with references, two systems and two sequences.
func suite(t *testing.T) *story.Suite {
	t.Helper()
	s, err := story.ParseSuite([]byte(`{"sequences": {
 "1": {"references": ["the dog ran on the beach ."], "stories": {"a": "A dog runs on the beach. The sun sets.", "b": "A cat sleeps in the house. It dreams."}},
 "2": {"references": ["we went to the park with friends ."], "stories": {"a": "We walked to the park. Our friends came.", "b": "The car was red. The car was red."}}}}`), "suite", story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWriteEnablesEveryMetric: the written folder passes CheckModels for
// every learned metric, OpenModels loads them all, and Compare gives
// every learned column a finite score for every story.
func TestWriteEnablesEveryMetric(t *testing.T) {
	d, err := demomodels.Write(t.TempDir(), suite(t))
	if err != nil {
		t.Fatal(err)
	}
	st, err := compare.CheckModels(d.Models)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st {
		if !s.Enabled {
			t.Errorf("%s not enabled: missing %v, invalid %v", s.Metric, s.Missing, s.Invalid)
		}
	}
	cache := mapCache{}
	models, err := compare.OpenModels(d.Models, d.Suite, compare.ModelsOptions{Regions: d.Regions, Crops: d.Crops,
		Demonstration: demomodels.DemonstrationLabel, Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	var metrics []compare.Metric
	for _, name := range compare.LearnedMetricNames() {
		if !models.Loaded(name) {
			t.Errorf("%s not loaded: %v", name, models.Metric(name).Unavailable(d.Suite))
		}
		metrics = append(metrics, models.Metric(name))
	}
	r, err := compare.Compare(context.Background(), d.Suite, metrics, compare.Options{Resamples: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"RoViST-C", "RoViST-VG", "GROOViST", "CLIPScore", "RefCLIPScore", "Vrank win rate"}
	// The label reaches every column, and the labelled metrics still
	// count their cache lookups (the cache was empty: no hits).
	if len(r.Summary.Demonstration) != len(want) {
		t.Errorf("labelled columns %v, want %v", r.Summary.Demonstration, want)
	}
	if c := r.Cache[compare.ImageEmbeddings]; c.Lookups == 0 || c.Hits != 0 || len(cache) == 0 {
		t.Errorf("image embedding cache: %+v, %d stored; want lookups, no hits, stores", c, len(cache))
	}
	if len(r.Columns) != len(want) {
		t.Fatalf("columns %v, want %v", r.Summary.Metrics, want)
	}
	for i, c := range r.Columns {
		if c.Name != want[i] {
			t.Errorf("column %d is %s, want %s", i, c.Name, want[i])
		}
		for sys, scores := range c.Scores {
			for k, v := range scores {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s %s story %d: %v", c.Name, sys, k, v)
				}
			}
		}
	}
}

// mapCache is an embcache.Cache in a map.
type mapCache map[embcache.Key][]float32

func (m mapCache) Get(k embcache.Key) ([]float32, bool, error) { v, ok := m[k]; return v, ok, nil }

func (m mapCache) PutMany(ks []embcache.Key, vs [][]float32) error {
	for i, k := range ks {
		m[k] = vs[i]
	}
	return nil
}

// TestWriteDeterministic: two writes give byte-identical files.
func TestWriteDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if _, err := demomodels.Write(dir, suite(t)); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	err := filepath.WalkDir(a, func(path string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, path)
		x, _ := os.ReadFile(path)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || string(x) != string(y) {
			t.Errorf("%s differs between two writes (%v)", rel, err)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files compared", n)
}
