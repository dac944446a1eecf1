package ngram

import (
	"strings"

	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/parallel"
)

// rougeBeta is the COCO toolkit's β for ROUGE-L's F-measure.
const rougeBeta = 1.2

// ROUGEL computes ROUGE-L as the COCO caption toolkit does (pycocoevalcap
// Rouge): the longest common subsequence of tokens with each reference,
// precision and recall maximised independently over the references, and
// F = (1+β²)PR / (R + β²P) with β = 1.2. The corpus score is numpy's mean
// of the item scores.
//
// Matches the reference implementation, which splits on single spaces
// (str.split(" ")), so an empty string is one empty token and repeated
// spaces yield empty tokens; and scores 0 when either maximum is 0.
func ROUGEL(c *Corpus) Scores { return rougeL(c, nil) }

// rougeL is ROUGEL, also filling details[i] with item i's precision and
// recall maxima when details is not nil.
func rougeL(c *Corpus, details []ROUGELDetail) Scores {
	all := make([]float64, len(c.ids))
	parallel.Chunks(len(c.ids), minItemsPerWorker, func(_, lo, hi int) {
		x := tokenIDs{}
		var cand, ref []uint32
		var fields []string
		var scratch []int
		for i := lo; i < hi; i++ {
			id := c.ids[i]
			cand = x.appendIDs(cand[:0], appendSplitSpace(fields[:0], c.cands[id]))
			precMax, recMax := 0.0, 0.0
			var d ROUGELDetail
			for k, r := range c.refs[id] {
				fields = appendSplitSpace(fields[:0], r)
				ref = x.appendIDs(ref[:0], fields)
				var lcs int
				lcs, scratch = LCSLength(ref, cand, scratch)
				prec, rec := float64(lcs)/float64(len(cand)), float64(lcs)/float64(len(ref))
				if details != nil {
					d.note(k, lcs, len(ref), prec > precMax || k == 0, rec > recMax || k == 0)
				}
				precMax = max(precMax, prec)
				recMax = max(recMax, rec)
			}
			score := 0.0
			if precMax != 0 && recMax != 0 {
				b2 := rougeBeta * rougeBeta
				score = ((1 + b2) * precMax * recMax) / (recMax + b2*precMax)
			}
			all[i] = score
			if details != nil {
				d.Words, d.Precision, d.Recall = len(cand), precMax, recMax
				details[i] = d
			}
		}
	})
	out := Scores{Items: make(map[string]float64, len(c.ids))}
	for i, id := range c.ids {
		out.Items[id] = all[i]
	}
	out.Corpus = pairwise.Mean(all)
	return out
}

// appendSplitSpace appends the pieces of s split at every single space, as
// Python's s.split(" "): empty pieces included, one empty piece for "".
func appendSplitSpace(dst []string, s string) []string {
	for {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return append(dst, s)
		}
		dst = append(dst, s[:i])
		s = s[i+1:]
	}
}

// LCSLength returns the length of the longest common subsequence of a and b.
// scratch is reused when it is long enough and returned for the next call.
func LCSLength[T comparable](a, b []T, scratch []int) (int, []int) {
	// One row of the dynamic-programming table plus the previous diagonal.
	n := len(b) + 1
	if cap(scratch) < n {
		scratch = make([]int, n)
	}
	row := scratch[:n]
	clear(row)
	for i := range a {
		diag := 0
		for j := range b {
			up := row[j+1]
			if a[i] == b[j] {
				row[j+1] = diag + 1
			} else if row[j] > up {
				row[j+1] = row[j]
			}
			diag = up
		}
	}
	return row[n-1], scratch
}
