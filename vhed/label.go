package vhed

import (
	"fmt"
	"strconv"
	"strings"
)

// LabelSign is the sign convention of a VHED file's label column, as
// found by comparing it with the rank columns on load. The paper's text
// (§3) defines the ranking gap as story 1's average rank minus story 2's;
// the worked pairs of the official VHED workflow figure show the reverse
// (story 1 ranked 1.6, story 2 ranked 2.2: gap +0.6). The rank columns
// decide the human order either way, so Pair.Gap does not depend on
// the label's convention.
type LabelSign int

const (
	// LabelUnchecked: the file has no rank columns, so the label is
	// taken as avg_rank_base − avg_rank_comp (the paper's text) unchecked.
	LabelUnchecked LabelSign = iota
	// LabelRank1MinusRank2: on every row the label has the sign of
	// avg_rank_base − avg_rank_comp, as the paper's text defines it.
	LabelRank1MinusRank2
	// LabelRank2MinusRank1: on every row the label has the sign of
	// avg_rank_comp − avg_rank_base, as in the VHED workflow figure: the
	// file is read with the human order from its ranks.
	LabelRank2MinusRank1
	// LabelAllTies: every row has equal ranks and a zero label, so the
	// label's sign decides nothing.
	LabelAllTies
)

// String describes the convention in words.
func (s LabelSign) String() string {
	switch s {
	case LabelUnchecked:
		return "unchecked (no rank columns): label read as avg_rank_base − avg_rank_comp"
	case LabelRank1MinusRank2:
		return "avg_rank_base − avg_rank_comp (the paper's text)"
	case LabelRank2MinusRank1:
		return "avg_rank_comp − avg_rank_base (reversed, as the VHED workflow figure): human order taken from the ranks"
	case LabelAllTies:
		return "undetermined: every pair is a human tie"
	}
	return "LabelSign(" + strconv.Itoa(int(s)) + ")"
}

// vhedMaxNamedLines is how many lines an error about the label's sign
// names before it counts the rest.
const vhedMaxNamedLines = 10

// vhedLines is a count of rows with the lines of the first few.
type vhedLines struct {
	n     int
	lines []int
}

func (l *vhedLines) add(line int) {
	l.n++
	if len(l.lines) < vhedMaxNamedLines {
		l.lines = append(l.lines, line)
	}
}

func (l vhedLines) String() string {
	s := make([]string, len(l.lines))
	for i, n := range l.lines {
		s[i] = strconv.Itoa(n)
	}
	out := strings.Join(s, ", ")
	if l.n > len(l.lines) {
		out += fmt.Sprintf(" and %d more", l.n-len(l.lines))
	}
	return out
}

// vhedSignTally compares, row by row, the sign of the label with that of
// avg_rank_base − avg_rank_comp, keeping counts and a few lines of each
// kind, so that the check needs no second pass over the file.
type vhedSignTally struct {
	same, reversed, contradict vhedLines
}

func vhedSign(x float64) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func (t *vhedSignTally) add(label, rank1, rank2 float64, line int) {
	sl, sr := vhedSign(label), vhedSign(rank1-rank2)
	switch {
	case sl == 0 && sr == 0:
		// A human tie agrees with either convention.
	case sl == 0 || sr == 0:
		t.contradict.add(line)
	case sl == sr:
		t.same.add(line)
	default:
		t.reversed.add(line)
	}
}

// result decides the file's convention: one sign throughout, or an error
// naming the rows that contradict their own ranks (a zero label with
// different ranks or the reverse) and, when both conventions occur, the
// rows of the less frequent one.
func (t *vhedSignTally) result(hasRanks bool) (LabelSign, error) {
	if !hasRanks {
		return LabelUnchecked, nil
	}
	if t.contradict.n > 0 {
		return LabelUnchecked, fmt.Errorf("label contradicts avg_rank_base and avg_rank_comp on %d row(s), line(s) %s: one is zero and the other is not", t.contradict.n, t.contradict)
	}
	switch {
	case t.same.n > 0 && t.reversed.n > 0:
		minority, majority, conv := t.reversed, t.same, "avg_rank_base − avg_rank_comp"
		if t.reversed.n > t.same.n {
			minority, majority, conv = t.same, t.reversed, "avg_rank_comp − avg_rank_base"
		}
		return LabelUnchecked, fmt.Errorf("label contradicts avg_rank_base and avg_rank_comp on %d row(s), line(s) %s: its sign is the reverse of the other %d rows' convention (label = %s)",
			minority.n, minority, majority.n, conv)
	case t.same.n > 0:
		return LabelRank1MinusRank2, nil
	case t.reversed.n > 0:
		return LabelRank2MinusRank1, nil
	}
	return LabelAllTies, nil
}
