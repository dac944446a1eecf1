package ngram

// MeteorVISTOptions returns the METEOR configuration of the AREL/MSR VIST
// evaluation scripts (their VistMeteor runs meteor-1.5.jar - - -stdio -t
// hter): task hter, no normalization, no paraphrase table unless set. Score
// with CorpusScoresVIST to reproduce their reference handling too.
func MeteorVISTOptions() MeteorOptions {
	return MeteorOptions{Task: MeteorHTER, Normalization: MeteorNoNormalize}
}

// CorpusScoresVIST scores c as the AREL/MSR VIST scripts' VistMeteor does:
// each reference goes in its own SCORE line with the hypothesis (from which
// "|||" is removed and double spaces made single), the pair's score is the
// EVAL of its statistics, an item's score is the maximum over its
// references and the corpus score is the mean of the item scores, not the
// score of the summed statistics that CorpusScores reports. Items are
// scored as given: the scripts do not tokenize for this scorer.
//
// Matches the reference implementation, whose jar splits a reference that
// contains "|||" into several references of the same SCORE line; the
// maximum over them is the same as over separate lines.
func (m *Meteor) CorpusScoresVIST(c *Corpus) (Scores, error) {
	stats := m.itemStats(len(c.ids), func(i int) (string, []string) { return c.cands[c.ids[i]], c.refs[c.ids[i]] })
	out := Scores{Items: make(map[string]float64, len(c.ids))}
	sum := 0.0
	for i, id := range c.ids {
		out.Items[id] = stats[i].Score
		sum += stats[i].Score
	}
	if len(c.ids) > 0 {
		out.Corpus = sum / float64(len(c.ids))
	}
	return out, nil
}
