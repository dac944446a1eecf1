package stylem

import (
	"errors"
	"fmt"
	"slices"
)

// BuildOptions configures Build. The zero value reproduces the reference.
type BuildOptions struct {
	// Step is the tokenization run after RETOK splitting; nil means PTB.
	Step PTBStep
	// StepName names Step in the table ("ptb" when Step is nil, else
	// "custom" when empty), so that scoring can use the same tokenization.
	StepName string
	// Formula is the CNG formula; the default is the reference code's.
	Formula CNGFormula
	// ECDF is the ECDF kind; the default is ECDFCountRatio (the
	// arithmetic of the golden fixture made with chengxili/preStyleM).
	ECDF ECDFKind
	// KeepAllCaptions counts every caption of every record, each record a
	// group of its own captions. By default Build matches the reference
	// implementation, which keys captions by image + "_" + style, keeps for
	// each key only the last record with that key, and gives that record's
	// last caption to every one of its caption slots (build_dict reuses one
	// dict per record); every record with the key then counts that caption
	// as its group.
	KeepAllCaptions bool
	// MaxNgrams bounds the number of distinct n-grams (all orders, all
	// styles) of the table; 0 means DefaultMaxNgrams. The table holds
	// about 40 bytes per distinct n-gram and Build about 70 at its peak
	// (measured on a synthetic corpus), so the bound is a bound on its
	// memory: a corpus with more n-grams, or with more than twice as many
	// (n-gram, style) entries, is an ErrTooManyNgrams error, not an
	// out-of-memory crash. WriteBuild, whose memory does not grow with the
	// n-grams, reads 0 as no bound and a bound as one on the table only.
	MaxNgrams int
}

// DefaultMaxNgrams is BuildOptions.MaxNgrams's default: 16 million
// distinct n-grams, a table of about 0.65 GB in memory that builds well
// within a 4 GB address space (PERSONALITY-CAPTIONS' training split has a few
// million).
const DefaultMaxNgrams = 16_000_000

// ErrTooManyNgrams is returned (wrapped) by Build when the corpus has more
// distinct n-grams than BuildOptions.MaxNgrams.
var ErrTooManyNgrams = errors.New("too many distinct n-grams")

// Build counts document frequencies per style and computes the CNG table
// from records (the CNG of the StyleM paper, as chengxili/preStyleM
// computes it). Styles are ordered by first appearance. At least
// two styles are needed: with one, the reference computes no contrastive
// score at all, and Build returns an error instead of an empty table.
//
// Matches the reference implementation, which skips a tokenized caption of
// exactly three tokens one of which is "[" (its guard against "[DISCONNECT]"
// style markers). Where a style has no n-gram of some order (all its
// captions too short), the reference raises KeyError on its missing ECDF;
// Build gives every n-gram of that order ECDF 0 under that style instead.
func Build(records []Record, o BuildOptions) (*Table, error) {
	t, recStyle, err := newBuildTable(records, &o)
	if err != nil {
		return nil, err
	}
	groups := uniqueGroups(records, recStyle, o.KeepAllCaptions)
	maxNgrams := o.MaxNgrams
	if maxNgrams <= 0 {
		maxNgrams = DefaultMaxNgrams
	}
	toks, err := t.internGroups(records, groups, o.KeepAllCaptions, o.Step, maxNgrams)
	if err != nil {
		return nil, err
	}
	if err := t.countEntries(groups, toks, 2*maxNgrams); err != nil {
		return nil, err
	}
	t.computeCNG()
	return t, nil
}

// newBuildTable checks o and records, fills in o's defaults and returns
// an empty table with the styles (in order of first appearance) and the
// style index of every record.
func newBuildTable(records []Record, o *BuildOptions) (*Table, []uint16, error) {
	if !o.Formula.valid() {
		return nil, nil, fmt.Errorf("unknown CNG formula %d", int(o.Formula))
	}
	if !o.ECDF.valid() {
		return nil, nil, fmt.Errorf("unknown ECDF kind %d", int(o.ECDF))
	}
	if o.StepName == "" {
		o.StepName = "custom"
		if o.Step == nil {
			o.StepName = "ptb"
		}
	}
	if o.Step == nil {
		o.Step = PTB
	}
	if err := validateRecords(records); err != nil {
		return nil, nil, err
	}
	t := &Table{
		styleIdx: map[string]int{},
		vocab:    newVocabulary(),
		formula:  o.Formula,
		ecdf:     o.ECDF,
		step:     o.StepName,
	}
	recStyle := make([]uint16, len(records))
	for i := range records {
		s, ok := t.styleIdx[records[i].Style]
		if !ok {
			s = len(t.styles)
			if s >= maxStyles {
				return nil, nil, fmt.Errorf("more than %d styles", maxStyles)
			}
			t.styleIdx[records[i].Style] = s
			t.styles = append(t.styles, records[i].Style)
		}
		recStyle[i] = uint16(s)
	}
	if len(t.styles) < 2 {
		return nil, nil, fmt.Errorf("the corpus has 1 style (%q); contrastive scores need at least 2", t.styles[0])
	}
	return t, recStyle, nil
}

