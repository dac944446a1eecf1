// Package rovist computes the RoViST metrics for visual stories (Wang et
// al., "RoViST: Learning Robust Metrics for Visual Storytelling", Findings of
// NAACL 2022; reference code github.com/usydnlp/rovist):
//
//   - NonRedundancy (RoViST-NR): how little a story repeats itself, within
//     and across its sentences, reproducing the reference scorer's published
//     numbers bit for bit;
//   - noun extraction as RoViST does it (placeholders, Penn Treebank noun
//     tags, per sentence), which the visual-grounding score (RoViST-VG) is
//     built on;
//   - the visual-grounding (RoViST-VG) and coherence (RoViST-C) scores,
//     which run the neural encoders (see package encoders).
//
// NonRedundancy scores one story; an NRScorer scores many with less
// allocation. Results report whether the score is defined (a story needs
// two sentences) and the pair scores it averages.
//
// Text processing matches NLTK 3.8 exactly (packages internal/sentences,
// internal/words and internal/postag), because the published scores depend
// on its sentence splits and tokens to the last digit. Defaults follow the
// reference code, quirks included; where the paper defines a score
// differently, the paper's version is an option.
package rovist
