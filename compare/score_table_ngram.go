package compare

import (
	"io"

	"github.com/storyeval/storyeval/ngram"
)

// EvaluationTable is ev as a ScoreTable, columns and items in ev's order.
// When tokenized is not nil (the corpus ev scored, after
// ngram.Corpus.Tokenized), the JSON output also holds it as "tokenized",
// in the layout ngram.LoadCorpus reads, so that a reader sees the text the
// scores were computed on; CSV output leaves it out.
func EvaluationTable(ev *ngram.Evaluation, tokenized *ngram.Corpus) *ScoreTable {
	t := &ScoreTable{Metrics: ev.Columns, Corpus: ev.Corpus, IDs: ev.IDs, Items: ev.Items}
	if tokenized != nil {
		t.ExtraJSON = func(w io.Writer) error {
			if _, err := io.WriteString(w, ",\n  \"tokenized\": "); err != nil {
				return err
			}
			return tokenized.WriteJSON(w, "  ")
		}
	}
	return t
}
