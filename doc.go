// Package storyeval scores machine-written visual stories and stylized image
// captions with the metrics researchers publish, and reproduces the numbers of
// their reference implementations without Python, Java or a GPU.
//
// This root package holds only documentation; the metrics live in one package
// per family (planned packages are marked as such until they land):
//
//   - ngram: the COCO caption toolkit's metrics — PTB tokenization, BLEU-1..4,
//     ROUGE-L, CIDEr-D and METEOR 1.5 (planned) — and SacreBLEU's BLEU.
//   - correlation (planned): Pearson, Spearman, Kendall τ-b/τ-c and
//     point-biserial correlation with SciPy's p-values, bootstrap intervals
//     and the Williams test, to validate a metric against human judgements.
//   - rovist (planned): RoViST's visual grounding, coherence and
//     non-redundancy scores for visual stories.
//   - groovist (planned): GROOViST's noun-phrase grounding score and the
//     CLIPScore / RefCLIPScore baselines.
//   - vrank (planned): the Vrank story-pair ranker and the VHED assessments.
//   - stylem (planned): StyleM's contrastive n-gram scores, OnlyStyle and
//     StyleCIDEr.
//   - encoders (planned): checkpoint readers, tokenizers, image preprocessing
//     and the ViT, CLIP, ALBERT and BERT/SimCSE forward passes on Gorgonia,
//     which the neural metrics share.
//
// Every metric defaults to the behaviour of its reference code, quirks
// included, so that published numbers reproduce; where a paper defines a
// metric differently from its code, the paper's variant is an explicit option.
// The command in examples/storyeval runs the metrics on JSON and CSV files.
package storyeval
