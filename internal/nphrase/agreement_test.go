package nphrase

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
)

// agreement counts how the chunker's lists compare with spaCy's.
type agreement struct {
	stories, exact      int
	pred, gold, matched int
}

func (a *agreement) add(pred, gold []string) {
	a.stories++
	if strings.Join(pred, "\x00") == strings.Join(gold, "\x00") {
		a.exact++
	}
	count := map[string]int{}
	for _, g := range gold {
		count[g]++
	}
	for _, p := range pred {
		if count[p] > 0 {
			count[p]--
			a.matched++
		}
	}
	a.pred += len(pred)
	a.gold += len(gold)
}

func (a agreement) prf() (p, r, f float64) {
	p = float64(a.matched) / float64(a.pred)
	r = float64(a.matched) / float64(a.gold)
	return p, r, 2 * p * r / (p + r)
}

// readGold reads {id: text} and {id: [chunks]} and returns the ids that have
// both, sorted. Entries whose text is a placeholder for a hand-given NP list
// (the e2e generator writes "(synthetic edge case: …)") have no text to chunk.
func readGold(t *testing.T, storiesPath, npsPath string) (ids []string, texts map[string]string, nps map[string][]string) {
	t.Helper()
	for path, v := range map[string]any{storiesPath: &texts, npsPath: &nps} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	for id, text := range texts {
		if _, ok := nps[id]; ok && !strings.HasPrefix(text, "(synthetic") {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, texts, nps
}

// TestAgreement measures precision, recall and exact-list matches against
// spaCy en_core_web_trf's noun_chunks on GROOViST's sample stories and the
// e2e fixture stories, logs them, and fails below the floors measured when
// the chunker was written (so a regression shows).
func TestAgreement(t *testing.T) {
	dir := e2efixtures.Metric("groovist")
	t.Logf("fixtures: testdata/ and %s", dir)
	sets := [][2]string{
		{filepath.Join("testdata", "sample_stories.json"), filepath.Join("testdata", "sample_nphrases.json")},
		{filepath.Join(dir, "stories.json"), filepath.Join(dir, "nphrases.json")},
	}
	var all agreement
	seen := map[string]bool{}
	for _, set := range sets {
		ids, texts, gold := readGold(t, set[0], set[1])
		if len(ids) == 0 {
			t.Fatalf("%s: no story with both a text and an NP list", set[0])
		}
		for _, id := range ids {
			pred, err := Story(texts[id])
			if err != nil {
				t.Fatal(err)
			}
			key := texts[id] + "\x00" + strings.Join(gold[id], "\x00")
			if seen[key] {
				continue // the e2e set repeats the sample stories
			}
			seen[key] = true
			all.add(pred, gold[id])
			if strings.Join(pred, "|") != strings.Join(gold[id], "|") {
				t.Logf("%s:\n  chunker %q\n  spaCy   %q", id, pred, gold[id])
			}
		}
	}
	p, r, f := all.prf()
	t.Logf("%d stories: precision %.3f, recall %.3f, F1 %.3f, exact lists %d/%d", all.stories, p, r, f, all.exact, all.stories)
	if f < minF1 {
		t.Errorf("F1 %.3f below the floor %.3f", f, minF1)
	}
}

// minF1 is slightly below the F1 measured on the fixtures above.
const minF1 = 0.95
