package rovist

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/story"
)

// cachedGrounder is the fixture's grounder with a fresh store in a
// temporary folder and a forward-pass counter.
type cachedGrounder struct {
	plain, cached *Grounder
	store         *embcache.Store
	forwarded     int
	stories       []story.Story
	opts          VGOptions
}

func newCachedGrounder(t *testing.T, f groundingFixture) *cachedGrounder {
	t.Helper()
	var nouns []string
	var stories []story.Story
	for _, st := range f.stories.All() {
		if len(f.nouns[st.ID]) > 0 {
			stories = append(stories, st)
			nouns = append(nouns, f.nouns[st.ID]...)
		}
	}
	if len(stories) < 2 {
		t.Fatalf("%d stories with nouns in %s, want 2 or more", len(stories), f.dir)
	}
	g := f.grounder(t, nouns)
	store, err := embcache.Open(filepath.Join(t.TempDir(), embcache.FileName), embcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	model, err := GroundingCacheModel(store, f.checkpoint, f.vitDir)
	if err != nil {
		t.Fatal(err)
	}
	cg := &cachedGrounder{plain: g, store: store, stories: stories, opts: VGOptions{NoIDF: true, Nouns: f.nouns}}
	c := *g
	c.Cache, c.CacheModel = store, model
	c.forwards = func(n int) { cg.forwarded += n }
	cg.cached = &c
	return cg
}

// run scores stories with g and returns the results printed (%v prints
// the shortest decimal that reads back to the same float, so equal
// strings are bit-identical numbers) and the crops it sent through the
// ViT.
func (cg *cachedGrounder) run(t *testing.T, g *Grounder, stories []story.Story, opts VGOptions) (string, int) {
	t.Helper()
	cg.forwarded = 0
	res, err := g.Score(context.Background(), stories, opts)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%v", res), cg.forwarded
}

// otherSystem returns the stories with another story's text and nouns
// each: another system's output over the same images.
func otherSystem(stories []story.Story, nouns map[string][]string) ([]story.Story, map[string][]string) {
	out := make([]story.Story, len(stories))
	on := map[string][]string{}
	for i, st := range stories {
		src := stories[(i+1)%len(stories)]
		st.Text = src.Text
		out[i], on[st.ID] = st, nouns[src.ID]
	}
	return out, on
}

// TestGroundingCacheBitIdentical scores the rovist_vg fixture's stories
// without and with the cache (empty, then warm), and another system's
// stories over the same images: scores are bit-identical each time, and
// the second system's run sends no crop through the ViT.
func TestGroundingCacheBitIdentical(t *testing.T) {
	f := loadGroundingFixture(t)
	cg := newCachedGrounder(t, f)
	want, _ := cg.run(t, cg.plain, cg.stories, cg.opts)
	got, first := cg.run(t, cg.cached, cg.stories, cg.opts)
	if got != want {
		t.Fatalf("cached first run differs:\n got %s\nwant %s", got, want)
	}
	st, _ := cg.store.Stats()
	if first == 0 || st.Puts != int64(first) || st.Hits != 0 {
		t.Fatalf("first run: %d crops encoded, stats %+v; want every encoded crop stored", first, st)
	}
	t.Logf("%d stories, %d crops encoded and stored on the first run", len(cg.stories), first)

	other, nouns := otherSystem(cg.stories, f.nouns)
	opts := VGOptions{NoIDF: true, Nouns: nouns}
	want, _ = cg.run(t, cg.plain, other, opts)
	got, second := cg.run(t, cg.cached, other, opts)
	if got != want {
		t.Fatalf("cached second system differs:\n got %s\nwant %s", got, want)
	}
	if second != 0 {
		t.Fatalf("second system over the same images encoded %d crops, want 0", second)
	}
	if st, _ := cg.store.Stats(); st.Hits != int64(first) {
		t.Fatalf("second run: %d hits, want %d", st.Hits, first)
	}
}

// TestGroundingCacheMisses: a changed checkpoint, a changed preprocessor
// configuration and a changed crop file each miss; a copied crops folder
// (same bytes elsewhere) hits.
func TestGroundingCacheMisses(t *testing.T) {
	f := loadGroundingFixture(t)
	cg := newCachedGrounder(t, f)
	_, all := cg.run(t, cg.cached, cg.stories, cg.opts)

	// Checkpoint: one byte more changes its identity.
	ckpt := filepath.Join(t.TempDir(), filepath.Base(f.checkpoint))
	data, err := os.ReadFile(f.checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ckpt, append(data, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := *cg.cached
	if changed.CacheModel, err = GroundingCacheModel(nil, ckpt, f.vitDir); err != nil {
		t.Fatal(err)
	}
	if _, n := cg.run(t, &changed, cg.stories, cg.opts); n != all {
		t.Fatalf("changed checkpoint: %d crops encoded, want all %d", n, all)
	}

	// Preprocessing: bicubic instead of bilinear, same CacheModel.
	vit := copyDir(t, f.vitDir)
	pp := filepath.Join(vit, "preprocessor_config.json")
	b, err := os.ReadFile(pp)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"resample": 2`) {
		t.Fatalf("%s: no \"resample\": 2 to change", pp)
	}
	if err := os.WriteFile(pp, []byte(strings.Replace(string(b), `"resample": 2`, `"resample": 3`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	changed = *cg.cached
	if changed.Model, err = LoadGroundingModel(f.checkpoint, vit); err != nil {
		t.Fatal(err)
	}
	if _, n := cg.run(t, &changed, cg.stories, cg.opts); n != all {
		t.Fatalf("changed preprocessing: %d crops encoded, want all %d", n, all)
	}

	// Crops: the same bytes in another folder hit; one changed file
	// (bytes after the JPEG's end, which decoders ignore) misses.
	crops := copyDir(t, f.crops)
	changed = *cg.cached
	folder := cg.cached.Regions.(CropFolder)
	folder.Dir = crops
	changed.Regions = folder
	if _, n := cg.run(t, &changed, cg.stories, cg.opts); n != 0 {
		t.Fatalf("crops copied to another folder: %d crops encoded, want 0", n)
	}
	img := cg.stories[0].Images[0]
	regs := folder.Entities.Regions(img.ID)
	if len(regs) == 0 {
		t.Fatalf("image %q: no regions", img.ID)
	}
	id, _ := parseImageID(img.ID)
	crop := folder.CropPath(id, story.Region{Label: regs[0].BBox})
	f0, err := os.OpenFile(crop, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f0.Write([]byte{0})
	f0.Close()
	if _, n := cg.run(t, &changed, cg.stories, cg.opts); n != 1 {
		t.Fatalf("one crop file changed: %d crops encoded, want 1", n)
	}
}

// copyDir copies the regular files of dir into a new temporary folder.
func copyDir(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestGroundingWarm warms a store with every image of the regions file:
// scoring afterwards encodes no crop, with the uncached scores.
func TestGroundingWarm(t *testing.T) {
	f := loadGroundingFixture(t)
	cg := newCachedGrounder(t, f)
	var images []story.Image
	for _, id := range cg.cached.Regions.(CropFolder).Entities.ImageIDs() {
		images = append(images, story.Image{ID: id})
	}
	n, err := cg.cached.Warm(context.Background(), images, VGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := cg.store.Stats(); n == 0 || st.Puts != int64(n) {
		t.Fatalf("Warm encoded %d crops, stored %+v", n, st)
	}
	if again, err := cg.cached.Warm(context.Background(), images, VGOptions{}); err != nil || again != 0 {
		t.Fatalf("second Warm encoded %d crops (err %v), want 0", again, err)
	}
	want, _ := cg.run(t, cg.plain, cg.stories, cg.opts)
	got, encoded := cg.run(t, cg.cached, cg.stories, cg.opts)
	if got != want || encoded != 0 {
		t.Fatalf("after Warm: %d crops encoded (want 0), scores equal %v", encoded, got == want)
	}
	t.Logf("Warm: %d images, %d crops", len(images), n)
}

// TestWarmGroundingCache warms a store from the files, as cache warm does:
// it encodes the crops Grounder.Warm encodes over every image of the
// regions file, and nothing the second time.
func TestWarmGroundingCache(t *testing.T) {
	f := loadGroundingFixture(t)
	cg := newCachedGrounder(t, f)
	var images []story.Image
	for _, id := range cg.cached.Regions.(CropFolder).Entities.ImageIDs() {
		images = append(images, story.Image{ID: id})
	}
	want, err := cg.cached.Warm(context.Background(), images, VGOptions{})
	if err != nil {
		t.Fatal(err)
	}
	store, err := embcache.Open(filepath.Join(t.TempDir(), embcache.FileName), embcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	files := GrounderFiles{ViT: f.vitDir, Regions: f.entities, Crops: f.crops}
	n, imgs, err := WarmGroundingCache(context.Background(), store, f.checkpoint, files, VGOptions{})
	if err != nil || n != want || imgs != len(images) {
		t.Fatalf("WarmGroundingCache: %d crops of %d images (err %v), want %d of %d", n, imgs, err, want, len(images))
	}
	if n, _, err = WarmGroundingCache(context.Background(), store, f.checkpoint, files, VGOptions{}); err != nil || n != 0 {
		t.Fatalf("second WarmGroundingCache encoded %d crops (err %v), want 0", n, err)
	}
}
