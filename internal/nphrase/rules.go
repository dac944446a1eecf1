package nphrase

import "github.com/storyeval/storyeval/internal/pyunicode"

// The tag classes of the chunk grammar (Penn Treebank tags as NLTK's tagger
// gives them).

func isNoun(tag string) bool {
	return tag == "NN" || tag == "NNS" || tag == "NNP" || tag == "NNPS"
}

// isModifier: adjectives, participles and numbers, which spaCy attaches to
// the following noun as amod / nummod.
func isModifier(tag string) bool {
	switch tag {
	case "JJ", "JJR", "JJS", "VBN", "VBG", "CD":
		return true
	}
	return false
}

func isDeterminer(tag string) bool {
	return tag == "DT" || tag == "PRP$" || tag == "WP$"
}

// degreeAdverbs modify an adjective inside a noun phrase ("a very close
// game", "so many flowers"); other adverbs attach to the verb.
var degreeAdverbs = map[string]bool{
	"very": true, "so": true, "too": true, "really": true, "quite": true,
	"extremely": true, "pretty": true, "most": true, "more": true, "less": true,
	"least": true, "rather": true, "fairly": true, "super": true, "incredibly": true,
	"absolutely": true, "totally": true, "slightly": true, "highly": true, "truly": true,
}

// demonstratives stand alone as pronouns ("this is the church").
var demonstratives = map[string]bool{"this": true, "that": true, "these": true, "those": true}

// relativePronouns are chunked when they stand for a noun ("sculptures that
// one could touch").
var relativePronouns = map[string]bool{"who": true, "whom": true, "that": true, "which": true}

// temporalHeads and temporalDeterminers recognise adverbial time phrases
// ("yesterday", "this morning", "one day"), which spaCy parses as npadvmod
// and leaves out of noun_chunks.
var (
	temporalAlone = map[string]bool{"today": true, "tonight": true, "yesterday": true, "tomorrow": true}
	temporalHeads = map[string]bool{
		"morning": true, "afternoon": true, "evening": true, "night": true, "day": true,
		"week": true, "weekend": true, "month": true, "year": true, "summer": true,
		"winter": true, "spring": true, "time": true, "moment": true,
	}
	temporalDeterminers = map[string]bool{
		"this": true, "that": true, "next": true, "last": true, "every": true,
		"one": true, "each": true, "all": true,
	}
)

// chunkSpans returns the token ranges [lo, hi) of the chunks of one tagged
// sentence, left to right, non-overlapping.
func chunkSpans(toks, tags []string) [][2]int {
	n := len(toks)
	low := make([]string, n)
	for i, t := range toks {
		low[i] = pyunicode.Lower(t)
	}
	// Lower-case "i" (VIST's texts are lower-cased) is often mis-tagged
	// (VB, NN, JJ) by a tagger trained on cased text; it is the pronoun
	// unless it is part of a name ("World War I").
	var fixed []string
	for i := range tags {
		if toks[i] == "i" && tags[i] != "PRP" && tags[i] != "NNP" {
			if fixed == nil {
				fixed = append([]string(nil), tags...)
			}
			fixed[i] = "PRP"
		}
	}
	if fixed != nil {
		tags = fixed
	}
	var out [][2]int
	for i := 0; i < n; {
		if end := nounPhraseEnd(low, tags, i); end > i {
			if !adverbialTime(low, tags, i, end) {
				out = append(out, [2]int{i, end})
			}
			// a phrase ends at its last noun, so a noun right after it is
			// one that verbHead read as a verb: skip it
			for i = end; i < n && isNoun(tags[i]); i++ {
			}
			continue
		}
		if pronounAt(low, tags, i) {
			out = append(out, [2]int{i, i + 1})
		}
		i++
	}
	return out
}

// pronounAt reports a one-word pronoun chunk at i.
func pronounAt(low, tags []string, i int) bool {
	switch tags[i] {
	case "PRP":
		return true
	case "WP":
		return low[i] == "who" || low[i] == "whom"
	case "IN":
		// "sculptures that one could touch": a "that" right after a noun
		// and before the relative clause's subject is the clause's object
		// (a pronoun to spaCy), not a complementizer
		if low[i] != "that" || i == 0 || i+1 >= len(tags) || !isNoun(tags[i-1]) {
			return false
		}
		switch tags[i+1] {
		case "PRP", "DT", "CD", "PRP$", "NN", "NNS", "NNP", "NNPS":
			return true
		}
		return false
	case "WDT", "DT":
		next := ""
		if i+1 < len(tags) {
			next = tags[i+1]
		}
		if isNoun(next) || isModifier(next) || next == "RB" && i+2 < len(tags) && isModifier(tags[i+2]) {
			return false
		}
		if tags[i] == "WDT" {
			return relativePronouns[low[i]]
		}
		return demonstratives[low[i]]
	}
	return false
}

