package rovist

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one mentioning %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not mention %q", err, p)
		}
	}
}

func TestGroundingBadInput(t *testing.T) {
	f := loadGroundingFixture(t)
	g := f.grounder(t, nil)
	ctx := context.Background()
	st, _ := f.stories.Get(f.stories.IDs()[0])

	t.Run("missing crop", func(t *testing.T) {
		empty := t.TempDir()
		bad := *g
		bad.Regions = CropFolder{Entities: g.Regions.(CropFolder).Entities, Dir: empty}
		_, err := bad.Score(ctx, []story.Story{st}, VGOptions{Nouns: f.nouns})
		wantErr(t, err, empty, ".jpg")
		var mc *regions.MissingCropError
		if !errors.As(err, &mc) || !slices.ContainsFunc(st.Images, func(im story.Image) bool { return im.ID == mc.ImageID }) || filepath.Dir(mc.Path) != empty || !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing crop: %v, want a MissingCropError of an image of story %q in %s", err, st.ID, empty)
		}
	})
	t.Run("image without regions", func(t *testing.T) {
		s := st
		s.Images = append([]story.Image{{ID: "123"}}, st.Images[1:]...)
		_, err := g.Score(ctx, []story.Story{s}, VGOptions{Nouns: f.nouns})
		wantErr(t, err, st.ID, `"123"`, "no regions")
	})
	t.Run("story without images", func(t *testing.T) {
		_, err := g.Score(ctx, []story.Story{{ID: "text-only", Text: "the dog ran ."}}, VGOptions{NoIDF: true})
		wantErr(t, err, "text-only", "no images")
	})
	t.Run("noun without idf", func(t *testing.T) {
		s := st
		s.ID = "zep"
		_, err := g.Score(ctx, []story.Story{s}, VGOptions{Nouns: map[string][]string{"zep": {"dog", "zeppelin"}}})
		wantErr(t, err, `"zep"`, `"zeppelin"`, "idf")
		var mi *MissingIDFError
		if !errors.As(err, &mi) || mi.Story != "zep" || mi.Noun != "zeppelin" {
			t.Errorf("noun without idf: %v, want a MissingIDFError of story zep, noun zeppelin", err)
		}
		res, err := g.Score(ctx, []story.Story{s}, VGOptions{Nouns: map[string][]string{"zep": {"dog", "zeppelin"}}, UseDefaultIDF: true, DefaultIDF: 2.5})
		if err != nil {
			t.Fatal(err)
		}
		if n := res[0].Nouns[1]; n.IDF != 2.5 || n.Weight != 2.5 || !res[0].Defined {
			t.Errorf("default idf: %+v", n)
		}
	})
	t.Run("no nouns", func(t *testing.T) {
		res, err := g.Score(ctx, []story.Story{{ID: "x", Text: "it was great !"}}, VGOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Defined || res[0].Score == res[0].Score {
			t.Errorf("a story without nouns: %+v, want undefined (NaN)", res[0])
		}
	})
	t.Run("empty story set", func(t *testing.T) {
		_, err := g.Score(ctx, nil, VGOptions{})
		wantErr(t, err, "no stories")
	})
	t.Run("truncated checkpoint", func(t *testing.T) {
		_, err := LoadGroundingModel(truncatedCopy(t, f.checkpoint), f.vitDir)
		wantErr(t, err, "r2p_model")
	})
}

