package ngram

import (
	"math"
	"strconv"
	"strings"
)

// MeteorStats are Meteor's sufficient statistics for one segment (or, summed
// with Add, for a corpus) and the scores computed from them. The counts are
// float64 because the reference keeps them as doubles; for word-based
// scoring they are whole numbers, so sums are exact in any order.
type MeteorStats struct {
	TestLength, ReferenceLength               float64 // words
	TestFunctionWords, ReferenceFunctionWords float64 // words in english.words
	TestTotalMatches, ReferenceTotalMatches   float64 // matched words, all stages

	// Matched words per stage (exact, stem, synonym, paraphrase), split into
	// content and function words.
	TestStageMatchesContent, ReferenceStageMatchesContent   [4]float64
	TestStageMatchesFunction, ReferenceStageMatchesFunction [4]float64

	Chunks                                float64 // contiguous aligned runs
	TestWordMatches, ReferenceWordMatches float64 // matched words (for fragmentation)

	// Computed by Meteor.ComputeScore.
	Precision, Recall, F1, FMean, FragPenalty, Score float64
}

// Add accumulates o's counts into s (MeteorStats.addStats); scores are not
// summed. Matches the reference implementation, which leaves out the chunk of
// a segment whose test and reference matched completely in one chunk.
func (s *MeteorStats) Add(o MeteorStats) {
	s.TestLength += o.TestLength
	s.ReferenceLength += o.ReferenceLength
	s.TestFunctionWords += o.TestFunctionWords
	s.ReferenceFunctionWords += o.ReferenceFunctionWords
	s.TestTotalMatches += o.TestTotalMatches
	s.ReferenceTotalMatches += o.ReferenceTotalMatches
	for i := range s.TestStageMatchesContent {
		s.TestStageMatchesContent[i] += o.TestStageMatchesContent[i]
		s.ReferenceStageMatchesContent[i] += o.ReferenceStageMatchesContent[i]
		s.TestStageMatchesFunction[i] += o.TestStageMatchesFunction[i]
		s.ReferenceStageMatchesFunction[i] += o.ReferenceStageMatchesFunction[i]
	}
	if !(o.TestTotalMatches == o.TestLength && o.ReferenceTotalMatches == o.ReferenceLength && o.Chunks == 1) {
		s.Chunks += o.Chunks
	}
	s.TestWordMatches += o.TestWordMatches
	s.ReferenceWordMatches += o.ReferenceWordMatches
}

// String formats the 23 statistics the way the jar's -stdio SCORE command
// prints them (MeteorStats.toString, Java's Double.toString per number).
func (s MeteorStats) String() string {
	var sb strings.Builder
	add := func(v float64) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(meteorJavaDouble(v))
	}
	add(s.TestLength)
	add(s.ReferenceLength)
	add(s.TestFunctionWords)
	add(s.ReferenceFunctionWords)
	for i := range s.TestStageMatchesContent {
		add(s.TestStageMatchesContent[i])
		add(s.ReferenceStageMatchesContent[i])
		add(s.TestStageMatchesFunction[i])
		add(s.ReferenceStageMatchesFunction[i])
	}
	add(s.Chunks)
	add(s.TestWordMatches)
	add(s.ReferenceWordMatches)
	return sb.String()
}

// meteorJavaDouble formats v like Java's Double.toString for the values
// Meteor prints: "15.0", "0.5", "1.0E7".
func meteorJavaDouble(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(v); a >= 1e-3 && a < 1e7 {
		out := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.Contains(out, ".") {
			out += ".0"
		}
		return out
	}
	out := strconv.FormatFloat(v, 'E', -1, 64)
	mant, exp, _ := strings.Cut(out, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	exp = strings.TrimPrefix(exp, "+")
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
	if neg {
		exp = "-" + exp
	}
	return mant + "E" + exp
}
