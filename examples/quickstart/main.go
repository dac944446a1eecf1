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
	"io"
	"log"
	"os"

	"github.com/storyeval/storyeval/ngram"
)

//go:embed captions.json
var captions []byte

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatalf("quickstart: %v", err)
	}
}

func run(w io.Writer) error {
	raw, err := ngram.ParseCorpus(captions)
	if err != nil {
		return fmt.Errorf("embedded captions.json: %w", err)
	}
	// The COCO toolkit tokenizes with Stanford's PTBTokenizer before scoring.
	c := raw.Tokenized()
	bleu := ngram.BLEU(c)
	rouge := ngram.ROUGEL(c)
	cider := ngram.CIDErD(c)
	sacre, err := ngram.SacreBLEU(raw, ngram.SacreBLEUOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d items\n", c.Len())
	for k, b := range bleu.Corpus {
		fmt.Fprintf(w, "Bleu_%d     %.6f\n", k+1, b)
	}
	fmt.Fprintf(w, "ROUGE_L    %.6f\n", rouge.Corpus)
	fmt.Fprintf(w, "CIDEr      %.6f\n", cider.Corpus)
	fmt.Fprintf(w, "SacreBLEU  %.4f\n", sacre.Corpus)
	fmt.Fprintln(w, "\nper item (BLEU-4, CIDEr):")
	for _, id := range c.IDs() {
		fmt.Fprintf(w, "  %s  %.6f  %.6f  %q\n", id, bleu.Items[id][3], cider.Items[id], c.Candidate(id))
	}
	return nil
}
