package rovist

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/story"
)

// coherenceFixture is the rovist_c fixture folder: the original checkpoint,
// the ALBERT folder and the stories.
type coherenceFixture struct {
	dir, checkpoint, albertDir string
	stories                    *story.Set
}

func loadCoherenceFixture(t *testing.T) (coherenceFixture, *CoherenceModel) {
	t.Helper()
	dir := e2efixtures.Metric("rovist_c")
	t.Logf("fixtures: %s", dir)
	f := coherenceFixture{dir: dir, checkpoint: findOne(t, dir, "*.pth.tar"), albertDir: findDirWith(t, dir, "spiece.model")}
	var err error
	f.stories, err = story.LoadJSON(filepath.Join(dir, "stories.json"), story.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := LoadCoherenceModel(f.checkpoint, f.albertDir)
	if err != nil {
		t.Fatal(err)
	}
	return f, m
}

// TestCoherenceE2E reproduces every value of rovist_c/expected.json and the
// two original CSV outputs from the original checkpoint.
func TestCoherenceE2E(t *testing.T) {
	f, m := loadCoherenceFixture(t)
	exp := readExpected(t, filepath.Join(f.dir, "expected.json"))
	c := newCounter()
	ctx := context.Background()

	ref, err := m.ScoreSet(ctx, f.stories, CoherenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dhm, err := m.ScoreSet(ctx, f.stories, CoherenceOptions{GrowingPrefix: true, BatchSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	const file = "expected.json"

	// rovist_c: the reference scorer, pair by pair.
	perStory := asMap(t, take(t, exp, "rovist_c"))
	for i, st := range f.stories.All() {
		e := asMap(t, take(t, perStory, st.ID))
		r := ref[i]
		c.equal(t, file, st.ID+" sentences", r.Sentences, strs(t, take(t, e, "sentences")))
		pairs := asSlice(t, take(t, e, "pairs"))
		c.equal(t, file, st.ID+" pair count", len(r.Pairs), len(pairs))
		for j, pv := range pairs {
			if j >= len(r.Pairs) {
				break
			}
			p, g := asMap(t, pv), r.Pairs[j]
			name := fmt.Sprintf("%s pair %d", st.ID, j)
			c.equal(t, file, name+" i", g.First, int(num(t, take(t, p, "i"))))
			c.equal(t, file, name+" sent_a", g.A, take(t, p, "sent_a"))
			c.equal(t, file, name+" sent_b", g.B, take(t, p, "sent_b"))
			c.equal(t, file, name+" identical", g.Identical, take(t, p, "identical"))
			checkModelPair(t, c, file, name, m, g, p)
		}
		want := num(t, take(t, e, "score"))
		c.close(t, file, st.ID+" score", r.Score, want)
		c.equal(t, file, st.ID+" score_is_nan", !r.Defined, take(t, e, "score_is_nan"))
	}
	var defined []float64
	for _, r := range ref {
		if r.Defined {
			defined = append(defined, r.Score)
		}
	}
	c.close(t, file, "rovist_c_system_score", pairwise.Mean(defined), num(t, take(t, exp, "rovist_c_system_score")))

	// dhm_prefix: the growing-prefix variant.
	perStory = asMap(t, take(t, exp, "dhm_prefix"))
	var scoredIDs []string
	defined = defined[:0]
	for i, st := range f.stories.All() {
		e := asMap(t, take(t, perStory, st.ID))
		r := dhm[i]
		pairs := asSlice(t, take(t, e, "pairs"))
		c.equal(t, file, st.ID+" dhm pair count", len(r.Pairs), len(pairs))
		scores := asSlice(t, take(t, e, "scores"))
		for j, pv := range pairs {
			if j >= len(r.Pairs) {
				break
			}
			p, g := asMap(t, pv), r.Pairs[j]
			name := fmt.Sprintf("%s dhm pair %d", st.ID, j)
			c.equal(t, file, name+" pos", g.Second, int(num(t, take(t, p, "pos"))))
			c.equal(t, file, name+" prefix", g.A, take(t, p, "prefix"))
			c.equal(t, file, name+" sentence", g.B, take(t, p, "sentence"))
			c.equal(t, file, name+" identical", g.Identical, take(t, p, "identical"))
			checkModelPair(t, c, file, name, m, g, p)
			c.close(t, file, fmt.Sprintf("%s dhm scores[%d]", st.ID, j), g.Prob, num(t, scores[j]))
		}
		if scores != nil {
			c.equal(t, file, st.ID+" dhm scores count", len(r.Pairs), len(scores))
		}
		valid := take(t, e, "valid").(bool)
		c.equal(t, file, st.ID+" dhm valid", r.Defined, valid)
		c.close(t, file, st.ID+" dhm score", r.Score, num(t, take(t, e, "score")))
		// The dHM scorer's exception (IndexError on an empty story) is
		// what makes the story invalid without pairs: ours has no
		// sentences there.
		if ev := take(t, e, "error"); ev != nil {
			c.ok(t, file, len(r.Sentences) == 0 && !r.Defined, "%s: dHM error %v, but the story has %d sentences", st.ID, ev, len(r.Sentences))
		}
		if r.Defined {
			scoredIDs = append(scoredIDs, st.ID)
			defined = append(defined, r.Score)
		}
	}
	c.equal(t, file, "dhm_prefix_scored_ids_in_order", scoredIDs, strs(t, take(t, exp, "dhm_prefix_scored_ids_in_order")))
	c.close(t, file, "dhm_prefix_system_score", pairwise.Mean(defined), num(t, take(t, exp, "dhm_prefix_system_score")))
	assertAllChecked(t, file, exp)

	// The original CSV outputs.
	checkScoreCSV(t, c, filepath.Join(f.dir, "coherence_scores.csv"), f.stories, ref, false)
	checkScoreCSV(t, c, filepath.Join(f.dir, "dhm_fixture_C.csv"), f.stories, dhm, true)
	c.report(t)
}

// checkModelPair checks what the reference recorded for a pair that went
// through the model (pieces, ids, lengths, logits, probability) and that an
// identical pair did not.
func checkModelPair(t *testing.T, c *counter, file, name string, m *CoherenceModel, g CoherencePair, p map[string]any) {
	t.Helper()
	if v, ok := takeOpt(p, "pieces"); ok {
		c.equal(t, file, name+" pieces", g.Pieces, strs(t, v))
	}
	if v, ok := takeOpt(p, "len_a"); ok {
		c.equal(t, file, name+" len_a", len(m.Tokenizer().Tokenize(g.A)), int(num(t, v)))
	}
	if v, ok := takeOpt(p, "len_b"); ok {
		c.equal(t, file, name+" len_b", len(m.Tokenizer().Tokenize(g.B)), int(num(t, v)))
	}
	if v, ok := takeOpt(p, "input_ids"); ok {
		c.equal(t, file, name+" input_ids", g.IDs, ints(t, v))
	}
	if v, ok := takeOpt(p, "token_type_ids"); ok {
		c.equal(t, file, name+" token_type_ids", g.TypeIDs, ints(t, v))
	}
	if v, ok := takeOpt(p, "logits"); ok {
		c.closeAll(t, file, name+" logits", []float64{float64(g.Logits[0]), float64(g.Logits[1])}, nums(t, v))
	} else {
		c.ok(t, file, g.Identical && g.IDs == nil, "%s: the reference did not run the model, we did", name)
	}
	c.close(t, file, name+" prob_coherent", g.Prob, num(t, take(t, p, "prob_coherent")))
}

// checkScoreCSV compares an original output CSV with our results: every
// row in order, and (dropUndefined) no undefined story listed.
func checkScoreCSV(t *testing.T, c *counter, path string, set *story.Set, res []CoherenceResult, dropUndefined bool) {
	t.Helper()
	file := filepath.Base(path)
	ids, scores := readScoreCSV(t, path)
	var want []string
	for i, st := range set.All() {
		if !dropUndefined || res[i].Defined {
			want = append(want, st.ID)
		}
	}
	c.equal(t, file, "story ids", ids, want)
	for k, id := range ids {
		i := indexOf(set.IDs(), id)
		if i < 0 {
			continue
		}
		c.close(t, file, id, res[i].Score, scores[k])
	}
}

func indexOf(ids []string, id string) int {
	for i, x := range ids {
		if x == id {
			return i
		}
	}
	return -1
}
