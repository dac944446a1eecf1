package tokenize

import (
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// spmSpace is sentencepiece's whitespace symbol U+2581 "▁".
const spmSpace = "\u2581"

// spmNormalizer is sentencepiece's Normalizer: longest-match rewriting with
// the model's precompiled character map (a darts-clone double-array trie
// over UTF-8 bytes plus a blob of NUL-terminated replacements), user-defined
// symbols kept verbatim, white space collapsed, a dummy "▁" prefix, and
// spaces escaped as "▁".
type spmNormalizer struct {
	units        []uint32 // double-array trie; nil for the identity normaliser
	replacements []byte
	userDefined  map[string]bool
	maxUserLen   int
	userFirst    [256]bool // first bytes of the user-defined symbols

	addDummyPrefix        bool
	removeExtraWhitespace bool
	escapeWhitespace      bool
}

// newSPMNormalizer decodes the precompiled charsmap "<trie size: uint32
// LE><trie units><replacements>" as sentencepiece's
// DecodePrecompiledCharsMap.
func newSPMNormalizer(m *spmModel) (*spmNormalizer, error) {
	n := &spmNormalizer{
		userDefined:           map[string]bool{},
		addDummyPrefix:        m.addDummyPrefix,
		removeExtraWhitespace: m.removeExtraWhitespace,
		escapeWhitespace:      m.escapeWhitespace,
	}
	for _, p := range m.pieces {
		if p.typ == pieceUserDefined && p.text != "" {
			n.userDefined[p.text] = true
			n.userFirst[p.text[0]] = true
			n.maxUserLen = max(n.maxUserLen, len(p.text))
		}
	}
	if m.hasNormalizationRules && len(m.charsmap) == 0 {
		return nil, fmt.Errorf("normalizer %q: normalization_rule_tsv without a precompiled charsmap is not supported", m.normName)
	}
	if len(m.charsmap) == 0 {
		return n, nil
	}
	blob := m.charsmap
	if len(blob) < 4 {
		return nil, fmt.Errorf("normalizer %q: charsmap of %d bytes", m.normName, len(blob))
	}
	size := binary.LittleEndian.Uint32(blob)
	if uint64(size) >= uint64(len(blob)-4) || size%4 != 0 || size == 0 {
		return nil, fmt.Errorf("normalizer %q: trie size %d does not fit the %d-byte charsmap", m.normName, size, len(blob))
	}
	n.units = make([]uint32, size/4)
	for i := range n.units {
		n.units[i] = binary.LittleEndian.Uint32(blob[4+4*i:])
	}
	n.replacements = blob[4+size:]
	return n, nil
}

// Darts-clone unit fields.
func dartsHasLeaf(u uint32) bool  { return (u>>8)&1 == 1 }
func dartsValue(u uint32) uint32  { return u & (1<<31 - 1) }
func dartsLabel(u uint32) uint32  { return u & (1<<31 | 0xFF) }
func dartsOffset(u uint32) uint32 { return (u >> 10) << ((u & (1 << 9)) >> 6) }

// longestRule returns the length and replacement offset of the longest rule
// that is a prefix of key, as darts' commonPrefixSearch keeping its first 32
// results (sentencepiece's kMaxTrieResultsSize).
func (n *spmNormalizer) longestRule(key string) (length int, value uint32) {
	const maxResults = 32
	units := n.units
	pos := dartsOffset(units[0])
	found := 0
	for i := 0; i < len(key); i++ {
		pos ^= uint32(key[i])
		if pos >= uint32(len(units)) {
			return
		}
		u := units[pos]
		if dartsLabel(u) != uint32(key[i]) {
			return
		}
		pos ^= dartsOffset(u)
		if dartsHasLeaf(u) {
			if pos >= uint32(len(units)) {
				return
			}
			if found < maxResults {
				length, value = i+1, dartsValue(units[pos])
			}
			found++
		}
	}
	return
}

// replacement returns the NUL-terminated replacement at off.
func (n *spmNormalizer) replacement(off uint32) string {
	if off >= uint32(len(n.replacements)) {
		return ""
	}
	r := n.replacements[off:]
	if i := strings.IndexByte(string(r), 0); i >= 0 {
		r = r[:i]
	}
	return string(r)
}

// prefix normalizes the start of input: it returns the normalized text and
// the number of input bytes consumed (sentencepiece's NormalizePrefix).
func (n *spmNormalizer) prefix(input string) (string, int) {
	if n.userFirst[input[0]] {
		for l := min(n.maxUserLen, len(input)); l > 0; l-- {
			if n.userDefined[input[:l]] {
				return input[:l], l
			}
		}
	}
	if n.units != nil {
		if l, v := n.longestRule(input); l > 0 {
			return n.replacement(v), l
		}
	}
	r, size := utf8.DecodeRuneInString(input)
	if r == utf8.RuneError && size <= 1 {
		// A malformed byte becomes U+FFFD.
		return "\uFFFD", 1
	}
	return input[:size], size
}

// normalize is sentencepiece's Normalizer::Normalize (whitespace not treated
// as a suffix).
func (n *spmNormalizer) normalize(input string) string {
	if n.removeExtraWhitespace {
		for input != "" {
			s, used := n.prefix(input)
			if s != " " {
				break
			}
			input = input[used:]
		}
	}
	if input == "" {
		return ""
	}
	space := " "
	if n.escapeWhitespace {
		space = spmSpace
	}
	var b strings.Builder
	b.Grow(len(input) * 3 / 2)
	if n.addDummyPrefix {
		b.WriteString(space)
	}
	prevSpace := n.removeExtraWhitespace
	for input != "" {
		s, used := n.prefix(input)
		input = input[used:]
		for prevSpace && strings.HasPrefix(s, " ") {
			s = s[1:]
		}
		if s != "" {
			if n.escapeWhitespace {
				b.WriteString(strings.ReplaceAll(s, " ", spmSpace))
			} else {
				b.WriteString(s)
			}
			prevSpace = strings.HasSuffix(s, " ")
		}
		if !n.removeExtraWhitespace {
			prevSpace = false
		}
	}
	out := b.String()
	if n.removeExtraWhitespace {
		for strings.HasSuffix(out, space) {
			out = out[:len(out)-len(space)]
		}
	}
	return out
}
