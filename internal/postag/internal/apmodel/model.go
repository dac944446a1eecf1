package apmodel

// Model is a decoded averaged-perceptron model.
type Model struct {
	// Classes are the tags, in ascending byte order.
	Classes []string
	// TagDict maps a word (as it appears in the text, case-sensitive) to the
	// index in Classes of its only tag.
	TagDict map[string]uint8
	// Features are the weighted features, with distinct keys, in the order
	// the encoding groups them (see the package documentation).
	Features []Feature
}

// Feature is one feature string with its non-zero weights.
type Feature struct {
	// Key is NLTK's feature string, e.g. "i suffix ing".
	Key string
	// Classes are indices into Model.Classes, strictly ascending.
	Classes []uint8
	// Milli are the weights in thousandths, parallel to Classes.
	Milli []int32
}

// magic starts every encoded model, so that a wrong file is refused at once.
const magic = "NLTKAP\x02"

// wordTemplates and tagWordTemplate name NLTK's feature templates whose
// arguments are context words (PerceptronTagger._get_features); the format
// stores those words once, in a shared vocabulary. The tagger itself does
// not depend on this grouping.
var wordTemplates = [...]string{"i word", "i-1 word", "i-2 word", "i+1 word", "i+2 word"}

const tagWordTemplate = "i-1 tag+i word"
