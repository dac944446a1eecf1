package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/story"
)

// clipModelsDir lays the end-to-end fixtures' tiny CLIP out as the clip/
// part of a models folder (symbolic links); the other metrics' files are
// missing.
func clipModelsDir(t *testing.T) string {
	t.Helper()
	e2e, err := filepath.Abs(e2efixtures.Dir())
	if err != nil {
		t.Fatal(err)
	}
	tok, err := filepath.Abs(filepath.Join("..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "clip"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"config.json":       filepath.Join(e2e, "clip", "config.json"),
		"model.safetensors": filepath.Join(e2e, "clip", "model.safetensors"),
		"vocab.json.gz":     filepath.Join(tok, "vocab.json.gz"),
		"merges.txt.gz":     filepath.Join(tok, "merges.txt.gz"),
	} {
		if err := os.Symlink(target, filepath.Join(dir, "clip", link)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// imageSuite is one sequence over the CLIPScore fixture's first three
// images, with two systems.
func imageSuite(t *testing.T) *story.Suite {
	t.Helper()
	ids, paths, err := groovist.ImageFiles(filepath.Join(e2efixtures.Metric("clipscore"), "images"))
	if err != nil {
		t.Fatal(err)
	}
	images := map[string]string{}
	for i, id := range ids[:3] {
		images[id] = paths[i]
	}
	data, err := json.Marshal(map[string]any{"images": images, "sequences": map[string]any{
		"1": map[string]any{"images": ids[:3], "stories": map[string]string{"a": "a dog runs . a cat sits . a man walks .", "b": "the sky ."}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := story.ParseSuite(data, "images.json", story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// GROOViST and CLIPScore share one CLIP model and tokenizer; the metrics
// whose files are missing say which file, and GROOViST without regions
// says so.
func TestOpenModelsSharesCLIPAndSaysWhatIsMissing(t *testing.T) {
	t.Logf("end-to-end fixtures: %s", e2efixtures.Dir())
	dir := clipModelsDir(t)
	suite := imageSuite(t)
	vg := e2efixtures.Metric("rovist_vg")
	m, err := OpenModels(dir, suite, ModelsOptions{Metrics: []string{"groovist", "clipscore"}, Regions: filepath.Join(vg, "vist_entities.csv"), Crops: filepath.Join(vg, "vist-entities")})
	if err != nil {
		t.Fatal(err)
	}
	if m.groovist == nil || m.clipScorer == nil {
		t.Fatalf("GROOViST %v, CLIPScore %v: both should load (missing %v)", m.groovist != nil, m.clipScorer != nil, m.missing)
	}
	text, ok := m.groovist.Text.(*groovist.CLIPText)
	if !ok || m.groovist.Images != encoders.ImageEncoder(m.clipScorer.Model) || text.Model != m.clipScorer.Model || text.Tokenizer != m.clipScorer.Text.Tokenizer {
		t.Errorf("GROOViST and CLIPScore load CLIP separately")
	}
	wantNeeds := map[string]string{
		"c":     "the file " + filepath.Join(dir, "rovist", "sop_model_epoch4.pth.tar") + " (usydnlp/rovist release",
		"vg":    "the file " + filepath.Join(dir, "rovist", "r2p_model_epoch2.pth.tar") + " (",
		"vrank": "the file " + filepath.Join(dir, "vrank", "config.json") + " (no public Vrank weights",
	}
	for name, want := range wantNeeds {
		un := m.Metric(name).Unavailable(suite)
		if len(un) != 1 || !strings.HasPrefix(un[0].Needs, want) {
			t.Errorf("%s: unavailable %+v, want needs starting %q", name, un, want)
		}
	}
	if m.Metric("nosuch") != nil {
		t.Errorf("an unknown metric is not nil")
	}
	noRegions, err := OpenModels(dir, suite, ModelsOptions{Metrics: []string{"groovist"}})
	if err != nil {
		t.Fatal(err)
	}
	if un := noRegions.Metric("groovist").Unavailable(suite); len(un) != 1 || un[0].Needs != "the image regions of the story set (a regions CSV and a crops folder)" {
		t.Errorf("GROOViST without regions: %+v", un)
	}
	if un := noRegions.Metric("clipscore").Unavailable(suite); len(un) != 2 || !strings.Contains(un[0].Needs, "not among ModelsOptions.Metrics") {
		t.Errorf("CLIPScore not wanted: %+v", un)
	}
	none, err := OpenModels("", nil, ModelsOptions{NoFolderNeeds: "-models DIR"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range LearnedMetricNames() {
		for _, u := range none.Metric(name).Unavailable(suite) {
			want := "-models DIR"
			if u.Metric == "RefCLIPScore" {
				want = needsReferences // said first, as CLIPScore itself does
			}
			if u.Needs != want {
				t.Errorf("%s without a folder: %+v", name, u)
			}
		}
	}
}

// mapCache is an in-memory embcache.Cache.
type mapCache struct {
	mu sync.Mutex
	m  map[embcache.Key][]float32
}

func (c *mapCache) Get(k embcache.Key) ([]float32, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok, nil
}

func (c *mapCache) PutMany(ks []embcache.Key, vs [][]float32) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, k := range ks {
		c.m[k] = vs[i]
	}
	return nil
}

// The report counts the run's image and text embeddings from the cache,
// by the kind of each key: the first run over the suite's three images
// and its stories finds none, a second run all of them, and report.html
// says so.
func TestCompareCountsCacheHits(t *testing.T) {
	suite := imageSuite(t)
	m, err := OpenModels(clipModelsDir(t), suite, ModelsOptions{Metrics: []string{"clipscore"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.UseCache(&mapCache{m: map[embcache.Key][]float32{}}, nil); err != nil {
		t.Fatal(err)
	}
	var texts int64 // the first run's text lookups, all found by the second
	for run, want := range []CacheCount{{Hits: 0, Lookups: 3}, {Hits: 3, Lookups: 3}} {
		r, err := Compare(t.Context(), suite, []Metric{m.Metric("clipscore")}, Options{Resamples: 5, Rounds: 5})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Cache[ImageEmbeddings]; got != want {
			t.Errorf("run %d: image embeddings from the cache %+v, want %+v", run+1, got, want)
		}
		var html bytes.Buffer
		if err := r.WriteHTML(&html); err != nil {
			t.Fatal(err)
		}
		if line := fmt.Sprintf("%d of %d image embeddings from the cache", want.Hits, want.Lookups); !strings.Contains(html.String(), line) {
			t.Errorf("run %d: report.html lacks %q", run+1, line)
		}
		text := r.Cache[TextEmbeddings]
		if run == 0 {
			if texts = text.Lookups; text.Hits != 0 || texts == 0 {
				t.Fatalf("first run: text embeddings from the cache %+v, want 0 of some", text)
			}
		} else if text != (CacheCount{Hits: texts, Lookups: texts}) {
			t.Errorf("second run: text embeddings from the cache %+v, want %d of %d", text, texts, texts)
		}
		if line := fmt.Sprintf("%d of %d text embeddings from the cache", text.Hits, text.Lookups); !strings.Contains(html.String(), line) {
			t.Errorf("run %d: report.html lacks %q", run+1, line)
		}
	}
}
