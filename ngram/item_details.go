package ngram

import "fmt"

// ROUGELDetail is what one item's ROUGE-L is made of (ROUGELDetails):
// the candidate's length and the precision and recall maxima, each with
// the reference that reaches it (the first on ties, as the toolkit's max
// keeps it) and its longest common subsequence (LCS) with the candidate.
type ROUGELDetail struct {
	// Words is the candidate's length in tokens (split at single spaces).
	Words int
	// Precision and Recall are the maxima over the references of
	// LCS/Words and LCS/(reference length).
	Precision, Recall float64
	// PrecisionRef and RecallRef index the references (from 0) reaching
	// the maxima; PrecisionLCS and RecallLCS are their LCS lengths, and
	// RecallRefWords the length of the recall reference.
	PrecisionRef, RecallRef int
	PrecisionLCS, RecallLCS int
	RecallRefWords          int
}

// note records reference k (its LCS and length) as reaching the precision
// maximum so far when prec, the recall maximum when rec.
func (d *ROUGELDetail) note(k, lcs, refWords int, prec, rec bool) {
	if prec {
		d.PrecisionRef, d.PrecisionLCS = k, lcs
	}
	if rec {
		d.RecallRef, d.RecallLCS, d.RecallRefWords = k, lcs, refWords
	}
}

// ROUGELDetails computes ROUGEL (the same scores) and, per item, what its
// score is made of, in one pass.
func ROUGELDetails(c *Corpus) (Scores, map[string]ROUGELDetail) {
	details := make([]ROUGELDetail, len(c.ids))
	s := rougeL(c, details)
	return s, byItem(c, details)
}

// CIDErDetail is what one item's CIDEr-D is made of (CIDErDDetails).
type CIDErDetail struct {
	// Orders are the similarities of the n-grams of order 1–4, each
	// averaged over the references and scaled by 10 as the score is: the
	// score is their mean (up to rounding). A story that shares words
	// but no phrases with its references scores on Orders[0] alone.
	Orders [maxOrder]float64
	// Penalty is the Gaussian length penalty exp(−δ²/72) averaged over
	// the references, δ the difference in bigram counts; it is already
	// in Orders.
	Penalty float64
	// Words is the candidate's length in tokens; References the number of
	// references.
	Words, References int
}

// CIDErDDetails computes CIDErD (the same scores) and, per item, what its
// score is made of, in one pass.
func CIDErDDetails(c *Corpus) (Scores, map[string]CIDErDetail) {
	details := make([]CIDErDetail, len(c.ids))
	s := ciderD(c, ciderTableBudget, details)
	return s, byItem(c, details)
}

// byItem keys per-item values in corpus order by item id.
func byItem[T any](c *Corpus, v []T) map[string]T {
	out := make(map[string]T, len(c.ids))
	for i, id := range c.ids {
		out[id] = v[i]
	}
	return out
}

// ItemStats returns each item's Meteor statistics against its best
// reference, keyed by item id: those whose Score is the item score of
// CorpusScores and CorpusScoresVIST (the same candidate and reference
// handling), with their precision, recall, chunks and fragmentation
// penalty. Every item needs at least one reference.
func (m *Meteor) ItemStats(c *Corpus) (map[string]MeteorStats, error) {
	for _, id := range c.ids {
		if len(c.refs[id]) == 0 {
			return nil, fmt.Errorf("item %q has no references", id)
		}
	}
	stats := m.itemStats(len(c.ids), func(i int) (string, []string) { return c.cands[c.ids[i]], c.refs[c.ids[i]] })
	return byItem(c, stats), nil
}
