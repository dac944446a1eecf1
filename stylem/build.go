package stylem

import (
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
}

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
	if !o.Formula.valid() {
		return nil, fmt.Errorf("stylem: unknown CNG formula %d", int(o.Formula))
	}
	if !o.ECDF.valid() {
		return nil, fmt.Errorf("stylem: unknown ECDF kind %d", int(o.ECDF))
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
		return nil, err
	}

	t := &Table{
		styleIdx: map[string]int{},
		vocab:    newVocabulary(),
		children: map[uint64]uint32{},
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
				return nil, fmt.Errorf("stylem: more than %d styles", maxStyles)
			}
			t.styleIdx[records[i].Style] = s
			t.styles = append(t.styles, records[i].Style)
		}
		recStyle[i] = uint16(s)
	}
	if len(t.styles) < 2 {
		return nil, fmt.Errorf("stylem: the corpus has 1 style (%q); contrastive scores need at least 2", t.styles[0])
	}

	groups := groupCaptions(records, o.KeepAllCaptions)
	occ := t.countGroups(groups, recStyle, o.Step)
	t.fillEntries(occ)
	t.computeCNG()
	return t, nil
}

// groupCaptions returns, for every record, the raw captions of its group.
func groupCaptions(records []Record, keepAll bool) [][]string {
	groups := make([][]string, len(records))
	if keepAll {
		for i := range records {
			groups[i] = records[i].Captions
		}
		return groups
	}
	last := map[string]int{}
	for i := range records {
		last[records[i].groupKey()] = i
	}
	for i := range records {
		src := &records[last[records[i].groupKey()]]
		// The slots all hold the last caption; duplicates change no set, so one copy suffices.
		groups[i] = src.Captions[len(src.Captions)-1:]
	}
	return groups
}

// occurrence records that n-gram ngram occurs in a group of style style.
type occurrence struct {
	ngram uint32
	style uint16
}

// countGroups tokenizes every group, interns its distinct n-grams and
// returns one occurrence per (group, distinct n-gram).
func (t *Table) countGroups(groups [][]string, recStyle []uint16, step PTBStep) []occurrence {
	var (
		occ      []occurrence
		ids      []uint32
		lastSeen []int32 // lastSeen[n-gram] = 1 + index of the last group it was counted in
	)
	for gi, captions := range groups {
		for _, c := range captions {
			toks := Tokenize(c, step)
			if skipCaption(toks) {
				continue
			}
			ids = ids[:0]
			for _, tok := range toks {
				ids = append(ids, t.vocab.intern(tok))
			}
			for i := range ids {
				var p uint32 // parent id + 1
				for n := 1; n <= maxOrder && i+n <= len(ids); n++ {
					ni, _ := t.addChild(p, ids[i+n-1])
					p = ni + 1
					if int(ni) == len(lastSeen) {
						lastSeen = append(lastSeen, 0)
					}
					if lastSeen[ni] == int32(gi+1) {
						continue
					}
					lastSeen[ni] = int32(gi + 1)
					occ = append(occ, occurrence{ngram: ni, style: recStyle[gi]})
				}
			}
		}
	}
	return occ
}

// skipCaption reports whether the reference drops a tokenized caption:
// `if ("[" in txt) and len(txt)==3: continue`, checked before <eos> is added.
func skipCaption(toks []string) bool {
	words := toks[:len(toks)-1] // without EOS
	return len(words) == 3 && slices.Contains(words, "[")
}

// fillEntries turns occurrences into per-n-gram (style, df) entries sorted
// by style (a counting sort by n-gram, then run lengths per style).
func (t *Table) fillEntries(occ []occurrence) {
	n := len(t.order)
	t.off = make([]uint32, n+1)
	for _, o := range occ {
		t.off[o.ngram+1]++
	}
	for i := 0; i < n; i++ {
		t.off[i+1] += t.off[i]
	}
	sorted := make([]uint16, len(occ))
	next := slices.Clone(t.off[:n])
	for _, o := range occ {
		sorted[next[o.ngram]] = o.style
		next[o.ngram]++
	}
	// Compact each n-gram's run into distinct styles with counts.
	t.entStyle = make([]uint16, 0, len(occ)/2)
	t.entDF = make([]uint32, 0, len(occ)/2)
	newOff := make([]uint32, n+1)
	for i := 0; i < n; i++ {
		run := sorted[t.off[i]:t.off[i+1]]
		slices.Sort(run)
		for j := 0; j < len(run); {
			k := j
			for k < len(run) && run[k] == run[j] {
				k++
			}
			t.entStyle = append(t.entStyle, run[j])
			t.entDF = append(t.entDF, uint32(k-j))
			j = k
		}
		newOff[i+1] = uint32(len(t.entStyle))
	}
	t.off = newOff
	t.entStyle = slices.Clip(t.entStyle)
	t.entDF = slices.Clip(t.entDF)
}

// computeCNG builds the ECDF of every style and order and fills entCNG.
func (t *Table) computeCNG() {
	nS := len(t.styles)
	// dfs[s][n-1] lists the df values of style s's n-grams of order n.
	dfs := make([][maxOrder][]uint32, nS)
	for i, o := range t.order {
		n := int(o)
		for e := t.off[i]; e < t.off[i+1]; e++ {
			s := t.entStyle[e]
			dfs[s][n-1] = append(dfs[s][n-1], t.entDF[e])
		}
	}
	ecdfs := make([][maxOrder]ecdfTable, nS)
	for s := range dfs {
		for n := range dfs[s] {
			ecdfs[s][n] = newECDF(dfs[s][n], t.ecdf)
			dfs[s][n] = nil
		}
	}
	t.entCNG = make([]float64, len(t.entStyle))
	sc := &cngScratch{terms: make([]float64, nS), alone: map[float64]float64{}}
	var vals []float64
	for i, o := range t.order {
		n := int(o)
		lo, hi := t.off[i], t.off[i+1]
		styles := t.entStyle[lo:hi]
		vals = vals[:0]
		for e := lo; e < hi; e++ {
			vals = append(vals, ecdfs[t.entStyle[e]][n-1].at(t.entDF[e]))
		}
		for p := range styles {
			t.entCNG[int(lo)+p] = sc.contrast(t.formula, styles, vals, p, nS)
		}
	}
}
