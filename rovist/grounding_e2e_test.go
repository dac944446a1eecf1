package rovist

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/dense"
	"github.com/storyeval/storyeval/internal/e2efixtures"
	"github.com/storyeval/storyeval/internal/npy"
	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/postag"
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/internal/words"
	"github.com/storyeval/storyeval/story"
)

// groundingFixture is the rovist_vg fixture folder, laid out as the
// original scorer reads it. Its symloss/ sub-folder (a training step) is not
// RoViST-VG scoring and is skipped.
type groundingFixture struct {
	dir, checkpoint, vitDir, glove, idf, entities, crops, nounsFile string
	stories                                                         *story.Set
	nouns                                                           map[string][]string
}

func loadGroundingFixture(t *testing.T) groundingFixture {
	t.Helper()
	dir := e2efixtures.Metric("rovist_vg")
	t.Logf("fixtures: %s (symloss/ skipped: training, not scoring)", dir)
	f := groundingFixture{
		dir:        dir,
		checkpoint: findOne(t, dir, "*.pth.tar"),
		vitDir:     findDirWith(t, dir, "preprocessor_config.json"),
		glove:      findOne(t, dir, "glove*.txt"),
		idf:        findOne(t, dir, "*.pkl"),
		entities:   findOne(t, dir, "*entities*.csv"),
		nounsFile:  filepath.Join(dir, "nouns.json"),
	}
	for _, d := range mustGlob(t, filepath.Join(dir, "*entities*")) {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			f.crops = d
		}
	}
	if f.crops == "" {
		t.Fatalf("no crops folder in %s", dir)
	}
	// The reference merges test, valid and train stories.
	f.stories = &story.Set{}
	for _, name := range []string{"test_stories.json", "valid_stories.json", "train_stories.json"} {
		s, err := story.LoadJSON(filepath.Join(dir, name), story.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range s.All() {
			if err := f.stories.Add(st); err != nil {
				t.Fatal(err)
			}
		}
	}
	data, err := os.ReadFile(f.nounsFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &f.nouns); err != nil {
		t.Fatal(err)
	}
	return f
}

