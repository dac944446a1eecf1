package vhed

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// JoinInts writes the ks 4, 5 as "4,5", as the output names Ω^{4,5}.
func JoinInts(ks []int) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = strconv.Itoa(k)
	}
	return strings.Join(s, ",")
}

// WriteTable writes out as aligned text for a person, as `storyeval vhed
// assess -format table` prints it.
func WriteTable(w io.Writer, out Output) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: %d pairs, %d human ties left out; label: %s\n\n", out.CSV, out.Rows, out.HumanTies, out.LabelSign)
	acc := func(a AccuracyOutput) string {
		if a.Total == 0 {
			return "–"
		}
		s := fmt.Sprintf("%.3f (%d/%d)", float64(a.Value), a.Correct, a.Total)
		if !math.IsNaN(float64(a.Low)) {
			s += fmt.Sprintf(" [%.3f, %.3f]", float64(a.Low), float64(a.High))
		}
		return s
	}
	head := "scorer\taccuracy"
	if len(out.Scorers) > 0 {
		for _, o := range out.Scorers[0].Omega {
			head += fmt.Sprintf("\tΩ%d", o.K)
		}
		head += "\tΩ" + JoinInts(out.Scorers[0].OmegaUnion.Ks)
	}
	split := " (" + out.Split + ")"
	fmt.Fprintln(tw, head+"\tref–machine"+split+"\tmachine–machine"+split+"\tties\tundecided\tmachine>ref (human/metric)\terror–gap r\t")
	for _, s := range out.Scorers {
		line := s.Name + "\t" + acc(s.Accuracy)
		for _, o := range s.Omega {
			line += "\t" + acc(o.AccuracyOutput)
		}
		line += "\t" + acc(s.OmegaUnion.AccuracyOutput)
		line += fmt.Sprintf("\t%s\t%s\t%d\t%d\t%d/%d vs %d/%d\t%.3f\t", acc(s.ReferenceMachine), acc(s.MachineMachine),
			s.PredictedTies, s.Undecided, s.Outrank.Human, s.Outrank.Pairs, s.Outrank.Predicted, s.Outrank.Pairs, float64(s.ErrorGap.R))
		fmt.Fprintln(tw, line)
	}
	blank := true
	for _, s := range out.Scorers {
		for _, e := range s.ErrorLabels {
			if blank {
				fmt.Fprintln(tw)
				blank = false
			}
			fmt.Fprintf(tw, "%s vs error %q: point-biserial r %.3f (p %.3g) over %d stories\n", s.Name, e.Error, float64(e.R), float64(e.P), e.Stories)
		}
	}
	if len(out.Scorers) > 0 {
		fmt.Fprintln(tw)
		head := "accuracy by " + out.Gap
		for _, b := range out.Scorers[0].Buckets {
			if math.IsNaN(float64(b.MaxGap)) || math.IsInf(float64(b.MaxGap), 1) {
				head += fmt.Sprintf("\t≥ %g", float64(b.MinGap))
			} else {
				head += fmt.Sprintf("\t[%g, %g)", float64(b.MinGap), float64(b.MaxGap))
			}
		}
		fmt.Fprintln(tw, head+"\t")
		for _, s := range out.Scorers {
			line := s.Name
			for _, b := range s.Buckets {
				line += "\t" + acc(b.AccuracyOutput)
			}
			fmt.Fprintln(tw, line+"\t")
		}
	}
	return tw.Flush()
}
