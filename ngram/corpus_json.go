package ngram

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/limits"
)

// defaultMaxCorpusBytes bounds a corpus file LoadCorpus accepts when its
// limits.Limits leave MaxBytes zero.
const defaultMaxCorpusBytes = 1 << 30

// ParseCorpus parses the JSON corpus format
//
//	{"cands": {id: candidate}, "refs": {id: [reference, ...]}}
//
// and validates it as NewCorpus does. Items keep the order of "cands" in
// the file (json.load keeps it too, so the toolkit's dicts iterate the same
// way). Unknown top-level keys, a repeated id, nulls, non-string captions
// and trailing data are errors, so nothing is dropped silently. Strings are
// decoded as encoding/json decodes them (invalid UTF-8 becomes U+FFFD).
func ParseCorpus(data []byte) (*Corpus, error) {
	return decodeCorpus(string(data))
}

// decodeCorpus is ParseCorpus on a string: the captions and ids are
// substrings of data, which saves an allocation per string (a visible share
// of reading a corpus) and holds the text in one block of the file's size.
func decodeCorpus(data string) (*Corpus, error) {
	d := corpusScanner{data: data}
	ids, cands, refs, err := d.decode()
	if err != nil {
		return nil, fmt.Errorf("corpus JSON: %w", err)
	}
	return NewCorpusInOrder(ids, cands, refs)
}

// corpusScanner reads the corpus JSON in one pass over the bytes: it keeps
// the members' order, sees repeated keys that a map would merge, and
// returns strings without escapes as substrings of the input
// (encoding/json's token API allocates per token, a visible share of
// scoring a corpus).
type corpusScanner struct {
	data string
	pos  int
}

func (d *corpusScanner) decode() (ids []string, cands map[string]string, refs map[string][]string, err error) {
	d.skipSpace()
	if d.pos == len(d.data) {
		return nil, nil, nil, errors.New(`the input is empty; want {"cands": {...}, "refs": {...}}`)
	}
	if d.data[d.pos] != '{' {
		return nil, nil, nil, fmt.Errorf(`want an object {"cands": {...}, "refs": {...}}, got %s`, d.describe())
	}
	err = d.object("the corpus", func(key string) error {
		switch key {
		case "cands":
			if cands != nil {
				return errors.New(`"cands" appears twice`)
			}
			cands = map[string]string{}
			return d.object(`"cands"`, func(id string) error {
				if _, dup := cands[id]; dup {
					return fmt.Errorf("candidate id %q appears twice", id)
				}
				s, err := d.str()
				if err != nil {
					return fmt.Errorf("candidate %q: %w", id, err)
				}
				ids = append(ids, id)
				cands[id] = s
				return nil
			})
		case "refs":
			if refs != nil {
				return errors.New(`"refs" appears twice`)
			}
			refs = map[string][]string{}
			return d.object(`"refs"`, func(id string) error {
				if _, dup := refs[id]; dup {
					return fmt.Errorf("reference id %q appears twice", id)
				}
				rs, err := d.strList()
				if err != nil {
					return fmt.Errorf("references of %q: %w", id, err)
				}
				refs[id] = rs
				return nil
			})
		}
		return fmt.Errorf(`unknown member %q (want "cands" and "refs")`, key)
	})
	if err != nil {
		return nil, nil, nil, err
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, nil, nil, fmt.Errorf("trailing data after the object at byte %d", d.pos)
	}
	if cands == nil {
		return nil, nil, nil, errors.New(`missing "cands"`)
	}
	if refs == nil {
		return nil, nil, nil, errors.New(`missing "refs"`)
	}
	return ids, cands, refs, nil
}

func (d *corpusScanner) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// describe names the JSON value starting at the current position, for
// error messages.
func (d *corpusScanner) describe() string {
	if d.pos >= len(d.data) {
		return "the end of the input"
	}
	switch c := d.data[d.pos]; {
	case c == 'n':
		return "null"
	case c == '{':
		return "an object"
	case c == '[':
		return "a list"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	default:
		return fmt.Sprintf("%q at byte %d", c, d.pos)
	}
}

// object reads a JSON object, calling member with each key when the
// position is at the member's value.
func (d *corpusScanner) object(what string, member func(key string) error) error {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '{' {
		return fmt.Errorf("%s: want an object, got %s", what, d.describe())
	}
	d.pos++
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return nil
	}
	for {
		d.skipSpace()
		key, err := d.str()
		if err != nil {
			return fmt.Errorf("%s: member name: %w", what, err)
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return fmt.Errorf("%s: want ':' after %q at byte %d", what, key, d.pos)
		}
		d.pos++
		if err := member(key); err != nil {
			return err
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return fmt.Errorf("%s: unterminated object", what)
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return nil
		default:
			return fmt.Errorf("%s: want ',' or '}' at byte %d, got %s", what, d.pos, d.describe())
		}
	}
}

// str reads a JSON string. Strings without escapes, control characters or
// invalid UTF-8 are returned as they are; the rest go through
// encoding/json, so the result is always what json.Unmarshal would give.
func (d *corpusScanner) str() (string, error) {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		return "", fmt.Errorf("want a string, got %s", d.describe())
	}
	start := d.pos
	plain := true
	i := start + 1
	for ; i < len(d.data); i++ {
		c := d.data[i]
		if c == '"' {
			break
		}
		if c == '\\' {
			plain = false
			i++ // skip the escaped byte; a \" does not end the string
			continue
		}
		if c < 0x20 || c >= utf8.RuneSelf {
			plain = false
		}
	}
	if i >= len(d.data) {
		return "", fmt.Errorf("unterminated string at byte %d", start)
	}
	d.pos = i + 1
	raw := d.data[start+1 : i]
	if plain || (utf8.ValidString(raw) && !hasControlOrEscape(raw)) {
		return raw, nil
	}
	var s string
	if err := json.Unmarshal([]byte(d.data[start:i+1]), &s); err != nil {
		return "", fmt.Errorf("string at byte %d: %w", start, err)
	}
	return s, nil
}

func hasControlOrEscape(s string) bool {
	for _, c := range []byte(s) {
		if c < 0x20 || c == '\\' {
			return true
		}
	}
	return false
}

func (d *corpusScanner) strList() ([]string, error) {
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != '[' {
		return nil, fmt.Errorf("want a list of strings, got %s", d.describe())
	}
	d.pos++
	out := []string{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return out, nil
	}
	for {
		s, err := d.str()
		if err != nil {
			return nil, fmt.Errorf("reference %d: %w", len(out), err)
		}
		out = append(out, s)
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, errors.New("unterminated list")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case ']':
			d.pos++
			return out, nil
		default:
			return nil, fmt.Errorf("want ',' or ']' at byte %d, got %s", d.pos, d.describe())
		}
	}
}

// LoadCorpus reads and decodes a corpus file (see ParseCorpus); l bounds
// it (MaxBytes 0: 1 GiB), and a larger file fails with a
// *limits.TooLargeError. Errors name the file. The file is read
// into one string, sized from the file's length where it has one, which
// the corpus's strings then share.
func LoadCorpus(path string, l limits.Limits) (*Corpus, error) {
	maxBytes := l.Bytes(defaultMaxCorpusBytes)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b strings.Builder
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() <= maxBytes {
		b.Grow(int(st.Size()) + 1) // +1: the read that sees the end
	}
	if _, err := io.Copy(&b, io.LimitReader(f, maxBytes+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(b.Len()) > maxBytes {
		return nil, &limits.TooLargeError{Name: path, Limit: maxBytes}
	}
	c, err := decodeCorpus(b.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
