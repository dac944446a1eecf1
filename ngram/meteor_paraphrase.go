package ngram

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/storyeval/storyeval/internal/gzipbound"
)

// meteorParaphraser is Meteor's ParaphraseTransducer: a trie over reference
// phrases (as vocabulary ids) whose nodes list the paraphrases they emit. The
// trie is stored flat: node 0 is the root, edges map (node, word) to a child.
type meteorParaphraser struct {
	vocab       map[string]int32
	edges       map[uint64]int32
	emits       [][]int32 // per node: indices into paraphrases
	paraphrases [][]int32
}

// DefaultMeteorParaphraseLimit is the default cap (4 GiB) on the decompressed
// size of a paraphrase table read by NewMeteor; larger input is an error.
const DefaultMeteorParaphraseLimit = 4 << 30

// loadMeteorParaphrases reads a paraphrase table in the format of Meteor's
// paraphrase-en.gz: gzipped, three lines per entry (a probability, which the
// reference ignores, the reference phrase and its paraphrase, both
// space-separated tokens). At most limit decompressed bytes are read.
func loadMeteorParaphrases(path string, limit int64) (*meteorParaphraser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("meteor: paraphrase table: %w", err)
	}
	defer f.Close()
	p, err := readMeteorParaphrases(f, limit)
	if err != nil {
		return nil, fmt.Errorf("meteor: paraphrase table %s: %w", path, err)
	}
	return p, nil
}

// readMeteorParaphrases parses a gzipped paraphrase table from r.
func readMeteorParaphrases(r io.Reader, limit int64) (*meteorParaphraser, error) {
	// A ratio bound on top of the size limit stops a small file of
	// compressed zeros after a few megabytes.
	zr, err := gzipbound.NewReader(r, gzipbound.Options{Slack: 1 << 20})
	if err != nil {
		return nil, fmt.Errorf("not a gzip file: %w", err)
	}
	lr := &io.LimitedReader{R: zr, N: limit + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	sc.Split(meteorScanLines)
	p := &meteorParaphraser{vocab: map[string]int32{}, edges: map[uint64]int32{}, emits: make([][]int32, 1)}
	var toks []string
	line := 0
	next := func() (string, bool) {
		if !sc.Scan() {
			return "", false
		}
		line++
		return sc.Text(), true
	}
	for {
		if _, ok := next(); !ok {
			break
		}
		ref, ok1 := next()
		par, ok2 := next()
		if !ok1 || !ok2 {
			if err := sc.Err(); err != nil || lr.N <= 0 {
				return nil, meteorParaErr(err, lr, limit)
			}
			return nil, fmt.Errorf("line %d: entry cut short (want probability, phrase and paraphrase lines)", line)
		}
		toks = meteorJavaTokens(ref, toks[:0])
		refIDs := make([]int32, len(toks))
		for i, t := range toks {
			refIDs[i] = p.id(t)
		}
		toks = meteorJavaTokens(par, toks[:0])
		parIDs := make([]int32, len(toks))
		for i, t := range toks {
			parIDs[i] = p.id(t)
		}
		if len(refIDs) == 0 || len(parIDs) == 0 {
			return nil, fmt.Errorf("line %d: empty phrase", line)
		}
		p.add(refIDs, int32(len(p.paraphrases)))
		p.paraphrases = append(p.paraphrases, parIDs)
	}
	if err := sc.Err(); err != nil || lr.N <= 0 {
		return nil, meteorParaErr(err, lr, limit)
	}
	return p, nil
}

// meteorParaErr reports a read error, or the size limit when it was hit.
func meteorParaErr(err error, lr *io.LimitedReader, limit int64) error {
	if lr.N <= 0 {
		return fmt.Errorf("decompressed size exceeds the limit of %d bytes", limit)
	}
	return err
}

// id maps a token to its vocabulary id, assigning ids in order of first use.
func (p *meteorParaphraser) id(tok string) int32 {
	if v, ok := p.vocab[tok]; ok {
		return v
	}
	v := int32(len(p.vocab))
	p.vocab[tok] = v
	return v
}

// translate is ParaphraseTransducer.translate: the word's id, or -1.
func (p *meteorParaphraser) translate(word string) int32 {
	if v, ok := p.vocab[word]; ok {
		return v
	}
	return -1
}

func meteorEdge(node int32, word int32) uint64 {
	return uint64(uint32(node))<<32 | uint64(uint32(word))
}

func (p *meteorParaphraser) add(words []int32, emit int32) {
	n := int32(0)
	for _, w := range words {
		c, ok := p.edges[meteorEdge(n, w)]
		if !ok {
			c = int32(len(p.emits))
			p.emits = append(p.emits, nil)
			p.edges[meteorEdge(n, w)] = c
		}
		n = c
	}
	p.emits[n] = append(p.emits[n], emit)
}

// paths is getReferencePaths: for the phrases of words starting at start,
// pairs (phrase length, paraphrase index) in trie order, appended to dst.
func (p *meteorParaphraser) paths(words []int32, start int, dst []int32) []int32 {
	n := int32(0)
	for i := 0; i < len(words)-start; i++ {
		c, ok := p.edges[meteorEdge(n, words[start+i])]
		if !ok {
			break
		}
		n = c
		for _, e := range p.emits[n] {
			dst = append(dst, int32(i+1), e)
		}
	}
	return dst
}

// meteorScanLines is a bufio.SplitFunc with java.io.BufferedReader.readLine's
// line ends (\n, \r\n, \r).
func meteorScanLines(data []byte, atEOF bool) (advance int, token []byte, err error) {
	for i, b := range data {
		if b == '\n' {
			return i + 1, data[:i], nil
		}
		if b == '\r' {
			if i+1 < len(data) {
				if data[i+1] == '\n' {
					return i + 2, data[:i], nil
				}
				return i + 1, data[:i], nil
			}
			if atEOF {
				return i + 1, data[:i], nil
			}
			return 0, nil, nil // need one more byte to see a possible \n
		}
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
