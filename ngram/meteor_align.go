package ngram

import "slices"

// This file ports Meteor 1.5's Aligner (edu.cmu.meteor.aligner): the four
// matching stages, the "definite" one-to-one matches, and the left-to-right
// beam search over the remaining candidate matches, with the reference's
// integer arithmetic and its bookkeeping quirks kept.

// Matching stages, in the order English Meteor runs them.
const (
	meteorExact = iota
	meteorStemStage
	meteorSynonymStage
	meteorParaphraseStage
	meteorStages
)

// meteorWord is a normalized token with everything the stages compare.
type meteorWord struct {
	key      int32 // String.hashCode of the word
	stemKey  int32 // String.hashCode of its Snowball stem
	syn      []int32
	synMask  uint64 // bit id%64 set for each synset id: a quick disjointness test
	function bool
	para     int32 // paraphrase vocabulary id, -1 if none
}

// meteorMatch is one candidate match: ref words [start, start+length) with
// test words [matchStart, matchStart+matchLength).
type meteorMatch struct {
	start, length, matchStart, matchLength int
	module                                 int
}

// meteorPath is a PartialAlignment of the beam search.
type meteorPath struct {
	matches                     []int32 // per ref position: index into the match list, -1 if none
	used1, used2                []bool
	matches1, matches2          int
	allMatches1, allMatches2    int
	matchCount, chunks          int
	idx, lastMatchEnd, distance int
	seq                         int    // position before sorting (stability)
	key                         uint64 // packed sort key (meteorSortPaths)

	// A pending path is a candidate extension whose arrays are not yet
	// copied: parent's arrays plus match pendMatch at ref position pendAt.
	// Most candidates fall outside the beam, so only survivors are copied.
	pending   bool
	parent    *meteorPath
	pendMatch int32
	pendAt    int
}

// meteorAlignment is the result the scorer needs from an alignment.
type meteorAlignment struct {
	content1, content2, function1, function2 [meteorStages]int
	fn1, fn2                                 int
	chunks                                   int
}

// meteorAligner holds the scratch state of one alignment at a time.
type meteorAligner struct {
	para        *meteorParaphraser
	beam        int
	list        []meteorMatch
	at          [][]int32 // match indices per ref start position
	cover1      []int
	cover2      []int
	pool        []*meteorPath
	paths, next []*meteorPath
	pars        []int32
	line1       []int32
	line2       []int32
}

func (al *meteorAligner) addMatch(m meteorMatch) {
	al.at[m.start] = append(al.at[m.start], int32(len(al.list)))
	al.list = append(al.list, m)
	for k := 0; k < m.matchLength; k++ {
		al.cover1[m.matchStart+k]++
	}
	for k := 0; k < m.length; k++ {
		al.cover2[m.start+k]++
	}
}

// align aligns test (line 1) with ref (line 2) as Aligner.align does.
func (al *meteorAligner) align(test, ref []*meteorWord) meteorAlignment {
	n1, n2 := len(test), len(ref)
	al.list = al.list[:0]
	if cap(al.at) < n2 {
		al.at = make([][]int32, n2)
	}
	al.at = al.at[:n2]
	for j := range al.at {
		al.at[j] = al.at[j][:0]
	}
	al.cover1 = meteorZeroInts(al.cover1, n1)
	al.cover2 = meteorZeroInts(al.cover2, n2)

	// Identical sentences (by word keys) need only exact matches, which
	// "prevents beam search errors".
	stages := meteorStages
	if al.para == nil {
		stages = meteorParaphraseStage
	}
	if n1 == n2 {
		same := true
		for i := range test {
			if test[i].key != ref[i].key {
				same = false
				break
			}
		}
		if same {
			stages = 1
		}
	}
	for stage := 0; stage < stages; stage++ {
		switch stage {
		case meteorExact:
			for j, r := range ref {
				for i, t := range test {
					if t.key == r.key {
						al.addMatch(meteorMatch{j, 1, i, 1, stage})
					}
				}
			}
		case meteorStemStage:
			for j, r := range ref {
				for i, t := range test {
					if t.stemKey == r.stemKey && t.key != r.key {
						al.addMatch(meteorMatch{j, 1, i, 1, stage})
					}
				}
			}
		case meteorSynonymStage:
			for j, r := range ref {
				if len(r.syn) == 0 {
					continue
				}
				for i, t := range test {
					if t.synMask&r.synMask != 0 && t.key != r.key && meteorSharesSynset(t.syn, r.syn) {
						al.addMatch(meteorMatch{j, 1, i, 1, stage})
					}
				}
			}
		case meteorParaphraseStage:
			al.paraphraseStage(test, ref, stage)
		}
	}

	// One-to-one, non-overlapping matches are definite.
	start := al.newPath(n1, n2)
	for j := 0; j < n2; j++ {
		if len(al.at[j]) != 1 {
			continue
		}
		mi := al.at[j][0]
		m := al.list[mi]
		overlap := false
		for k := 0; k < m.length; k++ {
			if al.cover2[j+k] != 1 {
				overlap = true
			}
		}
		for k := 0; k < m.matchLength; k++ {
			if al.cover1[m.matchStart+k] != 1 {
				overlap = true
			}
		}
		if !overlap {
			start.matches[j] = mi
			for k := 0; k < m.length; k++ {
				start.used2[j+k] = true
			}
			for k := 0; k < m.matchLength; k++ {
				start.used1[m.matchStart+k] = true
			}
		}
	}

	best := al.resolve(start, n2)

	var a meteorAlignment
	for i := range test {
		if test[i].function {
			a.fn1++
		}
	}
	for j := range ref {
		if ref[j].function {
			a.fn2++
		}
	}
	for _, mi := range best.matches {
		if mi < 0 {
			continue
		}
		m := al.list[mi]
		for k := 0; k < m.matchLength; k++ {
			if test[m.matchStart+k].function {
				a.function1[m.module]++
			} else {
				a.content1[m.module]++
			}
		}
		for k := 0; k < m.length; k++ {
			if ref[m.start+k].function {
				a.function2[m.module]++
			} else {
				a.content2[m.module]++
			}
		}
	}
	a.chunks = al.countChunks(best.matches)
	al.release(best)
	return a
}

