package groovist

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/story"
)

// openTestStore opens a fresh store in a temporary folder.
func openTestStore(t *testing.T) *embcache.Store {
	t.Helper()
	st, err := embcache.Open(filepath.Join(t.TempDir(), embcache.FileName), embcache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// fixtureCLIPIdentity is the identity of the e2e CLIP folder.
func fixtureCLIPIdentity(t *testing.T) embcache.Digest {
	t.Helper()
	d, err := embcache.DigestDir(e2efixtures.Metric("clip"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestScorerCacheBitIdentical scores the groovist fixture's stories
// without and with the cache, then another system's phrases over the same
// images: bit-identical scores, and no crop through the image encoder and
// no phrase through the text encoder on the second system's run (its
// phrases are the first's, shuffled); a new phrase alone is encoded, a
// changed tokenizer re-encodes exactly the phrases it tokenizes otherwise
// and another model identity everything.
func TestScorerCacheBitIdentical(t *testing.T) {
	f := readGroovistFixture(t)
	plain := fixtureScorer(t, f)
	store := openTestStore(t)
	counter := &countingImages{inner: plain.Images}
	var texts int
	text := *plain.Text.(*CLIPText)
	text.forwards = func(n int) { texts += n }
	cached := *plain
	cached.Images, cached.Text = counter, &text
	cached.Cache, cached.CacheModel = store, fixtureCLIPIdentity(t)
	var encoded int
	run := func(s *Scorer, in []Input) string {
		t.Helper()
		counter.n, texts = 0, 0
		res, err := s.Score(context.Background(), in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		encoded = counter.n
		return fmt.Sprintf("%v", res)
	}
	in := f.inputs()
	phrases := map[string]bool{}
	for _, x := range in {
		for _, np := range DefaultPronouns().Filter(x.NPs) {
			phrases[np] = true
		}
	}
	want := run(plain, in)
	if got := run(&cached, in); got != want {
		t.Fatalf("cached first run differs:\n got %s\nwant %s", got, want)
	}
	first := encoded
	if st, _ := store.Stats(); first == 0 || st.Image.Puts != int64(first) || texts != len(phrases) || st.Text.Puts != int64(texts) {
		t.Fatalf("first run: %d crops and %d of %d phrases encoded, stats %+v", first, texts, len(phrases), st)
	}
	other := make([]Input, len(in))
	for i := range in {
		other[i] = in[i]
		other[i].NPs = in[(i+1)%len(in)].NPs
	}
	want = run(plain, other)
	if got := run(&cached, other); got != want {
		t.Fatalf("cached second system differs:\n got %s\nwant %s", got, want)
	}
	if encoded != 0 || texts != 0 {
		t.Fatalf("second system over the same images and phrases encoded %d crops and %d phrases, want 0", encoded, texts)
	}
	t.Logf("%d stories: %d crops and %d phrases encoded on the first run, none on the second system's", len(in), first, len(phrases))

	other[0].NPs = append([]string{"the purple lighthouse"}, other[0].NPs...)
	want = run(plain, other)
	if got := run(&cached, other); got != want || texts != 1 || encoded != 0 {
		t.Fatalf("one new phrase: %d phrases and %d crops encoded (want 1, 0); scores equal %v", texts, encoded, got == want)
	}

	// A tokenizer whose merges file lost its second half: the phrases it
	// tokenizes otherwise miss, the others hit, and the scores are those
	// of that tokenizer without the cache.
	tok := truncatedMergesCLIP(t)
	changed := 0
	for np := range phrases {
		a, _ := text.Tokens([]string{np})
		b, err := (&CLIPText{Tokenizer: tok}).Tokens([]string{np})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			changed++
		}
	}
	if changed == 0 || changed == len(phrases) {
		t.Fatalf("truncated merges change %d of %d phrases' ids; want some, not all", changed, len(phrases))
	}
	plainTok := *plain
	plainTok.Text = &CLIPText{Model: text.Model, Tokenizer: tok}
	cachedTok := cached
	textTok := text
	textTok.Tokenizer = tok
	cachedTok.Text = &textTok
	want = run(&plainTok, in)
	if got := run(&cachedTok, in); got != want || texts != changed || encoded != 0 {
		t.Fatalf("changed tokenizer: %d phrases encoded (want %d), %d crops; scores equal %v", texts, changed, encoded, got == want)
	}
	t.Logf("a merges file cut in half: %d of %d phrases tokenized otherwise, re-encoded", changed, len(phrases))

	// Another model identity misses everything.
	cached.CacheModel = embcache.DigestBytes([]byte("other weights"))
	run(&cached, in)
	if encoded != first || texts != len(phrases) {
		t.Fatalf("other CacheModel: %d crops and %d phrases encoded, want %d and %d", encoded, texts, first, len(phrases))
	}
}

// truncatedMergesCLIP loads the CLIP tokenizer from a copy of its files
// whose merges.txt keeps only the first half of its merges.
func truncatedMergesCLIP(t *testing.T) *tokenize.CLIP {
	t.Helper()
	src := tokenizerDir(e2efixtures.Metric("clip"))
	dir := t.TempDir()
	for _, name := range []string{"vocab.json", "merges.txt"} {
		b, err := readMaybeGzip(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "merges.txt" {
			lines := strings.SplitAfter(string(b), "\n")
			b = []byte(strings.Join(lines[:len(lines)/2], ""))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tok, err := tokenize.LoadCLIP(dir, tokenize.CLIPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// readMaybeGzip reads path, or path.gz decompressed.
func readMaybeGzip(path string) ([]byte, error) {
	if b, err := os.ReadFile(path); err == nil {
		return b, nil
	}
	f, err := os.Open(path + ".gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// TestCLIPScorerCacheBitIdentical: CLIPScore with and without the cache,
// and a second set of candidates over the same images, which encodes no
// image; a changed image file misses.
func TestCLIPScorerCacheBitIdentical(t *testing.T) {
	f := readCLIPScoreFixture(t)
	m, tok := loadFixtureCLIP(t)
	plain, err := NewCLIPScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	store := openTestStore(t)
	var encoded, texts int
	cached := *plain
	text := *plain.Text
	text.forwards = func(n int) { texts += n }
	cached.Text = &text
	cached.imagesEncoded = func(n int) { encoded += n }
	cached.Cache, cached.CacheModel = store, fixtureCLIPIdentity(t)
	run := func(s *CLIPScorer, items []Caption) string {
		t.Helper()
		encoded, texts = 0, 0
		res, err := s.Score(context.Background(), items)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%v", res)
	}
	items := f.captions(t)
	distinct := map[string]bool{}
	for _, it := range items {
		distinct[it.Candidate] = true
		for _, r := range it.References {
			distinct[r] = true
		}
	}
	want := run(plain, items)
	if got := run(&cached, items); got != want || encoded != len(items) || texts != len(distinct) {
		t.Fatalf("cached first run: %d images, %d texts encoded (want %d, %d), scores\n got %s\nwant %s", encoded, texts, len(items), len(distinct), got, want)
	}
	other := make([]Caption, len(items))
	for i := range items {
		other[i] = items[i]
		other[i].Candidate = items[(i+1)%len(items)].Candidate
	}
	want = run(plain, other)
	if got := run(&cached, other); got != want || encoded != 0 || texts != 0 {
		t.Fatalf("second candidates: %d images, %d texts encoded (want 0, 0), scores\n got %s\nwant %s", encoded, texts, got, want)
	}
	// A new candidate: that text alone goes through the text tower.
	other[0].Candidate = "a caption no run has seen"
	want = run(plain, other)
	if got := run(&cached, other); got != want || encoded != 0 || texts != 1 {
		t.Fatalf("one new candidate: %d images, %d texts encoded (want 0, 1); scores equal %v", encoded, texts, got == want)
	}
	// One image file changed (a byte after the end of its data): that
	// image alone misses.
	dir := t.TempDir()
	for i := range other {
		b, err := os.ReadFile(items[i].Image)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			b = append(b, 0)
		}
		other[i].Image = filepath.Join(dir, filepath.Base(items[i].Image))
		if err := os.WriteFile(other[i].Image, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if run(&cached, other); encoded != 1 {
		t.Fatalf("one image file changed: %d images encoded, want 1", encoded)
	}
}

// TestWarm warms the store for every image of the entities file, the
// fixture's noun phrases and every image file of the clipscore fixture:
// scoring afterwards encodes nothing and gives the uncached scores.
func TestWarm(t *testing.T) {
	f := readGroovistFixture(t)
	plain := fixtureScorer(t, f)
	counter := &countingImages{inner: plain.Images}
	cached := *plain
	cached.Images = counter
	cached.Cache, cached.CacheModel = openTestStore(t), fixtureCLIPIdentity(t)
	var images []story.Image
	for _, in := range f.inputs() {
		images = append(images, in.Images...)
	}
	// The fixture lists images whose crops are missing; Warm names them.
	if _, err := cached.Warm(context.Background(), images); err == nil || !strings.Contains(err.Error(), "image") {
		t.Fatalf("Warm over images with missing crops: err %v, want one naming the image", err)
	}
	var ok []story.Image
	for _, img := range images {
		if _, err := cached.Warm(context.Background(), []story.Image{img}); err == nil {
			ok = append(ok, img)
		}
	}
	counter.n = 0
	if n, err := cached.Warm(context.Background(), ok); err != nil || n != 0 || counter.n != 0 {
		t.Fatalf("second Warm: %d crops (%d at the encoder), err %v; want 0", n, counter.n, err)
	}
	var in []Input
	for _, x := range f.inputs() {
		all := true
		for _, img := range x.Images {
			all = all && slices.ContainsFunc(ok, func(o story.Image) bool { return o.ID == img.ID })
		}
		if all {
			in = append(in, x)
		}
	}
	if len(in) == 0 {
		t.Fatal("no fixture story with all its crops")
	}
	want, err := plain.Score(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := cached.Score(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || counter.n != 0 {
		t.Fatalf("after Warm: %d crops encoded (want 0), scores equal %v", counter.n, fmt.Sprint(got) == fmt.Sprint(want))
	}

	// WarmTexts stores the fixture's phrases: scoring them then runs no
	// text forward pass, and a second WarmTexts encodes none.
	var texts int
	text := *plain.Text.(*CLIPText)
	text.forwards = func(n int) { texts += n }
	cached.Text = &text
	cached.Cache = openTestStore(t)
	enc, all, err := cached.WarmTexts(context.Background(), in, Options{})
	if err != nil || enc != all || all == 0 || texts != all {
		t.Fatalf("WarmTexts: %d of %d phrases encoded (%d at the tower), err %v", enc, all, texts, err)
	}
	texts = 0
	if enc, _, err := cached.WarmTexts(context.Background(), in, Options{}); err != nil || enc != 0 || texts != 0 {
		t.Fatalf("second WarmTexts: %d encoded (%d at the tower), err %v; want 0", enc, texts, err)
	}
	got, err = cached.Score(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || texts != 0 {
		t.Fatalf("after WarmTexts: %d phrases encoded (want 0), scores equal %v", texts, fmt.Sprint(got) == fmt.Sprint(want))
	}

	cf := readCLIPScoreFixture(t)
	m, tok := loadFixtureCLIP(t)
	cs, err := NewCLIPScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	cs.Cache, cs.CacheModel = openTestStore(t), fixtureCLIPIdentity(t)
	items := cf.captions(t)
	var paths []string
	for _, it := range items {
		paths = append(paths, it.Image)
	}
	if n, err := cs.WarmImages(context.Background(), paths); err != nil || n != len(paths) {
		t.Fatalf("WarmImages: %d encoded, err %v; want %d", n, err, len(paths))
	}
	encoded := 0
	cs.imagesEncoded = func(n int) { encoded += n }
	if _, err := cs.Score(context.Background(), items); err != nil || encoded != 0 {
		t.Fatalf("after WarmImages: %d images encoded, err %v; want 0", encoded, err)
	}
}

// TestWarmEntities warms every image of the entities file: the crops and
// error of Warm over those images, on a fresh store each.
func TestWarmEntities(t *testing.T) {
	f := readGroovistFixture(t)
	plain := fixtureScorer(t, f)
	var images []story.Image
	for _, id := range plain.Entities.ImageIDs() {
		images = append(images, story.Image{ID: id})
	}
	a, b := *plain, *plain
	a.Cache, a.CacheModel = openTestStore(t), fixtureCLIPIdentity(t)
	b.Cache, b.CacheModel = openTestStore(t), fixtureCLIPIdentity(t)
	want, wantErr := a.Warm(context.Background(), images)
	n, k, err := b.WarmEntities(context.Background())
	if n != want || k != len(images) || (err == nil) != (wantErr == nil) {
		t.Fatalf("WarmEntities: %d crops of %d images, err %v; want %d of %d, err %v", n, k, err, want, len(images), wantErr)
	}
	if n == 0 {
		t.Fatalf("WarmEntities encoded no crop")
	}
}
