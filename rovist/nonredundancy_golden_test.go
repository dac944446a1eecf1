package rovist

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// storiesDir holds the VIST and LLaVA stories shared with the tokenizer
// tests.
const storiesDir = "../testdata/words"

func openGzip(t testing.TB, path string) io.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return zr
}

// storyFile reads a gzipped {id: story} file, keeping the ids in file order.
func storyFile(t testing.TB, name string) (ids []string, texts map[string]string) {
	t.Helper()
	path := filepath.Join(storiesDir, name)
	dec := json.NewDecoder(openGzip(t, path))
	if _, err := dec.Token(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	texts = map[string]string{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var s string
		if err := dec.Decode(&s); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		ids = append(ids, tok.(string))
		texts[tok.(string)] = s
	}
	return ids, texts
}

// publishedScores reads a gzipped story_id,R_score CSV.
func publishedScores(t testing.TB, name string) map[string]float64 {
	t.Helper()
	sc := bufio.NewScanner(openGzip(t, filepath.Join("testdata", name)))
	out := map[string]float64{}
	for line := 0; sc.Scan(); line++ {
		if line == 0 {
			continue // header
		}
		id, v, ok := strings.Cut(sc.Text(), ",")
		if !ok {
			t.Fatalf("%s line %d: %q", name, line+1, sc.Text())
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s line %d: %v", name, line+1, err)
		}
		out[id] = x
	}
	return out
}

func TestNonRedundancyMatchesPublishedScores(t *testing.T) {
	tests := []struct {
		stories, scores     string
		wantScored, wantNaN int
	}{
		{"vist_gt_test.json.gz", "vist_gt_test_R.csv.gz", 4899, 156},
		{"vist_llava_first500.json.gz", "vist_llava_first500_R.csv.gz", 500, 0},
	}
	for _, tt := range tests {
		ids, texts := storyFile(t, tt.stories)
		published := publishedScores(t, tt.scores)
		if len(published) != tt.wantScored {
			t.Fatalf("%s: %d published scores, want %d", tt.scores, len(published), tt.wantScored)
		}
		identical, undefined, shown := 0, 0, 0
		var sc NRScorer // reused across stories, as the nr subcommand does
		for _, id := range ids {
			res, err := sc.Score(texts[id])
			if err != nil {
				t.Fatalf("%s: story %s: %v", tt.stories, id, err)
			}
			want, ok := published[id]
			switch {
			case !ok && !res.Defined:
				undefined++
			case ok && res.Defined && res.Score == want:
				identical++
			default:
				if shown++; shown <= 10 {
					t.Errorf("%s: story %s: score %v (defined %v), published %v (present %v)",
						tt.stories, id, res.Score, res.Defined, want, ok)
				}
			}
		}
		if identical != tt.wantScored || undefined != tt.wantNaN {
			t.Errorf("%s: %d/%d scores bit-identical, %d/%d undefined as published",
				tt.stories, identical, tt.wantScored, undefined, tt.wantNaN)
		}
		t.Logf("%s: %d/%d scores bit-identical, %d/%d one-sentence stories undefined",
			tt.stories, identical, tt.wantScored, undefined, tt.wantNaN)
	}
}
