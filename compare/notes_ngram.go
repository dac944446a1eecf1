package compare

import (
	"fmt"
	"strings"

	"github.com/storyeval/storyeval/ngram"
)

// rougeNote explains a ROUGE-L score: its precision and recall, each the
// best over the references (possibly two different ones), with the
// longest common subsequence (LCS) behind it.
func rougeNote(d ngram.ROUGELDetail) string {
	return fmt.Sprintf("P %.3f (LCS %d of the story's %d words, reference %d), R %.3f (LCS %d of reference %d's %d words)",
		d.Precision, d.PrecisionLCS, d.Words, d.PrecisionRef+1, d.Recall, d.RecallLCS, d.RecallRef+1, d.RecallRefWords)
}

// ciderNote explains a CIDEr-D score by its per-order similarities (the
// score is their mean) and the length penalty they include.
func ciderNote(d ngram.CIDErDetail) string {
	orders := make([]string, len(d.Orders))
	for k, v := range d.Orders {
		orders[k] = fmt.Sprintf("%.3f", v)
	}
	s := fmt.Sprintf("1- to 4-gram similarity %s (mean over %s); length penalty %.3f", strings.Join(orders, ", "), plural(d.References, "reference"), d.Penalty)
	if d.Orders[0] > 0 && d.Orders[1] == 0 {
		s += "; shares words but no 2-gram with the references"
	}
	return s
}

// meteorNote explains a METEOR score by the statistics of the best
// reference: precision, recall and the fragmentation penalty of the
// matched words' chunks.
func meteorNote(s ngram.MeteorStats) string {
	if s.TestTotalMatches == 0 {
		return fmt.Sprintf("no word of the story's %g matches the best reference", s.TestLength)
	}
	return fmt.Sprintf("best reference: P %.3f, R %.3f; %g of %g words matched in %s, fragmentation penalty %.3f",
		s.Precision, s.Recall, s.TestTotalMatches, s.TestLength, plural(int(s.Chunks), "chunk"), s.FragPenalty)
}

// plural is "1 word" or "n words".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
