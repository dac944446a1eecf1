package stylem

// maxOrder is the longest n-gram counted (the reference's n = 4).
const maxOrder = 4

// ngramKey is an n-gram of interned token ids (ids start at 1); unused
// positions are 0, so the order is the number of leading non-zero ids.
type ngramKey [maxOrder]uint32

// order returns n, the number of tokens in k.
func (k ngramKey) order() int {
	n := 0
	for n < maxOrder && k[n] != 0 {
		n++
	}
	return n
}

// compare orders keys by their token ids, position by position; unused
// positions (0) sort first, so an n-gram precedes its extensions.
func (k ngramKey) compare(o ngramKey) int {
	for i := range k {
		if k[i] != o[i] {
			if k[i] < o[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// vocabulary interns tokens as ids starting at 1.
type vocabulary struct {
	ids    map[string]uint32
	tokens []string // tokens[id-1]
}

func newVocabulary() *vocabulary { return &vocabulary{ids: map[string]uint32{}} }

// intern returns the id of tok, adding it if new.
func (v *vocabulary) intern(tok string) uint32 {
	if id, ok := v.ids[tok]; ok {
		return id
	}
	v.tokens = append(v.tokens, tok)
	id := uint32(len(v.tokens))
	v.ids[tok] = id
	return id
}
