package train

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

func TestResolveVGInit(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if _, _, err := ResolveVGInit(dir, ""); err == nil {
		t.Fatalf("a folder without weights: no error")
	}
	bin := write("pytorch_model.bin")
	file, d, err := ResolveVGInit(dir, "")
	if err != nil || file != bin || d != dir {
		t.Fatalf("folder with pytorch_model.bin: got %q, %q, %v; want %q, %q", file, d, err, bin, dir)
	}
	// A saved model wins over the HuggingFace weights.
	st := write(VGModelFile)
	if file, d, err = ResolveVGInit(dir, "vit"); err != nil || file != st || d != "vit" {
		t.Fatalf("folder with both, -vit: got %q, %q, %v; want %q, %q", file, d, err, st, "vit")
	}
	// A file is taken as is, with its own folder.
	if file, d, err = ResolveVGInit(bin, ""); err != nil || file != bin || d != dir {
		t.Fatalf("file: got %q, %q, %v; want %q, %q", file, d, err, bin, dir)
	}
	if _, _, err := ResolveVGInit(filepath.Join(dir, "missing"), ""); !os.IsNotExist(err) {
		t.Fatalf("missing path: got %v, want a not-exist error", err)
	}
}

func TestSplitVGPairs(t *testing.T) {
	var pairs []rovist.VGPair
	for i, im := range []string{"1", "2", "3", "1", "2", "3", "4", "4", "5", "5"} {
		pairs = append(pairs, rovist.VGPair{ImageID: im, BBox: string(rune('a' + i)), Phrase: "p"})
	}
	// A seeded share: round(10*0.25) = 3 held out; together they are the
	// pairs, each in the pairs' order; the same seed gives the same split.
	train, valid := SplitVGPairs(pairs, VGSplit{Fraction: 0.25, Seed: 7})
	if len(valid) != 3 || len(train) != 7 {
		t.Fatalf("fraction 0.25 of 10: %d train, %d valid; want 7, 3", len(train), len(valid))
	}
	all := append(slices.Clone(train), valid...)
	for _, part := range [][]rovist.VGPair{train, valid} {
		if !slices.IsSortedFunc(part, func(a, b rovist.VGPair) int { return int(a.BBox[0]) - int(b.BBox[0]) }) {
			t.Fatalf("split lost the pairs' order: %v", part)
		}
	}
	slices.SortFunc(all, func(a, b rovist.VGPair) int { return int(a.BBox[0]) - int(b.BBox[0]) })
	if !slices.Equal(all, pairs) {
		t.Fatalf("train+valid = %v, want the pairs", all)
	}
	t2, v2 := SplitVGPairs(pairs, VGSplit{Fraction: 0.25, Seed: 7})
	if !slices.Equal(t2, train) || !slices.Equal(v2, valid) {
		t.Fatalf("same seed, different split")
	}
	if train, valid = SplitVGPairs(pairs, VGSplit{}); len(valid) != 0 || !slices.Equal(train, pairs) {
		t.Fatalf("fraction 0: %d valid, want none", len(valid))
	}
	// By stories: validation = images 2 and 5, training restricted to 1 and 4.
	set := func(ims ...string) *story.Set {
		st := story.Story{ID: "s", Text: "t"}
		for _, im := range ims {
			st.Images = append(st.Images, story.Image{ID: im})
		}
		s, err := story.NewSet(st)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	train, valid = SplitVGPairs(pairs, VGSplit{Valid: set("2", "5"), Train: set("1", "4", "5"), Fraction: 0.5})
	want := func(idx ...int) []rovist.VGPair {
		var out []rovist.VGPair
		for _, i := range idx {
			out = append(out, pairs[i])
		}
		return out
	}
	if !slices.Equal(valid, want(1, 4, 8, 9)) || !slices.Equal(train, want(0, 3, 6, 7)) {
		t.Fatalf("by stories: train %v, valid %v", train, valid)
	}
}