// Build's memory. The reference counts, for every record, the distinct
// n-grams of its group of captions under the record's style. Build keeps
// no (n-gram, style) occurrence list to sort: it interns each distinct
// group's n-grams once (record order, so n-gram ids are in order of first
// appearance), keeps each distinct group's n-gram ids (4 bytes per
// occurrence, at most 4 per token), and counts document frequencies in two
// passes over the groups sorted by style, which yield each n-gram's
// (style, df) entries already in style order. Besides the records and the
// table itself (the n-gram trie and its entries), it holds those 4 bytes
// per n-gram occurrence of the distinct groups, 16 bytes per distinct
// n-gram and 16 bytes per record.

// group is a distinct group of captions: those of record src, counted
// under style, weight times (once per record whose group it is).
type group struct {
	src    int32
	style  uint16
	weight uint32
}

// uniqueGroups returns the distinct groups in order of first appearance.
// With keepAll each record is its own group. Otherwise, as the reference,
// a record's group is the last caption of the last record with its key
// (image + "_" + style); records with the same key and style share it.
func uniqueGroups(records []Record, recStyle []uint16, keepAll bool) []group {
	groups := make([]group, 0, len(records))
	if keepAll {
		for i := range records {
			groups = append(groups, group{src: int32(i), style: recStyle[i], weight: 1})
		}
		return groups
	}
	last := make(map[string]int32, len(records))
	for i := range records {
		last[records[i].groupKey()] = int32(i)
	}
	// Two keys can collide across styles ("a_b"+"c" and "a"+"b_c"): a
	// group is its source record and the style it is counted under.
	index := make(map[uint64]int32, len(last))
	for i := range records {
		src := last[records[i].groupKey()]
		k := uint64(src)<<16 | uint64(recStyle[i])
		if g, ok := index[k]; ok {
			groups[g].weight++
			continue
		}
		index[k] = int32(len(groups))
		groups = append(groups, group{src: src, style: recStyle[i], weight: 1})
	}
	return groups
}

// groupTokens holds the n-gram ids of the groups' source captions (every
// occurrence, each order at each position), in the order they were
// tokenized: caption c's are ngrams[capEnd[c-1]:capEnd[c]] (from 0 for
// c = 0), and record r's kept captions are those of spans[r] (an empty
// span for a record that is no group's source).
type groupTokens struct {
	ngrams []uint32
	capEnd []uint32
	spans  []captionSpan // by record
}

// captionSpan is a record's captions in groupTokens, [lo, hi).
type captionSpan struct{ lo, hi int32 }

// ngramsOf returns the n-gram occurrences of record r's kept captions.
func (g *groupTokens) ngramsOf(r int32) []uint32 {
	sp := g.spans[r]
	if sp.lo == sp.hi {
		return nil
	}
	lo := uint32(0)
	if sp.lo > 0 {
		lo = g.capEnd[sp.lo-1]
	}
	return g.ngrams[lo:g.capEnd[sp.hi-1]]
}

// internGroups tokenizes each group's source captions once, interns their
// n-grams in group order and returns their n-gram occurrences.
func (t *Table) internGroups(records []Record, groups []group, keepAll bool, step PTBStep, maxNgrams int) (*groupTokens, error) {
	g := &groupTokens{spans: make([]captionSpan, len(records))}
	done := make([]bool, len(records))
	var ids []uint32
	for _, gr := range groups {
		if done[gr.src] {
			continue
		}
		done[gr.src] = true
		captions := records[gr.src].Captions
		if !keepAll {
			// The slots all hold the last caption; duplicates change no
			// set, so one copy suffices.
			captions = captions[len(captions)-1:]
		}
		lo := int32(len(g.capEnd))
		for _, c := range captions {
			var ok bool
			if ids, ok = t.internCaption(ids, c, step); !ok {
				continue
			}
			for i := range ids {
				var p uint32 // parent id + 1
				for n := 1; n <= maxOrder && i+n <= len(ids); n++ {
					ni, _ := t.addChild(p, ids[i+n-1])
					p = ni + 1
					g.ngrams = append(g.ngrams, ni)
				}
			}
			g.capEnd = append(g.capEnd, uint32(len(g.ngrams)))
			if len(t.order) > maxNgrams {
				return nil, fmt.Errorf("%w: more than %d by record %d (image %q)", ErrTooManyNgrams, maxNgrams, gr.src, truncateForError(records[gr.src].Image))
			}
		}
		g.spans[gr.src] = captionSpan{lo, int32(len(g.capEnd))}
	}
	return g, nil
}

// truncateForError shortens user data quoted in an error to 200 bytes.
func truncateForError(s string) string {
	if len(s) <= 200 {
		return s
	}
	return s[:200] + "…"
}