// paraphraseStage is ParaphraseMatcher.match: phrases of the reference found
// (as paraphrases) in the test, then phrases of the test found in the
// reference.
func (al *meteorAligner) paraphraseStage(test, ref []*meteorWord, stage int) {
	p := al.para
	line1 := al.line1[:0]
	for _, t := range test {
		line1 = append(line1, t.para)
	}
	line2 := al.line2[:0]
	for _, r := range ref {
		line2 = append(line2, r.para)
	}
	al.line1, al.line2 = line1, line2
	for j := range line2 {
		al.pars = p.paths(line2, j, al.pars[:0])
		for x := 0; x < len(al.pars); x += 2 {
			length := int(al.pars[x])
			words := p.paraphrases[al.pars[x+1]]
			for i := range line1 {
				if meteorPhraseAt(line1, i, words) {
					al.addMatch(meteorMatch{j, length, i, len(words), stage})
				}
			}
		}
	}
	for i := range line1 {
		al.pars = p.paths(line1, i, al.pars[:0])
		for x := 0; x < len(al.pars); x += 2 {
			length := int(al.pars[x])
			words := p.paraphrases[al.pars[x+1]]
			for j := range line2 {
				if meteorPhraseAt(line2, j, words) {
					al.addMatch(meteorMatch{j, len(words), i, length, stage})
				}
			}
		}
	}
}

func meteorPhraseAt(line []int32, at int, words []int32) bool {
	if at+len(words) > len(line) {
		return false
	}
	for k, w := range words {
		if line[at+k] != w {
			return false
		}
	}
	return true
}

