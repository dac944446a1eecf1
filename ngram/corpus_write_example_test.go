package ngram_test

import (
	"fmt"
	"log"
	"os"

	"github.com/storyeval/storyeval/ngram"
)

// Select metrics by name, evaluate a corpus and save its PTB-tokenized
// text in the corpus file layout.
func ExampleCorpus_WriteJSON() {
	c, err := ngram.NewCorpus(map[string]string{"1": "A man, riding a horse."},
		map[string][]string{"1": {"A man rides a horse.", "Someone on a horse."}})
	if err != nil {
		log.Fatal(err)
	}
	metrics, err := ngram.ParseMetrics("ROUGE, bleu")
	if err != nil {
		log.Fatal(err)
	}
	tok := c.Tokenized()
	ev, err := ngram.Evaluate(tok, ngram.EvaluateOptions{Metrics: metrics})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(metrics, ev.Columns)
	if err := tok.WriteJSON(os.Stdout, ""); err != nil {
		log.Fatal(err)
	}
	// Output:
	// [rouge bleu] [Bleu_1 Bleu_2 Bleu_3 Bleu_4 ROUGE_L]
	// {
	//   "cands": {
	//     "1": "a man riding a horse"
	//   },
	//   "refs": {
	//     "1": ["a man rides a horse", "someone on a horse"]
	//   }
	// }
}
