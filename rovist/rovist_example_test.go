package rovist_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"

	"github.com/storyeval/storyeval/limits"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/rovist"
	"github.com/storyeval/storyeval/story"
)

// fixture is the folder of the tiny RoViST models used by the tests.
var fixture = filepath.Join("..", "testdata", "e2e")

// RoViST-C from the released checkpoint layout: a story's score is the mean
// probability that each sentence follows the one before. The model here is
// a tiny random one, so the numbers mean nothing beyond the example.
func ExampleCoherenceModel_Coherence() {
	dir := filepath.Join(fixture, "rovist_c")
	m, err := rovist.LoadCoherenceModel(filepath.Join(dir, "sop_model_epoch4.pth.tar"), filepath.Join(dir, "albert-large-v1"))
	if err != nil {
		log.Fatal(err)
	}
	res, err := m.Coherence(context.Background(), "we went to the beach . we went to the beach . the water was cold .", rovist.CoherenceOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range res.Pairs {
		fmt.Printf("%q -> %q: identical %v, P(coherent) %.4f\n", p.A, p.B, p.Identical, p.Prob)
	}
	fmt.Printf("score %.4f\n", res.Score)
	// Output:
	// "we went to the beach ." -> "we went to the beach .": identical true, P(coherent) 0.0000
	// "we went to the beach ." -> "the water was cold .": identical false, P(coherent) 0.3497
	// score 0.1749
}

// RoViST-VG in the released layout: the regions CSV, the crops folder,
// GloVe vectors and idf weights. Each noun's recall is its best cosine with
// any region of the story's images.
func ExampleGrounder_Score() {
	dir := filepath.Join(fixture, "rovist_vg")
	m, err := rovist.LoadGroundingModel(filepath.Join(dir, "r2p_model_epoch2.pth.tar"), filepath.Join(dir, "vit-base-patch16-224-in21k"))
	if err != nil {
		log.Fatal(err)
	}
	set, err := story.LoadJSON(filepath.Join(dir, "test_stories.json"), story.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	st, _ := set.Get("edge_dup_nouns")
	nouns, err := rovist.StoryNouns([]story.Story{st}, nil)
	if err != nil {
		log.Fatal(err)
	}
	glove, err := rovist.LoadGloVe(filepath.Join(dir, "glove.6B.300d.txt"), nouns[0], rovist.GloVeOptions{})
	if err != nil {
		log.Fatal(err)
	}
	idf, err := rovist.LoadIDF(filepath.Join(dir, "idf_dict.pkl"), limits.Limits{})
	if err != nil {
		log.Fatal(err)
	}
	ents, err := regions.Load(filepath.Join(dir, "vist_entities.csv"), regions.Options{IDs: regions.IntegerIDs})
	if err != nil {
		log.Fatal(err)
	}
	g := &rovist.Grounder{Model: m, GloVe: glove, IDF: idf, Regions: rovist.CropFolder{Entities: ents, Dir: filepath.Join(dir, "vist-entities")}}
	res, err := g.Score(context.Background(), []story.Story{st}, rovist.VGOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range res[0].Nouns {
		fmt.Printf("%-6s in GloVe %-5v idf %.3f recall %+.4f (image %d)\n", n.Noun, n.InGloVe, n.IDF, n.Recall, n.BestImage)
	}
	fmt.Printf("VG %.4f, scaled %.4f\n", res[0].Score, res[0].Scaled)
	// Output:
	// dog    in GloVe true  idf 1.977 recall +0.0353 (image 0)
	// dog    in GloVe true  idf 1.977 recall +0.0353 (image 0)
	// Dog    in GloVe false idf 2.162 recall -0.0016 (image 1)
	// slept  in GloVe true  idf 4.265 recall +0.0260 (image 2)
	// VG 1.4489, scaled 0.3472
}

// The paper's idf from a corpus of stories' nouns: log(N / (1 + df)).
func ExampleIDF() {
	var idf rovist.IDF = story.ComputeIDF([][]string{{"dog", "beach"}, {"dog"}, {"cake"}, {"dog", "cake"}}, story.IDFOptions{AddOne: true})
	fmt.Printf("dog %.4f, cake %.4f, beach %.4f\n", idf["dog"], idf["cake"], idf["beach"])
	// Output: dog 0.0000, cake 0.2877, beach 0.6931
}

// The overall RoViST score sums the three metrics; SystemMeans averages
// each over the stories where it is defined.
func ExampleCombine() {
	stories := []story.Story{{ID: "a"}, {ID: "b"}}
	vg := []rovist.VGResult{{Score: 2.0, Scaled: rovist.ScaleVG(2.0), Defined: true}, {Score: 1.5, Scaled: rovist.ScaleVG(1.5), Defined: true}}
	c := []rovist.CoherenceResult{{Score: 0.4, Defined: true}, {Defined: false}}
	nr := []rovist.NRResult{{Score: 0.9, Defined: true}, {Score: 0.8, Defined: true}}
	rows, err := rovist.Combine(stories, vg, c, nr, rovist.CombineOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rows {
		fmt.Printf("%s: defined %v, RoViST %.2f\n", r.ID, r.OverallDefined, r.Overall)
	}
	sys := rovist.SystemMeans(rows)
	fmt.Printf("system: VG %.2f over %d, C %.2f over %d, RoViST %.2f over %d\n", sys.VG, sys.NumVG, sys.C, sys.NumC, sys.Overall, sys.NumOverall)
	// Output:
	// a: defined true, RoViST 3.30
	// b: defined false, RoViST NaN
	// system: VG 1.75 over 2, C 0.40 over 1, RoViST 3.30 over 1
}
