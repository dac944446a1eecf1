package ngram

import "strings"

// The synonym stage (SynonymMatcher, SynonymDictionary): two different words
// match when the union of each word's own synsets and its base forms' synsets
// share a synset. Base forms come from english.exceptions when the word is
// listed there, and from WordNet's morphological suffix rules otherwise.

// meteorMorphSuffixes and meteorMorphEndings are WordNet 3's detachment rules
// (nouns, verbs, adjectives) in the reference's order.
var (
	meteorMorphSuffixes = [20]string{
		"s", "ses", "xes", "zes", "ches", "shes", "men", "ies",
		"s", "ies", "es", "es", "ed", "ed", "ing", "ing",
		"er", "est", "er", "est",
	}
	meteorMorphEndings = [20]string{
		"", "s", "x", "z", "ch", "sh", "man", "y",
		"", "y", "e", "", "e", "", "e", "",
		"", "", "e", "e",
	}
)

// morph is SynonymDictionary.morph: the first rule whose result is a word
// with synsets, the word itself when it ends in "ss" or is at most two UTF-16
// units long, and "" otherwise.
func (res *meteorResources) morph(word string) string {
	if strings.HasSuffix(word, "ss") || meteorUTF16Len(word) <= 2 {
		return word
	}
	for i, suf := range meteorMorphSuffixes {
		if strings.HasSuffix(word, suf) {
			cand := word[:len(word)-len(suf)] + meteorMorphEndings[i]
			if _, ok := res.synsets[cand]; ok {
				// The reference appends "ful" for words ending in "ful", but no
				// suffix above ends in "l", so that branch never applies.
				return cand
			}
		}
	}
	return ""
}

// synonymSets returns the sorted synset numbers the synonym stage compares
// for word: getSynSets(word) ∪ getStemSynSets(word).
func (res *meteorResources) synonymSets(word string) []int32 {
	own := res.synsets[word]
	var stem []int32
	if bases, ok := res.bases[word]; ok {
		for _, b := range bases {
			stem = append(stem, res.synsets[b]...)
		}
	} else {
		stem = res.synsets[res.morph(word)]
	}
	if len(stem) == 0 {
		return own
	}
	if len(own) == 0 && len(res.bases[word]) <= 1 {
		return stem
	}
	out := make([]int32, 0, len(own)+len(stem))
	out = append(out, own...)
	out = append(out, stem...)
	meteorSortUnique(&out)
	return out
}

// meteorSharesSynset reports whether the sorted sets a and b intersect.
func meteorSharesSynset(a, b []int32) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			return true
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return false
}

func meteorUTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
