package ngram

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/storyeval/storyeval/internal/parallel"
)

// MeteorOptions configures NewMeteor. The zero value is the COCO
// caption toolkit's configuration (-l en -norm, task rank) without a
// paraphrase table; MeteorVISTOptions is the AREL/MSR VIST scripts'.
type MeteorOptions struct {
	// Task is the jar's -t parameter set; "" is rank.
	Task MeteorTask

	// Normalization is how text is prepared: the zero value is -norm.
	Normalization MeteorNormalization

	// ParaphraseTable is the path of a Meteor paraphrase table in the format
	// of Meteor 1.5's data/paraphrase-en.gz (gzipped; per entry a probability
	// line, a phrase line and a paraphrase line). Empty: no paraphrase stage.
	// Without the table, scores sit below the COCO toolkit's published
	// values whenever a paraphrase would have matched.
	ParaphraseTable string

	// ParaphraseLimit caps the decompressed bytes read from ParaphraseTable;
	// 0 means DefaultMeteorParaphraseLimit.
	ParaphraseLimit int64

	// BeamSize is the alignment beam width; 0 means the reference's 40.
	BeamSize int
}

// Meteor scores candidates with METEOR 1.5. By default it runs as the COCO
// caption toolkit runs it (meteor-1.5.jar -l en -norm -stdio): text is
// normalized (mteval-style punctuation tokenization with English
// non-breaking prefixes, then lower case), aligned to each reference in the
// stages exact, stem (Snowball English), synonym (WordNet synsets) and, when
// a table is given, paraphrase, and scored with the rank task's alpha 0.85,
// beta 0.2, gamma 0.6, delta 0.75 and stage weights 1.0/0.6/0.8/0.6.
// MeteorOptions selects the jar's other task parameter sets (-t) and
// normalizations (none, -lower, -norm -noPunct); MeteorVISTOptions with
// CorpusScoresVIST is the VIST evaluation scripts' METEOR. A Meteor is safe
// for concurrent use.
//
// Without a paraphrase table (the default, as the table is not shipped here)
// scores sit below the COCO toolkit's published values, which were computed
// with data/paraphrase-en.gz, whenever a paraphrase would have matched.
//
// Matches the reference implementation, which compares words and stems by
// Java's String.hashCode, so distinct words with equal hashes match exactly.
// Matches the reference implementation, which keeps the beam search's weighted
// match counts in integers, so a single stem, synonym or paraphrase word
// (search weight 0.5) adds nothing to a path's rank.
// Matches the reference implementation, whose normalizer splits only the
// first of two commas sharing a letter ("a,b,c" gives "a , b,c") and turns
// the literal text DOTMULTI into ".".
type Meteor struct {
	params  meteorParams
	norm    MeteorNormalization
	res     *meteorResources
	para    *meteorParaphraser
	beam    int
	scratch sync.Pool
}

