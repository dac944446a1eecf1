package groovist_test

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/groovist"
	"github.com/storyeval/storyeval/regions"
	"github.com/storyeval/storyeval/story"
)

// tinyCLIP loads the tiny random CLIP of the end-to-end fixtures (use
// openai/clip-vit-base-patch32 for real scores).
func tinyCLIP() (*encoders.CLIP, *tokenize.CLIP) {
	m, err := encoders.LoadCLIP(filepath.Join("..", "testdata", "e2e", "clip"))
	if err != nil {
		panic(err)
	}
	tok, err := tokenize.LoadCLIP(filepath.Join("..", "testdata", "encoders", "fixtures", "tokenizers", "clip_full"), tokenize.CLIPOptions{})
	if err != nil {
		panic(err)
	}
	return m, tok
}

func ExampleRatings_Weight() {
	r, err := groovist.DefaultRatings()
	if err != nil {
		panic(err)
	}
	w, words, err := r.Weight("the bridesmaids")
	if err != nil {
		panic(err)
	}
	for _, d := range words {
		fmt.Printf("%s lemma=%q rating=%.2f\n", d.Word, d.Lemma, d.Rating)
	}
	fmt.Printf("weight %.4f\n", w)
	// Output:
	// the lemma="" rating=1.43
	// bridesmaids lemma="bridesmaid" rating=4.41
	// weight 2.9200
}

func ExamplePronouns_Filter() {
	fmt.Println(groovist.DefaultPronouns().Filter([]string{"this", "the church", "it", "the church", "the bride"}))
	// Output: [the church the bride]
}

func ExampleScorer_Score() {
	m, tok := tinyCLIP()
	s, err := groovist.NewScorer(m, tok)
	if err != nil {
		panic(err)
	}
	dir := filepath.Join("..", "testdata", "e2e", "groovist")
	if s.Entities, err = regions.Load(filepath.Join(dir, "aesop_entities.csv"), regions.Options{}); err != nil {
		panic(err)
	}
	s.CropsDir = filepath.Join(dir, "aesop-entities")
	var imgs []story.Image
	for _, id := range groovist.AESOPImageIDs("50392") {
		imgs = append(imgs, story.Image{ID: id})
	}
	in := []groovist.Input{{
		Story: story.Story{ID: "50392", Images: imgs},
		NPs:   []string{"this", "the church", "the wedding", "the bride", "groom"},
	}}
	res, err := s.Score(context.Background(), in, groovist.Options{Theta: groovist.ThetaOf(groovist.ThetaAESOP)})
	if err != nil {
		panic(err)
	}
	r := res[0]
	fmt.Printf("%d phrases scored, GROOViST %.3f\n", len(r.NPs), r.Score)
	fmt.Printf("%q weight %.3f, best image %d\n", r.NPs[0].NP, r.NPs[0].Weight, r.NPs[0].BestImage)
	// Output:
	// 4 phrases scored, GROOViST -2.238
	// "the church" weight 3.165, best image 0
}

func ExampleCLIPScorer_Score() {
	m, tok := tinyCLIP()
	s, err := groovist.NewCLIPScorer(m, tok)
	if err != nil {
		panic(err)
	}
	img := filepath.Join("..", "testdata", "e2e", "clipscore", "images", "img_b.png")
	res, err := s.Score(context.Background(), []groovist.Caption{{
		ID: "img_b", Image: img, Candidate: "Two people & a bicycle near the river",
		References: []string{"a dog", "people outside"},
	}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("CLIPScore %.4f RefCLIPScore %.4f\n", res[0].CLIPScore, res[0].RefCLIPScore)
	// Output: CLIPScore 0.4657 RefCLIPScore 0.3937
}

func ExampleCLIPScorer_ScoreStories() {
	m, tok := tinyCLIP()
	s, err := groovist.NewCLIPScorer(m, tok)
	if err != nil {
		panic(err)
	}
	dir := filepath.Join("..", "testdata", "e2e", "clipscore", "images")
	st := story.Story{
		ID:   "walk",
		Text: "A dog runs on the grass. Two people ride a bicycle near the river.",
		Images: []story.Image{
			{ID: "img_a", Path: filepath.Join(dir, "img_a.jpg")},
			{ID: "img_b", Path: filepath.Join(dir, "img_b.png")},
		},
	}
	refs := [][]string{{"a dog plays outside. people cycle by the water."}}
	res, err := s.ScoreStories(context.Background(), []story.Story{st}, refs)
	if err != nil {
		panic(err)
	}
	r := res[0]
	fmt.Printf("%s: %s alignment, CLIPScore %.4f RefCLIPScore %.4f\n", r.ID, r.Alignment, r.CLIPScore, r.RefCLIPScore)
	for _, p := range r.Pairs {
		fmt.Printf("%s %q %.4f\n", p.Image, p.Text, p.CLIPScore)
	}
	w := r.LeastGrounded()
	fmt.Printf("least grounded: %s\n", w.Image)
	// Output:
	// walk: sentences alignment, CLIPScore 0.0677 RefCLIPScore 0.1043
	// img_a "A dog runs on the grass." 0.1353
	// img_b "Two people ride a bicycle near the river." 0.0000
	// least grounded: img_b
}