// truncatedCopy writes the first half of a file to a temp dir.
func truncatedCopy(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(out, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCoherenceBadInput(t *testing.T) {
	f, m := loadCoherenceFixture(t)
	ctx := context.Background()
	t.Run("truncated checkpoint", func(t *testing.T) {
		_, err := LoadCoherenceModel(truncatedCopy(t, f.checkpoint), f.albertDir)
		wantErr(t, err, "sop_model")
	})
	t.Run("empty story set", func(t *testing.T) {
		_, err := m.Score(ctx, nil, CoherenceOptions{})
		wantErr(t, err, "no stories")
	})
	t.Run("invalid UTF-8", func(t *testing.T) {
		_, err := m.Score(ctx, []story.Story{{ID: "bad", Text: "a \xff b . c d ."}}, CoherenceOptions{})
		wantErr(t, err, `"bad"`, "UTF-8")
	})
	t.Run("pair over 512 pieces", func(t *testing.T) {
		long := strings.Repeat("the dog ran far away ", 80) + "."
		text := long + " " + strings.Repeat("a cat sat down ", 60) + "."
		_, err := m.Score(ctx, []story.Story{{ID: "long", Text: "a b . " + text}}, CoherenceOptions{})
		wantErr(t, err, `"long"`, "512")
		res, err := m.Score(ctx, []story.Story{{ID: "long", Text: "a b . " + text}}, CoherenceOptions{Truncate: true})
		if err != nil {
			t.Fatal(err)
		}
		p := res[0].Pairs[1]
		if !p.Truncated || len(p.IDs) != m.MaxPieces() || !res[0].Defined {
			t.Errorf("truncated pair: truncated=%v, %d ids, defined %v", p.Truncated, len(p.IDs), res[0].Defined)
		}
		if res[0].Pairs[0].Truncated {
			t.Errorf("a short pair was marked truncated")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := m.Score(cctx, f.stories.Stories(), CoherenceOptions{})
		wantErr(t, err, "canceled")
	})
}

// TestCoherenceBatchInvariance checks that padding inside a batch does not
// change any probability: one pair per pass equals sixteen.
func TestCoherenceBatchInvariance(t *testing.T) {
	f, m := loadCoherenceFixture(t)
	ctx := context.Background()
	one, err := m.ScoreSet(ctx, f.stories, CoherenceOptions{BatchSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := m.ScoreSet(ctx, f.stories, CoherenceOptions{BatchSize: 64})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := range one {
		for j := range one[i].Pairs {
			a, b := one[i].Pairs[j].Prob, many[i].Pairs[j].Prob
			if !closeF32(a, b) || a-b > 1e-7 || b-a > 1e-7 {
				t.Errorf("story %d pair %d: %v alone, %v in a padded batch", i, j, a, b)
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no pairs compared")
	}
}

func TestReadGloVeErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"wrong width", "unk 1 2 3\ncat 1 2\n", "line 2"},
		{"not a number", "unk 1 2 3\ncat 1 x 3\n", "line 2"},
		{"not finite", "unk 1 2 3\ncat 1 nan 3\n", "line 2"},
		{"empty line", "unk 1 2 3\n\ncat 1 2 3\n", "line 2"},
		{"no vectors", "", "no vectors"},
		{"invalid UTF-8", "unk 1 2 3\nc\xffat 1 2 3\n", "line 2"},
	} {
		_, err := ReadGloVe(strings.NewReader(tc.text), "g.txt", []string{"cat"}, GloVeOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "g.txt") {
			t.Errorf("%s: error %v, want one naming g.txt and %q", tc.name, err, tc.want)
		}
	}
	_, err := ReadGloVe(strings.NewReader("unk 1 2 3\n"), "g.txt", nil, GloVeOptions{Limits: limits.Limits{MaxBytes: 4}})
	wantErr(t, err, "GloVe g.txt: more than 4 bytes")
	if tl := new(limits.TooLargeError); !errors.As(err, &tl) || tl.Line || tl.Limit != 4 {
		t.Errorf("GloVe over MaxBytes: %v, want a TooLargeError of 4 bytes", err)
	}
	_, err = ReadGloVe(strings.NewReader("unk 1 2 3\n"), "g.txt", nil, GloVeOptions{Limits: limits.Limits{MaxLineBytes: 4}})
	wantErr(t, err, "GloVe g.txt line 1: a line longer than 4 bytes")
	if tl := new(limits.TooLargeError); !errors.As(err, &tl) || !tl.Line || tl.Limit != 4 {
		t.Errorf("GloVe over MaxLineBytes: %v, want a line TooLargeError of 4 bytes", err)
	}
}

func TestReadGloVeKeepsAskedWords(t *testing.T) {
	text := "unk 0.5 1.5\ncat 1 2\ndog 3 4\ncat 9 9\nCat 5 6\r\n"
	g, err := ReadGloVe(strings.NewReader(text), "g", []string{"cat", "Cat"}, GloVeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 3 || g.Dim() != 2 {
		t.Fatalf("kept %d words of dim %d, want unk, cat, Cat of dim 2", g.Len(), g.Dim())
	}
	if v, _ := g.Vector("cat"); v[0] != 1 || v[1] != 2 {
		t.Errorf("cat = %v, want the first row's [1 2]", v)
	}
	if _, ok := g.Vector("dog"); ok {
		t.Error("dog was not asked for")
	}
	v, found, err := g.lookup("horse")
	if err != nil || found || v[0] != 0.5 {
		t.Errorf("horse: %v %v %v, want unk's vector", v, found, err)
	}
}

// Pickles written by hand (protocol 2).
var (
	pickleStrStr = []byte("\x80\x02}q\x00X\x03\x00\x00\x00catq\x01X\x01\x00\x00\x00xs.")
	pickleIntKey = []byte("\x80\x02}K\x01G?\xf0\x00\x00\x00\x00\x00\x00s.")
	pickleList   = []byte("\x80\x02]q\x00.")
	pickleStrNum = []byte("\x80\x02}(X\x03\x00\x00\x00catG?\xf8\x00\x00\x00\x00\x00\x00X\x03\x00\x00\x00dogK\x02u.")
	pickleTrunc  = []byte("\x80\x02}(X\x03\x00\x00\x00ca")
)

func TestParseIDF(t *testing.T) {
	idf, err := ParseIDF(pickleStrNum, "idf.pkl")
	if err != nil {
		t.Fatal(err)
	}
	if len(idf) != 2 || idf["cat"] != 1.5 || idf["dog"] != 2 {
		t.Errorf("idf = %v, want cat 1.5, dog 2", idf)
	}
	for name, data := range map[string][]byte{"str value": pickleStrStr, "int key": pickleIntKey, "list": pickleList, "truncated": pickleTrunc} {
		_, err := ParseIDF(data, "idf.pkl")
		if err == nil || !strings.Contains(err.Error(), "idf.pkl") {
			t.Errorf("%s: error %v, want one naming idf.pkl", name, err)
		}
	}
}

// CropFolder reads RoViST's regions file with integer ids: a story's
// image id "012" selects the rows of 12, in file order, and names crops
// with the canonical id.
func TestCropFolderIntegerImageIDs(t *testing.T) {
	csvText := "x,image_id,bbox\n1,12,\"[1.0, 2.0, 3.5, 4.0]\"\n2,7,\"[0.0, 0.0, 1.0, 1.0]\"\n3,012,\"odd label\"\n"
	e, err := regions.Read(strings.NewReader(csvText), "e.csv", regions.Options{IDs: regions.IntegerIDs})
	if err != nil {
		t.Fatal(err)
	}
	crops, err := CropFolder{Entities: e, Dir: "d"}.RegionCrops(story.Image{ID: "012"})
	if err != nil {
		t.Fatal(err)
	}
	if len(crops) != 2 || crops[0].Label != "[1.0, 2.0, 3.5, 4.0]" || crops[1].Label != "odd label" {
		t.Fatalf("crops of 012 = %+v", crops)
	}
	if want := "file:" + filepath.Join("d", "12_[1.0, 2.0, 3.5, 4.0].jpg"); crops[0].Key != want {
		t.Errorf("crop key %q, want %q", crops[0].Key, want)
	}
	if _, err := (CropFolder{Entities: e, Dir: "d"}).RegionCrops(story.Image{ID: "x12"}); err == nil || !strings.Contains(err.Error(), `"x12"`) {
		t.Errorf("non-integer image id: err = %v", err)
	}
}