func mustGlob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// grounder loads the fixture's grounder through LoadGrounder, so that
// the e2e values check the loader too.
func (f groundingFixture) grounder(t *testing.T, words []string) *Grounder {
	t.Helper()
	g, err := LoadGrounder(f.checkpoint, GrounderFiles{ViT: f.vitDir, GloVe: f.glove, IDF: f.idf, Regions: f.entities, Crops: f.crops}, words)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// storiesNamed returns the stories of ids, in that order.
func storiesNamed(t *testing.T, set *story.Set, ids []string) []story.Story {
	t.Helper()
	out := make([]story.Story, len(ids))
	for i, id := range ids {
		st, ok := set.Get(id)
		if !ok {
			t.Fatalf("story %q not in the fixture's stories", id)
		}
		out[i] = st
	}
	return out
}

// TestGroundingE2E reproduces every value of rovist_vg/expected.json and
// the original scorer's CSV outputs from the original checkpoint, GloVe
// file, idf pickle, regions file and crops.
func TestGroundingE2E(t *testing.T) {
	f := loadGroundingFixture(t)
	exp := readExpected(t, filepath.Join(f.dir, "expected.json"))
	c := newCounter()
	ctx := context.Background()
	const file = "expected.json"

	var allNouns []string
	for _, n := range f.nouns {
		allNouns = append(allNouns, n...)
	}
	g := f.grounder(t, allNouns)
	ids := slices.Sorted(maps.Keys(asMap(t, exp["per_story"])))
	// Keep the order of the stories file.
	slices.SortFunc(ids, func(a, b string) int { return indexOf(f.stories.IDs(), a) - indexOf(f.stories.IDs(), b) })
	stories := storiesNamed(t, f.stories, ids)

	noIDF, err := g.Score(ctx, stories, VGOptions{NoIDF: true, Nouns: f.nouns, BatchSize: 7})
	if err != nil {
		t.Fatal(err)
	}
	// The idf run: stories whose nouns all have a weight.
	perStory := asMap(t, take(t, exp, "per_story"))
	var idfIDs []string
	for _, id := range ids {
		if _, missing := asMap(t, perStory[id])["idf_error"]; !missing {
			idfIDs = append(idfIDs, id)
		}
	}
	withIDF, err := g.Score(ctx, storiesNamed(t, f.stories, idfIDs), VGOptions{Nouns: f.nouns})
	if err != nil {
		t.Fatal(err)
	}
	// Nouns extracted here (sorted within a sentence) change only the
	// float32 summation order.
	extracted, err := g.Score(ctx, storiesNamed(t, f.stories, idfIDs), VGOptions{})
	if err != nil {
		t.Fatal(err)
	}

	for i, id := range ids {
		e := asMap(t, take(t, perStory, id))
		r := noIDF[i]
		c.equal(t, file, id+" nouns", f.nouns[id], strs(t, take(t, e, "nouns")))
		var imgIDs []string
		for _, im := range stories[i].Images {
			imgIDs = append(imgIDs, im.ID)
		}
		c.equal(t, file, id+" image_ids", imgIDs, strs(t, take(t, e, "image_ids")))
		if ev, ok := takeOpt(e, "idf_error"); ok {
			_, err := g.Score(ctx, stories[i:i+1], VGOptions{Nouns: f.nouns})
			noun := strings.TrimSuffix(strings.TrimPrefix(ev.(string), "KeyError: "), "")
			c.ok(t, file, err != nil && strings.Contains(err.Error(), strings.ReplaceAll(noun, "'", "\"")), "%s: idf error %v, want one naming %s", id, err, noun)
		}
		k := indexOf(idfIDs, id)
		if v, ok := takeOpt(e, "idf_weights_python"); ok {
			want := nums(t, v)
			var got []float64
			if k >= 0 {
				for _, ng := range withIDF[k].Nouns {
					got = append(got, ng.IDF)
				}
			}
			if !withIDF[k].Defined {
				// No nouns: the weights come from the table directly.
				got = []float64{}
			}
			c.equal(t, file, id+" idf_weights_python", got, want)
			f32 := nums(t, take(t, e, "idf_weights_float32"))
			got = got[:0]
			for _, ng := range withIDF[k].Nouns {
				got = append(got, float64(ng.Weight))
			}
			c.equal(t, file, id+" idf_weights_float32", got, f32)
		}
		if ev, ok := takeOpt(e, "error"); ok {
			c.ok(t, file, !r.Defined && len(f.nouns[id]) == 0, "%s: the reference fails (%v); we scored it", id, ev)
			if k >= 0 {
				c.ok(t, file, !withIDF[k].Defined, "%s: defined with idf", id)
			}
			continue
		}
		var found []bool
		var recall []float64
		var bestImg []int
		for _, ng := range r.Nouns {
			found = append(found, ng.InGloVe)
			recall = append(recall, float64(ng.Recall))
			bestImg = append(bestImg, ng.BestImage)
		}
		c.equal(t, file, id+" glove_found", found, take(t, e, "glove_found"))
		c.closeAll(t, file, id+" recall", recall, nums(t, take(t, e, "recall")))
		wantSims := asSlice(t, take(t, e, "final_sims"))
		for ii, s := range wantSims {
			c.closeAll(t, file, fmt.Sprintf("%s final_sims[%d]", id, ii), f32s(r.Similarities[ii]), nums(t, s))
		}
		// Arg-max indices: equal, or a tie within the tolerance.
		wantBest := ints(t, take(t, e, "recall_image_index"))
		for n, b := range wantBest {
			c.ok(t, file, bestImg[n] == b || closeF32(float64(r.Similarities[bestImg[n]][n]), float64(r.Similarities[b][n])),
				"%s noun %d: best image %d, want %d", id, n, bestImg[n], b)
		}
		for ii, row := range asSlice(t, take(t, e, "best_region_index_per_image")) {
			for n, b := range ints(t, row) {
				got := r.Nouns[n].BestRegionPerImage[ii]
				c.ok(t, file, got == b, "%s image %d noun %d: best region %d, want %d", id, ii, n, got, b)
			}
		}
		var listed, used []int
		for _, im := range r.Images {
			listed, used = append(listed, im.Listed), append(used, im.Used)
		}
		c.equal(t, file, id+" n_regions_per_image", listed, ints(t, take(t, e, "n_regions_per_image")))
		c.equal(t, file, id+" regions_used_per_image", used, ints(t, take(t, e, "regions_used_per_image")))
		c.close(t, file, id+" score_no_idf", r.Score, num(t, take(t, e, "score_no_idf")))
		if v, ok := takeOpt(e, "score_idf"); ok {
			c.close(t, file, id+" score_idf", withIDF[k].Score, num(t, v))
			c.close(t, file, id+" score_idf (nouns extracted here)", extracted[k].Score, num(t, v))
		}
	}

	// The three runs of the original scorer's main.
	runs := asMap(t, take(t, exp, "main_runs"))
	for _, name := range sortedKeys(runs) {
		run := asMap(t, take(t, runs, name))
		scores := asMap(t, take(t, run, "scores"))
		runIDs := sortedKeys(scores)
		slices.SortFunc(runIDs, func(a, b string) int { return indexOf(f.stories.IDs(), a) - indexOf(f.stories.IDs(), b) })
		opts := VGOptions{Nouns: f.nouns, NoIDF: strings.HasSuffix(name, "_empty")}
		res, err := g.Score(ctx, storiesNamed(t, f.stories, runIDs), opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var all []float64
		for j, id := range runIDs {
			c.close(t, file, name+" "+id, res[j].Score, num(t, take(t, scores, id)))
			all = append(all, res[j].Score)
		}
		c.close(t, file, name+" system_score", pairwise.Mean(all), num(t, take(t, run, "system_score")))
		// The CSV the run wrote.
		csvPath := filepath.Join(f.dir, "vg_scores_"+name+".csv")
		csvIDs, csvScores := readScoreCSV(t, csvPath)
		c.equal(t, filepath.Base(csvPath), "story ids", csvIDs, runIDs)
		for j, id := range csvIDs {
			if j < len(res) {
				c.close(t, filepath.Base(csvPath), id, res[j].Score, csvScores[j])
			}
		}
	}
	checkNounExtraction(t, c, file, f, exp, g)
	assertAllChecked(t, file, exp)
	checkGroundingArrays(t, c, f, g)
	c.report(t)
}

func f32s(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// checkNounExtraction checks the noun extraction (identical) and the noun
// lists derived from it.
func checkNounExtraction(t *testing.T, c *counter, file string, f groundingFixture, exp expectedTree, g *Grounder) {
	t.Helper()
	tagger, err := postag.English()
	if err != nil {
		t.Fatal(err)
	}
	ne := asMap(t, take(t, exp, "noun_extraction"))
	for _, id := range sortedKeys(ne) {
		st, ok := f.stories.Get(id)
		if !ok {
			t.Fatalf("noun_extraction: story %q unknown", id)
		}
		per, err := Nouns(st.Text)
		if err != nil {
			t.Fatal(err)
		}
		sents := asSlice(t, take(t, ne, id))
		split := sentences.Split(st.Text)
		c.equal(t, file, id+" sentence count", len(split), len(sents))
		var setOrder []string
		for k, sv := range sents {
			s := asMap(t, sv)
			if k >= len(split) {
				break
			}
			sent := replacePlaceholders(split[k])
			c.equal(t, file, fmt.Sprintf("%s sentence %d", id, k), sent, take(t, s, "sentence"))
			toks := words.Tokenize(sent)
			c.equal(t, file, fmt.Sprintf("%s tokens %d", id, k), toks, strs(t, take(t, s, "tokens")))
			c.equal(t, file, fmt.Sprintf("%s tags %d", id, k), tagger.Tag(toks), strs(t, take(t, s, "tags")))
			c.equal(t, file, fmt.Sprintf("%s nouns_sorted %d", id, k), per[k], strs(t, take(t, s, "nouns_sorted")))
			so := strs(t, take(t, s, "nouns_set_order"))
			sorted := slices.Sorted(slices.Values(so))
			c.equal(t, file, fmt.Sprintf("%s nouns_set_order %d (as a set)", id, k), sorted, per[k])
			setOrder = append(setOrder, so...)
		}
		c.equal(t, file, id+" nouns_set_order = nouns.json", setOrder, f.nouns[id])
	}
	var all []string
	for _, n := range f.nouns {
		all = append(all, n...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	c.equal(t, file, "nouns_sorted_unique", all, strs(t, take(t, exp, "nouns_sorted_unique")))
	var missing []string
	for _, w := range all {
		if _, ok := g.GloVe.Vector(w); !ok && w == strings.ToLower(w) {
			missing = append(missing, w)
		}
	}
	c.equal(t, file, "glove_missing_lowercase_nouns", missing, strs(t, take(t, exp, "glove_missing_lowercase_nouns")))
}

// checkGroundingArrays checks the per-stage arrays: decoded crop pixels
// (identical), pixel values (identical), ViT pooler outputs and the two
// heads' embeddings (float32 tolerance), GloVe vectors (identical).
func checkGroundingArrays(t *testing.T, c *counter, f groundingFixture, g *Grounder) {
	t.Helper()
	var index struct {
		CropIndex []struct {
			ImageID    int64  `json:"image_id"`
			BBox       string `json:"bbox"`
			File       string `json:"file"`
			SizeWH     [2]int `json:"size_wh"`
			RowInImage int    `json:"row_in_image"`
			Offset     int    `json:"offset"`
			H, W       int
		} `json:"crop_index"`
		Arrays map[string]struct {
			File  string `json:"file"`
			Shape []int  `json:"shape"`
		} `json:"arrays"`
	}
	data, err := os.ReadFile(filepath.Join(f.dir, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &index); err != nil {
		t.Fatal(err)
	}
	arr := func(name string) *npy.Array {
		a, ok := index.Arrays[name]
		if !ok {
			return nil
		}
		x, err := npy.ReadFile(filepath.Join(f.dir, a.File))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	folder := g.Regions.(CropFolder)
	u8a := arr("crops_decoded_u8")
	u8 := u8a.Float64s()
	var decoded []*imageproc.RGB
	for i, ci := range index.CropIndex {
		name := fmt.Sprintf("crop %d", i)
		regs := folder.Entities.Regions(fmt.Sprint(ci.ImageID))
		if ci.RowInImage >= len(regs) {
			c.ok(t, "index.json", false, "%s: row %d of image %d not in the regions file", name, ci.RowInImage, ci.ImageID)
			continue
		}
		c.equal(t, "index.json", name+" bbox", regs[ci.RowInImage].BBox, ci.BBox)
		path := folder.CropPath(ci.ImageID, story.Region{Label: regs[ci.RowInImage].BBox})
		c.equal(t, "index.json", name+" file", path, filepath.Join(f.dir, ci.File))
		img, err := imageproc.DecodeFile(path, imageproc.DecodeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		decoded = append(decoded, img)
		c.equal(t, "index.json", name+" size", [2]int{img.Width, img.Height}, ci.SizeWH)
		c.equal(t, "index.json", name+" h,w", [2]int{img.Height, img.Width}, [2]int{ci.H, ci.W})
		want := u8[ci.Offset : ci.Offset+ci.H*ci.W*3]
		same := len(img.Pix) == len(want)
		for k := 0; same && k < len(want); k++ {
			same = float64(img.Pix[k]) == want[k]
		}
		c.ok(t, "arrays/crops_decoded_u8.npy", same, "%s (%s): decoded pixels differ from Pillow's", name, ci.File)
	}
	c.equal(t, "arrays/crops_decoded_u8.npy", "length", len(u8), sumPix(decoded))
	// Everything after decoding, bit for bit from Pillow's pixels.
	fromPillow := make([]*imageproc.RGB, len(index.CropIndex))
	for i, ci := range index.CropIndex {
		px := make([]uint8, ci.H*ci.W*3)
		for k := range px {
			px[k] = uint8(u8[ci.Offset+k])
		}
		fromPillow[i] = &imageproc.RGB{Width: ci.W, Height: ci.H, Pix: px}
	}
	pixels := make([]imageproc.PixelValues, len(fromPillow))
	for i, img := range fromPillow {
		pixels[i], err = g.Model.Preprocess(img)
		if err != nil {
			t.Fatal(err)
		}
	}
	if a := arr("crops_pixel_values"); a != nil {
		per := a.Len() / a.Shape[0]
		for i := range a.Shape[0] {
			got := f32s(pixels[i].Data)
			ok := len(got) == per
			for k := 0; ok && k < per; k++ {
				ok = got[k] == float64(a.F32[i*per+k])
			}
			c.ok(t, "arrays/crops_pixel_values.npy", ok, "crop %d: pixel values differ", i)
		}
	}
	ctx := context.Background()
	if a := arr("crops_vit_pooler"); a != nil {
		out, err := g.Model.Encoder().EmbedImages(ctx, pixels[:a.Shape[0]])
		if err != nil {
			t.Fatal(err)
		}
		got := dense.Data(out).([]float32)
		c.closeAll(t, "arrays/crops_vit_pooler.npy", "pooler", f32s(got), f32s(a.F32))
	}
	if a := arr("crops_image_embedding"); a != nil {
		feats, err := g.Model.imageFeatures(ctx, pixels[:a.Shape[0]])
		if err != nil {
			t.Fatal(err)
		}
		c.closeAll(t, "arrays/crops_image_embedding.npy", "image embedding", f32s(slices.Concat(feats...)), f32s(a.F32))
	}
	var unique []string
	for _, n := range f.nouns {
		unique = append(unique, n...)
	}
	slices.Sort(unique)
	unique = slices.Compact(unique)
	if a := arr("noun_glove_vectors"); a != nil {
		var got []float64
		for _, w := range unique[:a.Shape[0]] {
			v, _, err := g.GloVe.lookup(w)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, f32s(v)...)
		}
		c.equal(t, "arrays/noun_glove_vectors.npy", "vectors", got, f32s(a.F32))
	}
	if a := arr("noun_text_embedding"); a != nil {
		var got []float64
		for _, w := range unique[:a.Shape[0]] {
			v, _, _ := g.GloVe.lookup(w)
			e, err := g.Model.wordFeatures(v)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, f32s(e)...)
		}
		c.closeAll(t, "arrays/noun_text_embedding.npy", "text embedding", got, f32s(a.F32))
	}
}

func sumPix(imgs []*imageproc.RGB) int {
	n := 0
	for _, im := range imgs {
		n += len(im.Pix)
	}
	return n
}
