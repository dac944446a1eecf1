package stylem_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/storyeval/storyeval/stylem"
)

// corpus is a toy stylized caption corpus: one record per captioned image.
var corpus = []stylem.Record{
	{Image: "1", Style: "Happy", Captions: []string{"What a happy day at the beach!"}},
	{Image: "2", Style: "Happy", Captions: []string{"Such a fun and happy party."}},
	{Image: "3", Style: "Gloomy", Captions: []string{"The sky is grey and sad."}},
	{Image: "4", Style: "Gloomy", Captions: []string{"Another sad and lonely day at the beach."}},
	{Image: "5", Style: "Angry", Captions: []string{"This party is so loud and annoying!"}},
	{Image: "6", Style: "Angry", Captions: []string{"I hate the beach, it is so crowded."}},
}

func Example() {
	tab, err := stylem.Build(corpus, stylem.BuildOptions{}) // PTB tokenization, reference formula
	if err != nil {
		log.Fatal(err)
	}
	caption := stylem.Tokenize("A sad, lonely day.", nil)
	fmt.Println(caption)
	sc, err := tab.Score(caption, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	for s, style := range tab.Styles() {
		fmt.Printf("%-6s OnlyStyle %.4f  exist %.4f\n", style, sc.OnlyStyle[s], sc.OnlyStyleExist[s])
	}
	// Output:
	// [a sad lonely day <eos>]
	// Happy  OnlyStyle 0.0604  exist 0.6042
	// Gloomy OnlyStyle 0.1531  exist 0.8021
	// Angry  OnlyStyle 0.0000  exist 0.0000
}

func ExampleTable_Score() {
	tab, err := stylem.Build(corpus, stylem.BuildOptions{Step: stylem.Simple, StepName: "simple"})
	if err != nil {
		log.Fatal(err)
	}
	hyp := stylem.Tokenize("such a happy party", stylem.Simple)
	refs := [][]string{stylem.Tokenize("such a fun and happy party", stylem.Simple)}
	sc, err := tab.Score(hyp, refs, nil)
	if err != nil {
		log.Fatal(err)
	}
	for s, style := range tab.Styles() {
		fmt.Printf("%-6s StyleCIDEr %.4f\n", style, sc.StyleCIDEr[s])
	}
	// Output:
	// Happy  StyleCIDEr 4.6489
	// Gloomy StyleCIDEr 0.0000
	// Angry  StyleCIDEr 2.3404
}

func ExampleReadTable() {
	tab, err := stylem.Build(corpus, stylem.BuildOptions{Formula: stylem.CNGSumOverStyleCount})
	if err != nil {
		log.Fatal(err)
	}
	var file bytes.Buffer
	if _, err := tab.WriteTo(&file); err != nil {
		log.Fatal(err)
	}
	back, err := stylem.ReadTable(&file, stylem.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	v, _ := back.CNG("Gloomy", "sad")
	fmt.Println(back.Styles(), back.Formula(), back.Tokenization(), back.DocFreq("Gloomy", "sad"))
	fmt.Printf("CNG(Gloomy, sad) = %.4f\n", v)
	// Output:
	// [Happy Gloomy Angry] paper ptb 2
	// CNG(Gloomy, sad) = 0.6667
}

func ExampleWriteBuild() {
	// The counts spill to sorted runs in a temporary folder once they
	// exceed the chunk (here 100 counts, to show the runs): memory stays
	// bounded whatever the corpus's size.
	var file bytes.Buffer
	st, err := stylem.WriteBuild(context.Background(), &file, corpus, stylem.BuildOptions{},
		stylem.SpillOptions{ChunkBytes: 100 * 24, Dir: os.TempDir()})
	if err != nil {
		log.Fatal(err)
	}
	tab, err := stylem.ReadTable(&file, stylem.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(st.Styles, st.Ngrams, st.Runs, tab.NumNgrams())
	fmt.Println(tab.DocFreq("Gloomy", "sad"))
	// Output:
	// [Happy Gloomy Angry] 123 2 123
	// 2
}

// Score a JSONL file of captions under every style and write the scores
// as CSV (the caption of ExampleTable_Score: StyleCIDEr 4.6489 under
// Happy, 0 under Gloomy).
func ExampleTable_ScoreAll() {
	tab, err := stylem.Build(corpus, stylem.BuildOptions{Step: stylem.Simple, StepName: "simple"})
	if err != nil {
		log.Fatal(err)
	}
	in := `{"id": "c1", "caption": "such a happy party", "refs": ["such a fun and happy party"]}`
	scores, err := tab.ScoreAll(strings.NewReader(in), stylem.Simple)
	if err != nil {
		log.Fatal(err)
	}
	for s, style := range scores.Styles {
		fmt.Printf("%s %-6s StyleCIDEr %.4f\n", scores.IDs[0], style, scores.Scores[0][s][2])
	}
	if err := scores.WriteCSV(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// c1 Happy  StyleCIDEr 4.6489
	// c1 Gloomy StyleCIDEr 0.0000
	// c1 Angry  StyleCIDEr 2.3404
	// id,style,onlystyle,onlystyle_exist,stylecider
	// c1,Happy,0.4797619047619047,0.9107142857142857,4.648923735347256
	// c1,Gloomy,0,0,0
	// c1,Angry,0.010267857142857143,0.20535714285714285,2.3404470365708185
}

// What a caption's OnlyStyle is made of: the mean CNG per order and the
// n-grams that weigh most for the style.
func ExampleTable_OnlyStyleDetail() {
	tab, err := stylem.Build(corpus, stylem.BuildOptions{})
	if err != nil {
		log.Fatal(err)
	}
	d, err := tab.OnlyStyleDetail("Gloomy", stylem.Tokenize("A sad, lonely day.", nil), 3)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("OnlyStyle %.4f\n", d.Score)
	for _, o := range d.Orders {
		fmt.Printf("%d-grams: %d of %d in the style, mean CNG %.4f\n", o.N, o.InStyle, o.Distinct, o.MeanCNG)
	}
	for _, g := range d.Top {
		fmt.Printf("%q %.4f\n", g.Ngram, g.CNG)
	}
	// Output:
	// OnlyStyle 0.1531
	// 1-grams: 4 of 5 in the style, mean CNG 0.3625
	// 2-grams: 1 of 4 in the style, mean CNG 0.2500
	// 3-grams: 0 of 3 in the style, mean CNG 0.0000
	// 4-grams: 0 of 2 in the style, mean CNG 0.0000
	// "lonely day" 1.0000
	// "sad" 1.0000
	// "lonely" 0.6667
}

// ExampleReadCorpus reads a corpus in the layout a command-line flag names.
func ExampleReadCorpus() {
	jsonl := `{"style": "Happy", "caption": "What a happy day!", "image": "1"}
{"style": "Gloomy", "caption": "A grey day.", "image": "2"}`
	recs, err := stylem.ReadCorpus(strings.NewReader(jsonl), "jsonl")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(recs), recs[1].Style, recs[1].Captions)
	_, err = stylem.ReadCorpus(strings.NewReader(jsonl), "csv")
	fmt.Println(err)
	// Output:
	// 2 Gloomy [A grey day.]
	// unknown format "csv" (want jsonl or personality-captions)
}

// ExampleOpenTable reads a table file written by 'storyeval stylem build'
// (the toy table of the golden fixture: the toy corpus with -tokenize
// simple, 225 n-grams as stylem build reports for it).
func ExampleOpenTable() {
	tab, err := stylem.OpenTable("testdata/toy_table_34c9a1c.stylem", stylem.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tab.Styles(), tab.Formula(), tab.ECDF(), tab.Tokenization(), tab.NumNgrams())
	// Output: [Happy Gloomy Angry] code count-ratio simple 225
}
