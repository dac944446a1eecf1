package ngram

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
)

// meteorParaphraser is Meteor's ParaphraseTransducer: a trie over reference
// phrases (as vocabulary ids) whose nodes list the paraphrases they emit.
type meteorParaphraser struct {
	vocab       map[string]int32
	root        meteorParaNode
	paraphrases [][]int32
}

type meteorParaNode struct {
	next map[int32]*meteorParaNode
	emit []int32
}

// DefaultMeteorParaphraseLimit is the default cap on the decompressed size of
// a paraphrase table (the published paraphrase-en.gz is far smaller).
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
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip file: %w", err)
	}
	lr := &io.LimitedReader{R: zr, N: limit + 1}
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	sc.Split(meteorScanLines)
	p := &meteorParaphraser{vocab: map[string]int32{}}
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

func (p *meteorParaphraser) add(words []int32, emit int32) {
	n := &p.root
	for _, w := range words {
		c := n.next[w]
		if c == nil {
			if n.next == nil {
				n.next = map[int32]*meteorParaNode{}
			}
			c = &meteorParaNode{}
			n.next[w] = c
		}
		n = c
	}
	n.emit = append(n.emit, emit)
}

// paths is getReferencePaths: for the phrases of words starting at start,
// pairs (phrase length, paraphrase index) in trie order, appended to dst.
func (p *meteorParaphraser) paths(words []int32, start int, dst []int32) []int32 {
	n := &p.root
	for i := 0; i < len(words)-start; i++ {
		n = n.next[words[start+i]]
		if n == nil {
			break
		}
		for _, e := range n.emit {
			dst = append(dst, int32(i+1), e)
		}
	}
	return dst
}