// internCaption tokenizes caption c and returns the ids of its tokens
// (in ids' storage), interning new ones; ok is false, and nothing is
// interned, for a caption the reference skips.
func (t *Table) internCaption(ids []uint32, c string, step PTBStep) (_ []uint32, ok bool) {
	toks := Tokenize(c, step)
	if skipCaption(toks) {
		return ids, false
	}
	ids = ids[:0]
	for _, tok := range toks {
		ids = append(ids, t.vocab.intern(tok))
	}
	return ids, true
}

// skipCaption reports whether the reference drops a tokenized caption:
// `if ("[" in txt) and len(txt)==3: continue`, checked before <eos> is added.
func skipCaption(toks []string) bool {
	words := toks[:len(toks)-1] // without EOS
	return len(words) == 3 && slices.Contains(words, "[")
}

// countEntries fills each n-gram's (style, df) entries, sorted by style.
// The groups are visited by style (a stable counting sort), so each
// n-gram's occurrences arrive style by style: a first pass counts the
// distinct (n-gram, style) pairs, a second writes them with their df.
func (t *Table) countEntries(groups []group, toks *groupTokens, maxEntries int) error {
	nS := len(t.styles)
	byStyle := make([]int32, nS+1)
	for _, gr := range groups {
		byStyle[gr.style+1]++
	}
	for s := 0; s < nS; s++ {
		byStyle[s+1] += byStyle[s]
	}
	order := make([]int32, len(groups))
	next := slices.Clone(byStyle[:nS])
	for i, gr := range groups {
		order[next[gr.style]] = int32(i)
		next[gr.style]++
	}
	n := len(t.order)
	// lastGroup[ng] is 1 + the position in order of the last group that
	// counted n-gram ng (each group counts an n-gram once); lastStyle[ng]
	// is 1 + the style of its last entry.
	lastGroup := make([]int32, n)
	lastStyle := make([]uint32, n)
	visit := func(fn func(ng uint32, gr *group)) {
		for k, gi := range order {
			gr := &groups[gi]
			for _, ng := range toks.ngramsOf(gr.src) {
				if lastGroup[ng] != int32(k+1) {
					lastGroup[ng] = int32(k + 1)
					fn(ng, gr)
				}
			}
		}
	}
	t.off = make([]uint32, n+1)
	visit(func(ng uint32, gr *group) {
		if lastStyle[ng] != uint32(gr.style)+1 {
			lastStyle[ng] = uint32(gr.style) + 1
			t.off[ng+1]++
		}
	})
	for i := 0; i < n; i++ {
		t.off[i+1] += t.off[i]
	}
	entries := int(t.off[n])
	if entries > maxEntries {
		// Few n-grams shared by many styles: the entries, not the
		// n-grams, would take the memory.
		return fmt.Errorf("%w: %d (n-gram, style) entries, more than twice the bound of %d n-grams", ErrTooManyNgrams, entries, maxEntries/2)
	}
	t.entStyle = make([]uint16, entries)
	t.entDF = make([]uint32, entries)
	// fill[ng] is the end of n-gram ng's entries written so far.
	fill := slices.Clone(t.off[:n])
	clear(lastGroup)
	clear(lastStyle)
	visit(func(ng uint32, gr *group) {
		if lastStyle[ng] != uint32(gr.style)+1 {
			lastStyle[ng] = uint32(gr.style) + 1
			t.entStyle[fill[ng]] = gr.style
			fill[ng]++
		}
		t.entDF[fill[ng]-1] += gr.weight
	})
	return nil
}

// computeCNG builds the ECDF of every style and order and fills entCNG.
func (t *Table) computeCNG() {
	nS := len(t.styles)
	hists := make([][maxOrder]dfHistogram, nS)
	for i, o := range t.order {
		for e := t.off[i]; e < t.off[i+1]; e++ {
			hists[t.entStyle[e]][o-1].add(t.entDF[e], 1)
		}
	}
	ecdfs := ecdfTables(hists, t.ecdf)
	t.entCNG = make([]float64, len(t.entStyle))
	sc := newCNGScratch(nS)
	for i, o := range t.order {
		lo, hi := t.off[i], t.off[i+1]
		sc.ngram(t.formula, ecdfs, int(o), t.entStyle[lo:hi], t.entDF[lo:hi], t.entCNG[lo:hi])
	}
}

// ecdfTables turns the df histograms of every style and order into ECDF
// tables, dropping each histogram once it is used.
func ecdfTables(hists [][maxOrder]dfHistogram, kind ECDFKind) [][maxOrder]ecdfTable {
	ecdfs := make([][maxOrder]ecdfTable, len(hists))
	for s := range hists {
		for n := range hists[s] {
			ecdfs[s][n] = hists[s][n].ecdf(kind)
			hists[s][n] = nil
		}
	}
	return ecdfs
}
