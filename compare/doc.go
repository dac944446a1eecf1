// Package compare compares the stories of several systems with every
// metric storyeval has, and says which system is better and whether the
// difference is real.
//
// # A tour
//
// A comparison starts from a [story.Suite]: image sequences, each with
// optional human references and one story per system. The metrics are
// values of the [Metric] interface, one adapter per metric family:
//
//   - [BLEU], [METEOR], [ROUGEL], [CIDErD]: the COCO caption toolkit's
//     n-gram metrics on PTB-tokenized text; [NLTKBLEU] and [METEORVIST] the
//     variants the Vrank paper and the VIST scripts report;
//   - [NonRedundancy] (RoViST-NR) and [OnlyStyle] (StyleM) need no model
//     files;
//   - RoViST-C, RoViST-VG, GROOViST, CLIPScore and the Vrank win rate need
//     learned models: [CheckModels] looks a models folder up (see
//     [ModelsLayout]) and says which metrics its files enable; [OpenModels]
//     loads those wanted, sharing what two metrics both need (one CLIP for
//     GROOViST and CLIPScore), and [Models.Metric] gives each metric's
//     adapter, or an [Absent] one saying which file or input it needs.
//
// [Compare] runs the metrics over the suite and returns a [Report]:
// per-story scores with a diagnostic per story (the "why" of a low
// score: BLEU-1 to 3, METEOR's precision, recall and fragmentation,
// ROUGE-L's LCS, CIDEr-D's per-order similarities and length penalty,
// the weightiest style n-grams, the least coherent or grounded part for
// the learned metrics), per-system means with bootstrap intervals, corpus-level scores
// where the metric defines one (BLEU-4, CIDEr-D), a paired randomization
// test per pair of systems and metric with its p-value adjusted for
// multiple comparisons ([Options.Correction]: Holm by default,
// Benjamini–Hochberg as an option), and, given human ratings
// ([ReadRatings]), each metric's correlation with them and the Williams
// tests between metrics. A metric whose per-story scores are degenerate
// (unsmoothed per-story BLEU-4 where most stories share no 4-gram with
// their references) is flagged in [Summary].Degenerate and not ranked. Each text is prepared once per run and
// shared by the metrics that need it: the tokenized corpora of the n-gram
// metrics, the nouns of RoViST-VG (also the words its GloVe vectors are
// loaded for), the regions file of RoViST-VG and GROOViST (parsed once,
// see [regions.Entities.View]). Progress goes to [Options.Progress], named by metric;
// cancelling the context stops the run.
//
// The report is written by [Report.WriteScoresCSV] (one row per story
// and system), [Report.WriteSummaryJSON] and [Report.WriteHTML] (a
// self-contained page with plots), or all three at once, atomically, by
// [Report.WriteFiles]. The page ranks the systems per metric, marking the
// differences that stay significant after the correction, lists each pair
// of systems once, and says how many embeddings came from the embedding
// cache ([Models.UseCache]). The storyeval command's score subcommand is
// a thin layer over this package: its files are byte for byte those
// written here.
//
// The defaults reproduce the reference implementations: each adapter
// scores as the metric's published code does, and the statistics are
// those of the storyeval score command (1000 bootstrap resamples, 9999
// randomization rounds, exact for up to 20 stories, 95 % intervals).
package compare
