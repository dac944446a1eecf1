package postag

// template is one of NLTK's feature templates (PerceptronTagger._get_features).
// The constants are in the order NLTK inserts the features into its dict,
// which is the order their weights are added to the scores.
type template int

const (
	tmplBias        template = iota // "bias"
	tmplSuffix                      // "i suffix" + last 3 characters of the token
	tmplPref1                       // "i pref1" + first character of the token
	tmplPrevTag                     // "i-1 tag" + previous tag
	tmplPrev2Tag                    // "i-2 tag" + tag before that
	tmplTagPair                     // "i tag+i-2 tag" + previous tag + tag before that
	tmplWord                        // "i word" + normalised token
	tmplPrevTagWord                 // "i-1 tag+i word" + previous tag + normalised token
	tmplPrevWord                    // "i-1 word"
	tmplPrevSuffix                  // "i-1 suffix"
	tmplPrev2Word                   // "i-2 word"
	tmplNextWord                    // "i+1 word"
	tmplNextSuffix                  // "i+1 suffix"
	tmplNext2Word                   // "i+2 word"
	numTemplates
)

// templateNames are the feature-name prefixes, indexed by template. A feature
// string is the name and its arguments joined by single spaces. No name
// followed by a space is a prefix of another name followed by a space, so a
// feature string splits into (template, arguments) in exactly one way.
var templateNames = [numTemplates]string{
	"bias", "i suffix", "i pref1", "i-1 tag", "i-2 tag", "i tag+i-2 tag",
	"i word", "i-1 tag+i word", "i-1 word", "i-1 suffix", "i-2 word",
	"i+1 word", "i+1 suffix", "i+2 word",
}

// Context padding: NLTK's PerceptronTagger.START and END. START doubles as
// the "previous tags" of the first token.
const (
	start1 = "-START-"
	start2 = "-START2-"
	end1   = "-END-"
	end2   = "-END2-"
)

// splitFeature returns the template and argument string of an NLTK feature
// key, or ok=false for a key no template produces.
func splitFeature(key string) (t template, args string, ok bool) {
	if key == templateNames[tmplBias] {
		return tmplBias, "", true
	}
	for t := tmplSuffix; t < numTemplates; t++ {
		name := templateNames[t]
		if len(key) > len(name) && key[:len(name)] == name && key[len(name)] == ' ' {
			return t, key[len(name)+1:], true
		}
	}
	return 0, "", false
}