// NewMeteor returns a scorer. The embedded English resources are parsed on
// first use (once per process); a paraphrase table, if named, is read now.
func NewMeteor(opts MeteorOptions) (*Meteor, error) {
	if opts.BeamSize < 0 {
		return nil, fmt.Errorf("meteor: BeamSize %d is negative", opts.BeamSize)
	}
	if opts.ParaphraseLimit < 0 {
		return nil, fmt.Errorf("meteor: ParaphraseLimit %d is negative", opts.ParaphraseLimit)
	}
	params, err := opts.Task.params()
	if err != nil {
		return nil, err
	}
	if opts.Normalization < MeteorNormalize || opts.Normalization > MeteorNormalizeNoPunct {
		return nil, fmt.Errorf("meteor: unknown normalization %d", opts.Normalization)
	}
	res, err := loadMeteorResources()
	if err != nil {
		return nil, err
	}
	m := &Meteor{params: params, norm: opts.Normalization, res: res, beam: opts.BeamSize}
	if m.beam == 0 {
		m.beam = 40
	}
	if opts.ParaphraseTable != "" {
		limit := opts.ParaphraseLimit
		if limit == 0 {
			limit = DefaultMeteorParaphraseLimit
		}
		if m.para, err = loadMeteorParaphrases(opts.ParaphraseTable, limit); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// meteorScratch is the per-goroutine state of a scorer: buffers and a cache
// of analysed words.
type meteorScratch struct {
	norm  meteorNormalizer
	al    meteorAligner
	words map[string]*meteorWord
	lines map[string][]*meteorWord
	toks  []string
	test  []*meteorWord
	ref   []*meteorWord
}

func (m *Meteor) getScratch() *meteorScratch {
	if sc, ok := m.scratch.Get().(*meteorScratch); ok {
		return sc
	}
	return &meteorScratch{
		norm:  meteorNormalizer{prefixes: m.res.prefixes, noPunct: m.norm == MeteorNormalizeNoPunct},
		al:    meteorAligner{para: m.para, beam: m.beam},
		words: map[string]*meteorWord{},
		lines: map[string][]*meteorWord{},
	}
}

// Bounds of a scratch's caches: a corpus of mostly distinct lines and
// words would otherwise keep a copy of itself per worker. The word cache
// holds a large vocabulary (262,144 words, about 40 MB): analysing a word
// (stem, synonym sets) costs far more than looking it up.
const (
	meteorWordCache = 1 << 18
	meteorLineCache = 1 << 14
)

func (m *Meteor) putScratch(sc *meteorScratch) {
	m.scratch.Put(sc)
}

// word returns the analysed form of a normalized token.
func (m *Meteor) word(sc *meteorScratch, tok string) *meteorWord {
	if w, ok := sc.words[tok]; ok {
		return w
	}
	w := &meteorWord{
		key:      meteorJavaHash(tok),
		stemKey:  meteorJavaHash(meteorStem(tok)),
		syn:      m.res.synonymSets(tok),
		function: m.res.functionWords[meteorJavaLower(tok)],
		para:     -1,
	}
	for _, id := range w.syn {
		w.synMask |= 1 << (uint32(id) % 64)
	}
	if m.para != nil {
		w.para = m.para.translate(tok)
	}
	if len(sc.words) >= meteorWordCache {
		clear(sc.words) // bounded within a corpus too, not only between calls
	}
	sc.words[strings.Clone(tok)] = w
	return w
}

// prepare is MeteorScorer's normalization and lower-casing of a line.
func (m *Meteor) prepare(sc *meteorScratch, line string) string {
	switch m.norm {
	case MeteorNoNormalize:
		return strings.ToValidUTF8(line, "\uFFFD")
	case MeteorLowerCase:
		return meteorJavaLower(strings.ToValidUTF8(line, "\uFFFD"))
	}
	return sc.norm.normalize(line)
}

// analyse normalizes line and returns its words, appended to dst.
func (m *Meteor) analyse(sc *meteorScratch, line string, dst []*meteorWord) []*meteorWord {
	if ws, ok := sc.lines[line]; ok {
		return append(dst, ws...)
	}
	sc.toks = meteorJavaTokens(m.prepare(sc, line), sc.toks[:0])
	start := len(dst)
	for _, t := range sc.toks {
		dst = append(dst, m.word(sc, t))
	}
	if len(sc.lines) >= meteorLineCache {
		clear(sc.lines)
	}
	sc.lines[strings.Clone(line)] = slices.Clone(dst[start:])
	return dst
}

// Score returns the statistics and score of cand against its references,
// those of the best-scoring reference (MeteorScorer.getMeteorStats). Matches
// the reference implementation, which keeps the first reference on ties.
func (m *Meteor) Score(cand string, refs []string) (MeteorStats, error) {
	if len(refs) == 0 {
		return MeteorStats{}, errors.New("meteor: no references")
	}
	sc := m.getScratch()
	defer m.putScratch(sc)
	return m.score(sc, cand, refs), nil
}

func (m *Meteor) score(sc *meteorScratch, cand string, refs []string) MeteorStats {
	sc.test = m.analyse(sc, cand, sc.test[:0])
	best := MeteorStats{Score: -1}
	for _, ref := range refs {
		sc.ref = m.analyse(sc, ref, sc.ref[:0])
		a := sc.al.align(sc.test, sc.ref)
		s := meteorStatsOf(a, len(sc.test), len(sc.ref))
		m.params.compute(&s)
		if s.Score > best.Score {
			best = s
		}
	}
	return best
}

// meteorStatsOf is MeteorScorer.getMeteorStats(Alignment) for word counts.
func meteorStatsOf(a meteorAlignment, n1, n2 int) MeteorStats {
	s := MeteorStats{
		TestLength:             float64(n1),
		ReferenceLength:        float64(n2),
		TestFunctionWords:      float64(a.fn1),
		ReferenceFunctionWords: float64(a.fn2),
		Chunks:                 float64(a.chunks),
	}
	for i := 0; i < meteorStages; i++ {
		s.TestStageMatchesContent[i] = float64(a.content1[i])
		s.ReferenceStageMatchesContent[i] = float64(a.content2[i])
		s.TestStageMatchesFunction[i] = float64(a.function1[i])
		s.ReferenceStageMatchesFunction[i] = float64(a.function2[i])
		s.TestTotalMatches += float64(a.content1[i]) + float64(a.function1[i])
		s.ReferenceTotalMatches += float64(a.content2[i]) + float64(a.function2[i])
	}
	s.TestWordMatches = s.TestTotalMatches
	s.ReferenceWordMatches = s.ReferenceTotalMatches
	return s
}

// ComputeScore fills the computed fields of s (precision, recall, F1, fMean,
// fragmentation penalty, score) from its counts, as the jar's EVAL command
// does; use it on statistics summed with MeteorStats.Add.
func (m *Meteor) ComputeScore(s *MeteorStats) { m.params.compute(s) }

// Corpus scores every candidate against its references and returns the
// corpus score (the score of the summed statistics) and the per-item scores,
// as pycocoevalcap's Meteor.compute_score does. cands and refs must have the
// same keys and every item at least one reference.
//
// Matches the reference implementation, whose wrapper removes "|||" from the
// candidate and then replaces each double space with one, and whose line
// protocol splits a reference containing "|||" into several references.
// Line breaks, which would break that protocol, are read as spaces.
func (m *Meteor) Corpus(cands map[string]string, refs map[string][]string) (corpus float64, items map[string]float64, err error) {
	ids := make([]string, 0, len(cands))
	for id := range cands {
		if len(refs[id]) == 0 {
			if _, ok := refs[id]; !ok {
				return 0, nil, fmt.Errorf("meteor: candidate %q has no entry in refs", id)
			}
			return 0, nil, fmt.Errorf("meteor: candidate %q has no references", id)
		}
		ids = append(ids, id)
	}
	for id := range refs {
		if _, ok := cands[id]; !ok {
			return 0, nil, fmt.Errorf("meteor: reference id %q has no candidate", id)
		}
	}
	if len(ids) == 0 {
		return 0, nil, errors.New("meteor: empty corpus")
	}
	slices.Sort(ids)
	stats := m.itemStats(len(ids), func(i int) (string, []string) { return cands[ids[i]], refs[ids[i]] })
	items = make(map[string]float64, len(ids))
	var total MeteorStats
	for i, id := range ids {
		items[id] = stats[i].Score
		total.Add(stats[i])
	}
	m.params.compute(&total)
	return total.Score, items, nil
}

// CorpusScores is Corpus on a Corpus: items are scored in corpus order and
// their statistics summed in that order, without copying the corpus into
// maps.
func (m *Meteor) CorpusScores(c *Corpus) (Scores, error) {
	stats := m.itemStats(len(c.ids), func(i int) (string, []string) { return c.cands[c.ids[i]], c.refs[c.ids[i]] })
	out := Scores{Items: make(map[string]float64, len(c.ids))}
	var total MeteorStats
	for i, id := range c.ids {
		out.Items[id] = stats[i].Score
		total.Add(stats[i])
	}
	m.params.compute(&total)
	out.Corpus = total.Score
	return out, nil
}

// itemStats scores items [0, n) in parallel; item(i) gives the candidate
// and references of item i.
func (m *Meteor) itemStats(n int, item func(i int) (string, []string)) []MeteorStats {
	stats := make([]MeteorStats, n)
	parallel.Chunks(n, 16, func(_, lo, hi int) {
		sc := m.getScratch()
		defer m.putScratch(sc)
		var rs []string
		for i := lo; i < hi; i++ {
			cand, refs := item(i)
			rs = meteorCocoRefs(refs, rs[:0])
			stats[i] = m.score(sc, meteorCocoHypothesis(cand), rs)
		}
	})
	return stats
}

// meteorCocoHypothesis is what pycocoevalcap's Meteor._stat sends as the
// hypothesis: "|||" removed, then double spaces replaced by single ones; the
// jar trims it.
func meteorCocoHypothesis(h string) string {
	h = meteorOneLine(h)
	h = strings.ReplaceAll(h, "|||", "")
	return meteorJavaTrim(strings.ReplaceAll(h, "  ", " "))
}

// meteorCocoRefs is how the jar's -stdio SCORE command reads the references
// of the line the wrapper sends: split at "|||", each part trimmed.
func meteorCocoRefs(refs []string, dst []string) []string {
	for _, r := range refs {
		r = meteorOneLine(r)
		for {
			part, rest, found := strings.Cut(r, "|||")
			dst = append(dst, meteorJavaTrim(part))
			if !found {
				break
			}
			r = rest
		}
	}
	return dst
}

func meteorOneLine(s string) string {
	if strings.ContainsAny(s, "\r\n") {
		s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(s)
	}
	return s
}
