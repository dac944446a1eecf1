package groovist

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// TestWarmCache warms the groovist fixture's crops and phrases and the
// clipscore fixture's images in one call: each step's counts are those of
// WarmEntities, WarmTexts and WarmImages on stores of their own, its line
// is the command's, and a second call encodes nothing.
func TestWarmCache(t *testing.T) {
	gdir, cdir := e2efixtures.Metric("groovist"), e2efixtures.Metric("clipscore")
	t.Logf("fixtures: %s, %s", gdir, cdir)
	m, tok := loadFixtureCLIP(t)
	id := fixtureCLIPIdentity(t)
	w := CacheWarming{Regions: filepath.Join(gdir, "aesop_entities.csv"), Crops: filepath.Join(gdir, "aesop-entities"),
		NPs: filepath.Join(gdir, "nphrases.json"), Images: filepath.Join(cdir, "images")}

	// The three steps one at a time, each on a store of its own.
	f := readGroovistFixture(t)
	sc := fixtureScorer(t, f)
	sc.Cache, sc.CacheModel = openTestStore(t), id
	crops, imgs, cropErr := sc.WarmEntities(context.Background())
	inputs, err := LoadInputs(w.NPs, "", w.Limits)
	if err != nil {
		t.Fatal(err)
	}
	sc.Cache = openTestStore(t)
	phrases, all, err := sc.WarmTexts(context.Background(), inputs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := NewCLIPScorer(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	cs.Cache, cs.CacheModel = openTestStore(t), id
	_, paths, err := ImageFiles(w.Images)
	if err != nil {
		t.Fatal(err)
	}
	images, err := cs.WarmImages(context.Background(), paths)
	if err != nil {
		t.Fatal(err)
	}
	want := []Warmed{
		{Metric: "GROOViST", Unit: "crops", Encoded: crops, Of: imgs, Err: cropErr},
		{Metric: "GROOViST", Unit: "noun phrases", Encoded: phrases, Of: all, Stories: len(inputs)},
		{Metric: "CLIPScore", Unit: "images", Encoded: images, Of: len(paths)},
	}
	if crops == 0 || phrases == 0 || images == 0 {
		t.Fatalf("the fixture warms %d crops, %d phrases, %d images; want some of each", crops, phrases, images)
	}

	st := openTestStore(t)
	var got []Warmed
	if err := WarmCache(context.Background(), m, tok, st, id, w, func(r Warmed) { got = append(got, r) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d steps, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i].String() != want[i].String() || (got[i].Err == nil) != (want[i].Err == nil) {
			t.Errorf("step %d: %q (err %v), want %q (err %v)", i, got[i], got[i].Err, want[i], want[i].Err)
		}
	}
	lines := []string{fmt.Sprintf("GROOViST: %d crops of %d images encoded and stored", crops, imgs),
		fmt.Sprintf("GROOViST: %d of %d noun phrases of %d stories encoded and stored", phrases, all, len(inputs)),
		fmt.Sprintf("CLIPScore: %d of %d images encoded and stored", images, len(paths))}
	for i, l := range lines {
		if got[i].String() != l {
			t.Errorf("step %d reads %q, want %q", i, got[i], l)
		}
	}
	// Again: the fixture's image with a missing crop has nothing stored,
	// so its error is the step's (as Warm's) when nothing else is new; the
	// phrases and images are all in the store.
	err = WarmCache(context.Background(), m, tok, st, id, w, func(r Warmed) { t.Errorf("second call: step %s", r) })
	if cropErr == nil || err == nil || err.Error() != cropErr.Error() {
		t.Fatalf("second call: err %v, want %v", err, cropErr)
	}
	w.Regions = ""
	got = nil
	if err := WarmCache(context.Background(), m, tok, st, id, w, func(r Warmed) { got = append(got, r) }); err != nil || len(got) != 2 {
		t.Fatalf("second call without regions: %v, err %v", got, err)
	}
	for _, r := range got {
		if r.Encoded != 0 {
			t.Errorf("second call: %s, want 0 encoded", r)
		}
	}
}

// TestWarmCacheInputErrors: a missing regions file or images folder is a
// WarmInputError naming the input; nothing named warms nothing.
func TestWarmCacheInputErrors(t *testing.T) {
	m, tok := loadFixtureCLIP(t)
	st := openTestStore(t)
	missing := filepath.Join(t.TempDir(), "missing")
	for _, c := range []struct {
		w     CacheWarming
		input string
	}{
		{CacheWarming{Regions: missing, Crops: missing}, "regions"},
		{CacheWarming{Images: missing}, "images"},
	} {
		err := WarmCache(context.Background(), m, tok, st, fixtureCLIPIdentity(t), c.w, func(r Warmed) { t.Errorf("step %s", r) })
		var ie *WarmInputError
		if !errors.As(err, &ie) || ie.Input != c.input || !strings.HasPrefix(err.Error(), c.input+": ") || !strings.Contains(err.Error(), missing) {
			t.Errorf("%+v: err %v, want a WarmInputError for %s", c.w, err, c.input)
		}
	}
	if err := WarmCache(context.Background(), m, tok, st, fixtureCLIPIdentity(t), CacheWarming{}, func(r Warmed) { t.Errorf("step %s", r) }); err != nil {
		t.Fatal(err)
	}
}