// resolve is Aligner.resolve, the beam search over ref positions.
func (al *meteorAligner) resolve(start *meteorPath, n2 int) *meteorPath {
	next := append(al.next[:0], start)
	paths := al.paths[:0]
	for current := 0; current <= n2; current++ {
		paths, next = next, paths[:0]
		meteorSortPaths(paths, al.beam)
		// Copy the arrays of the surviving candidates, then recycle the rest
		// (a parent's arrays are read before it can be recycled).
		keep := min(al.beam, len(paths))
		for _, path := range paths[:keep] {
			al.materialize(path)
		}
		for _, path := range paths[keep:] {
			al.release(path)
		}
		paths = paths[:keep]
		var dropped []*meteorPath
		for _, path := range paths {
			// Path is complete: close the last chunk.
			if current == n2 {
				if path.lastMatchEnd != -1 {
					path.chunks++
				}
				next = append(next, path)
				continue
			}
			// Current ref word is in use.
			if path.used2[current] {
				if current < path.idx {
					next = append(next, path)
				} else if path.idx < n2 && path.matches[path.idx] >= 0 {
					// A definite match: count it as the search reaches it.
					m := al.list[path.matches[path.idx]]
					path.matchCount++
					path.matches1 = meteorJavaIntAdd(path.matches1, m.matchLength, m.module)
					path.matches2 = meteorJavaIntAdd(path.matches2, m.length, m.module)
					path.allMatches1 += m.matchLength
					path.allMatches2 += m.length
					if path.lastMatchEnd != -1 && m.matchStart != path.lastMatchEnd {
						path.chunks++
					}
					path.idx = m.start + m.length
					path.lastMatchEnd = m.matchStart + m.matchLength
					path.distance += meteorAbs(m.start - m.matchStart)
					next = append(next, path)
				} else {
					dropped = append(dropped, path)
				}
				continue
			}
			// Each candidate match starting here opens a new path.
			for _, mi := range al.at[current] {
				m := al.list[mi]
				if path.isUsed(&m) {
					continue
				}
				np := al.pendingChild(path, mi, current)
				np.matchCount++
				np.matches1 = meteorJavaIntAdd(np.matches1, m.matchLength, m.module)
				np.matches2 = meteorJavaIntAdd(np.matches2, m.length, m.module)
				np.allMatches1 += m.matchLength
				np.allMatches2 += m.length
				if np.lastMatchEnd != -1 && m.matchStart != np.lastMatchEnd {
					np.chunks++
				}
				np.idx = m.start + m.length
				np.lastMatchEnd = m.matchStart + m.matchLength
				// Matches the reference implementation, which adds the
				// distance to the path being extended (later candidates and
				// the skip path inherit it), not to the new path.
				path.distance += meteorAbs(m.start - m.matchStart)
				next = append(next, np)
			}
			// Or skip this ref word.
			if path.lastMatchEnd != -1 {
				path.chunks++
				path.lastMatchEnd = -1
			}
			path.idx++
			next = append(next, path)
		}
		if len(next) == 0 && len(paths) > 0 {
			// "unexpected conditions": continue with the best path.
			next = append(next, paths[0])
			dropped = slices.DeleteFunc(dropped, func(p *meteorPath) bool { return p == paths[0] })
		}
		for _, p := range dropped {
			al.release(p)
		}
	}
	meteorSortPaths(next, 1)
	best := next[0]
	al.materialize(best)
	for _, p := range next[1:] {
		al.release(p)
	}
	al.paths, al.next = paths[:0], next[:0]
	return best
}

// meteorJavaIntAdd is Java's "int += int * double" (PartialAlignment.matches1
// and matches2 are ints): the weighted sum is truncated toward zero at every
// step. Matches the reference implementation, in which a single stem,
// synonym or paraphrase word (weight 0.5) therefore adds nothing.
// The search weights are those MeteorScorer sets for evaluation: 1.0 for
// exact matches and 0.5 for the other stages.
func meteorJavaIntAdd(acc, n, module int) int {
	w := 0.5
	if module == meteorExact {
		w = 1.0
	}
	return int(float64(acc) + float64(float64(n)*w))
}

// meteorSortPaths orders paths as Collections.sort(paths,
// PARTIAL_COMPARE_TOTAL) does, for the first k positions: a stable sort, done
// with the original position as the last key. Only the k best are needed in
// order (the beam); the rest follow in no particular order.
func meteorSortPaths(paths []*meteorPath, k int) {
	if len(paths) < 2 {
		return
	}
	// Pack the comparator's three keys into one integer when they fit.
	const field = 1<<21 - 1
	packed := true
	for i, p := range paths {
		p.seq = i
		total := p.matches1 + p.matches2
		if total < 0 || total > field || p.chunks < 0 || p.chunks > field || p.distance < 0 || p.distance > field {
			packed = false
			continue
		}
		p.key = uint64(field-total)<<42 | uint64(p.chunks)<<21 | uint64(p.distance)
	}
	less := func(x, y *meteorPath) int {
		if x.key != y.key {
			if x.key < y.key {
				return -1
			}
			return 1
		}
		return x.seq - y.seq
	}
	if !packed {
		less = func(x, y *meteorPath) int {
			if c := meteorComparePaths(x, y); c != 0 {
				return c
			}
			return x.seq - y.seq
		}
	}
	if len(paths) <= 4*k {
		slices.SortFunc(paths, less)
		return
	}
	// Selection: keep the k best seen so far, sorted, in paths[:k]; swap
	// each better path in from the tail.
	slices.SortFunc(paths[:k], less)
	for i := k; i < len(paths); i++ {
		p := paths[i]
		if less(p, paths[k-1]) >= 0 {
			continue
		}
		j, _ := slices.BinarySearchFunc(paths[:k], p, less)
		worst := paths[k-1]
		copy(paths[j+1:k], paths[j:k-1])
		paths[j] = p
		paths[i] = worst
	}
}