// nounPhraseEnd returns the end of the noun phrase starting at i, or i when
// none starts there. Shape: PDT? (DT | PRP$)? then a run of premodifiers and
// nouns ("'s" between nouns continues it) whose last noun is the head.
func nounPhraseEnd(low, tags []string, i int) int {
	n := len(tags)
	j := i
	if j < n && tags[j] == "PDT" {
		j++
	}
	hasDet := false
	if j < n && isDeterminer(tags[j]) {
		j++
		hasDet = true
	}
	bodyStart := j
	lastNoun := -1
	lastVBG := -1
	for j < n {
		t := tags[j]
		switch {
		case isNoun(t):
			lastNoun = j
		case t == "VBG" || t == "VBN":
			// a participle opens a phrase only after a determiner or another
			// premodifier ("the running water"), not as the verb of a clause
			// ("watching fireworks")
			if j == bodyStart && !hasDet && !(t == "VBN" && j+1 < n && isNoun(tags[j+1])) {
				return endAt(i, lastNoun)
			}
			if t == "VBG" {
				lastVBG = j
			}
		case isModifier(t):
		case t == "RB" && degreeAdverbs[low[j]]:
			if !modifierFollows(low, tags, j) {
				return endAt(i, lastNoun)
			}
		case t == "POS" && lastNoun == j-1:
		default:
			return verbHead(tags, i, headEnd(i, hasDet, lastNoun, lastVBG, j))
		}
		j++
	}
	return verbHead(tags, i, headEnd(i, hasDet, lastNoun, lastVBG, j))
}

// verbHead drops a phrase-final noun that the next tokens show to be a verb
// the tagger read as a noun: one followed by a particle ("the biggest turn
// out") or a plural after another noun followed by "to" + verb ("some yard
// maintenance needs to get done").
func verbHead(tags []string, i, end int) int {
	if end <= i || !isNoun(tags[end-1]) {
		return end
	}
	next := func(k int) string {
		if end+k < len(tags) {
			return tags[end+k]
		}
		return ""
	}
	verb := next(0) == "RP" ||
		tags[end-1] == "NNS" && end-2 >= i && isNoun(tags[end-2]) && next(0) == "TO" && next(1) == "VB"
	if !verb {
		return end
	}
	for k := end - 2; k >= i; k-- {
		if isNoun(tags[k]) {
			return k + 1
		}
	}
	return i
}

// headEnd closes a phrase at its last noun; a determiner followed by a
// gerund with no noun ("the grilling") takes the gerund as head, as spaCy
// tags it NOUN there.
func headEnd(i int, hasDet bool, lastNoun, lastVBG, stop int) int {
	if lastNoun >= 0 {
		return lastNoun + 1
	}
	if hasDet && lastVBG == stop-1 {
		return stop
	}
	return i
}

func endAt(i, lastNoun int) int {
	if lastNoun >= 0 {
		return lastNoun + 1
	}
	return i
}

// modifierFollows reports whether the degree adverbs at j lead to an
// adjective or number.
func modifierFollows(low, tags []string, j int) bool {
	for k := j; k < len(tags); k++ {
		if tags[k] == "RB" && degreeAdverbs[low[k]] {
			continue
		}
		return tags[k] == "JJ" || tags[k] == "JJR" || tags[k] == "JJS" || tags[k] == "CD"
	}
	return false
}

// adverbialTime reports a time phrase used as an adverb: a bare "today" /
// "yesterday" or a temporal determiner plus a time noun, not governed by a
// preposition and not the subject of the following verb.
func adverbialTime(low, tags []string, lo, hi int) bool {
	if lo > 0 && (tags[lo-1] == "IN" || tags[lo-1] == "TO") {
		return false
	}
	if hi < len(tags) && (len(tags[hi]) >= 2 && tags[hi][:2] == "VB" || tags[hi] == "MD") {
		return false
	}
	if hi-lo == 1 {
		return temporalAlone[low[lo]]
	}
	return hi-lo == 2 && temporalDeterminers[low[lo]] && temporalHeads[low[hi-1]]
}
