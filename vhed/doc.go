// Package vhed reads VHED, the VIST Human Evaluation Data of Hsu et al.,
// "Learning to Rank Visual Stories From Human Ranking Data" (ACL 2022),
// and applies that paper's assessments to any story metric.
//
// # The dataset
//
// A VHED row (Pair) holds two stories written for the same image sequence
// and the human ranking of the two. Reader reads the CSV
// (github.com/AcademiaSinicaNLPLab/VHED) row by row; ReadAll, Read and
// Load read a whole file. ImageIDs splits a row's image sequence into
// photo ids, and References collects the human-written stories of each
// sequence for reference-based metrics.
//
// Sign convention, shared with the Vrank model (package vrank): a ranking
// gap is rank(story 1) − rank(story 2) where a lower rank is better, so a
// gap < 0 means story 1 is the better story. Pair.Gap follows it whatever
// the sign convention of the CSV's label column (see LabelSign).
//
// # The assessments
//
// Assess and AssessPredictions compute, for any scorer — the Vrank model,
// an n-gram metric from package ngram, RoViST, GROOViST or a column of
// scores read from a file — the story-pair ranking accuracy overall, on the
// agreement subsets Ω^k and their union Ω^{4,5}, per ranking-gap bucket and
// for reference–machine versus machine–machine pairs, with point-biserial
// correlations and bootstrap confidence intervals. RefAbsentScorer is the
// paper's Reference Absent algorithm for reference-based metrics;
// AssessGapFunc, AssessStoryFunc, AssessStoryScorer and AssessFixedGaps
// adapt pairwise predictors, per-story metrics and fixed predictions.
//
// The accuracy figures are drawn by package vhed/vhedplot, so that
// importing vhed does not import a plotting library.
//
// Scores computed elsewhere enter through ReadScores (a CSV of per-story
// metric scores or per-pair predicted gaps), ReadErrorLabels (binary error
// labels of stories, for AssessErrorCorrelation) and ReadReferences
// (reference stories per image sequence, for the reference-based metrics).
package vhed