// meteorComparePaths is Constants.PARTIAL_COMPARE_TOTAL: more weighted matches
// first, then fewer chunks, then smaller distance.
func meteorComparePaths(x, y *meteorPath) int {
	d := (y.matches1 + y.matches2) - (x.matches1 + x.matches2)
	if d > 0 {
		return 1
	}
	if d < 0 {
		return -1
	}
	if c := x.chunks - y.chunks; c != 0 {
		return c
	}
	return x.distance - y.distance
}

// countChunks is Aligner.getCountAndChunks (chunks only).
func (al *meteorAligner) countChunks(matches []int32) int {
	chunks := 0
	lastMatchEnd := -1
	for idx := 0; idx < len(matches); {
		mi := matches[idx]
		if mi < 0 {
			if lastMatchEnd != -1 {
				chunks++
				lastMatchEnd = -1
			}
			idx++
			continue
		}
		m := al.list[mi]
		if lastMatchEnd != -1 && m.matchStart != lastMatchEnd {
			chunks++
		}
		next := m.start + m.length
		if next <= idx {
			next = idx + 1 // zero-length matches cannot stall the scan
		}
		idx = next
		lastMatchEnd = m.matchStart + m.matchLength
	}
	if lastMatchEnd != -1 {
		chunks++
	}
	return chunks
}

func (p *meteorPath) isUsed(m *meteorMatch) bool {
	for k := 0; k < m.length; k++ {
		if p.used2[m.start+k] {
			return true
		}
	}
	for k := 0; k < m.matchLength; k++ {
		if p.used1[m.matchStart+k] {
			return true
		}
	}
	return false
}

func (p *meteorPath) setUsed(m *meteorMatch) {
	for k := 0; k < m.length; k++ {
		p.used2[m.start+k] = true
	}
	for k := 0; k < m.matchLength; k++ {
		p.used1[m.matchStart+k] = true
	}
}

// newPath returns a fresh start path for n1 test and n2 ref words.
func (al *meteorAligner) newPath(n1, n2 int) *meteorPath {
	p := al.get(n1, n2)
	for i := range p.matches {
		p.matches[i] = -1
	}
	clear(p.used1)
	clear(p.used2)
	p.matches1, p.matches2, p.allMatches1, p.allMatches2 = 0, 0, 0, 0
	p.matchCount, p.chunks, p.idx, p.distance = 0, 0, 0, 0
	p.lastMatchEnd = -1
	return p
}

// pendingChild returns a new path extending parent with match mi at ref
// position at, with parent's counters copied and its arrays not yet.
func (al *meteorAligner) pendingChild(parent *meteorPath, mi int32, at int) *meteorPath {
	p := al.get(len(parent.used1), len(parent.used2))
	p.matches1, p.matches2 = parent.matches1, parent.matches2
	p.allMatches1, p.allMatches2 = parent.allMatches1, parent.allMatches2
	p.matchCount, p.chunks = parent.matchCount, parent.chunks
	p.idx, p.lastMatchEnd, p.distance = parent.idx, parent.lastMatchEnd, parent.distance
	p.pending, p.parent, p.pendMatch, p.pendAt = true, parent, mi, at
	return p
}

// materialize copies a pending path's arrays from its parent and applies its
// match (PartialAlignment's copy constructor, setUsed and matches[i] = m).
func (al *meteorAligner) materialize(p *meteorPath) {
	if !p.pending {
		return
	}
	src := p.parent
	copy(p.matches, src.matches)
	copy(p.used1, src.used1)
	copy(p.used2, src.used2)
	m := al.list[p.pendMatch]
	p.setUsed(&m)
	p.matches[p.pendAt] = p.pendMatch
	p.pending, p.parent = false, nil
}

func (al *meteorAligner) get(n1, n2 int) *meteorPath {
	var p *meteorPath
	if k := len(al.pool); k > 0 {
		p = al.pool[k-1]
		al.pool = al.pool[:k-1]
	} else {
		p = &meteorPath{}
	}
	if cap(p.matches) < n2 {
		p.matches = make([]int32, n2)
		p.used2 = make([]bool, n2)
	}
	if cap(p.used1) < n1 {
		p.used1 = make([]bool, n1)
	}
	p.matches, p.used2, p.used1 = p.matches[:n2], p.used2[:n2], p.used1[:n1]
	p.pending, p.parent = false, nil
	return p
}

func (al *meteorAligner) release(p *meteorPath) { al.pool = append(al.pool, p) }

func meteorZeroInts(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	s = s[:n]
	clear(s)
	return s
}

func meteorAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
