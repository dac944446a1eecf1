// Command quickstart scores a small embedded caption corpus with storyeval's
// n-gram metrics, exactly as the COCO caption toolkit and SacreBLEU would:
//
//	go run ./examples/quickstart
//
// The corpus (captions.json) is eight items of the project's golden caption
// cases: one candidate and several references each.
package main

import (
	_ "embed"
	"fmt"
	"log"

	"github.com/storyeval/storyeval/ngram"
)

//go:embed captions.json
var captions []byte

func main() {
	raw, err := ngram.ParseCorpus(captions)
	if err != nil {
		log.Fatalf("quickstart: embedded captions.json: %v", err)
	}
	// The COCO toolkit tokenizes with Stanford's PTBTokenizer before scoring.
	c := raw.Tokenized()
	bleu := ngram.BLEU(c)
	rouge := ngram.ROUGEL(c)
	cider := ngram.CIDErD(c)
	sacre, err := ngram.SacreBLEU(raw, ngram.SacreBLEUOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d items\n", c.Len())
	for k, b := range bleu.Corpus {
		fmt.Printf("Bleu_%d     %.6f\n", k+1, b)
	}
	fmt.Printf("ROUGE_L    %.6f\n", rouge.Corpus)
	fmt.Printf("CIDEr      %.6f\n", cider.Corpus)
	fmt.Printf("SacreBLEU  %.4f\n", sacre.Corpus)
	fmt.Println("\nper item (BLEU-4, CIDEr):")
	for _, id := range c.IDs() {
		fmt.Printf("  %s  %.6f  %.6f  %q\n", id, bleu.Items[id][3], cider.Items[id], c.Candidate(id))
	}
}
