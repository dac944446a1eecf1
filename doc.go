// Package storyeval scores machine-written visual stories and stylized image
// captions with the metrics researchers publish, and reproduces the numbers of
// their reference implementations without Python, Java or a GPU.
//
// This root package holds only documentation; the metrics live in one package
// per family:
//
//   - ngram: the COCO caption toolkit's metrics — PTB tokenization, BLEU-1..4,
//     METEOR 1.5, ROUGE-L and CIDEr-D — and SacreBLEU's BLEU.
//   - correlation: Pearson, Spearman, Kendall τ-b/τ-c and point-biserial
//     correlation with SciPy's p-values, bootstrap intervals and the Williams
//     test, to validate a metric against human judgements.
//   - rovist: RoViST's scores for visual stories — non-redundancy
//     (RoViST-NR), coherence (RoViST-C, ALBERT sentence order) and visual
//     grounding (RoViST-VG, ViT regions against GloVe nouns) from the
//     released checkpoints — and their sum, with per-pair and per-noun
//     diagnostics.
//   - groovist: GROOViST's noun-phrase grounding score (with the paper's
//     ablations and its T and P analyses) and the CLIPScore / RefCLIPScore
//     baselines, on CLIP.
//   - vrank: the Vrank story-pair ranker on BERT/SimCSE — prediction,
//     training with hand-written backward passes and Adam (vrank/train),
//     safetensors model folders.
//   - vhed: the VHED human rankings of story pairs (reader, image-sequence
//     ids, references) and the assessments of any metric against them (pair
//     ranking accuracy, Ω^k, gap buckets, Reference Absent, point-biserial);
//     vhed/vhedplot draws the accuracy figures.
//   - regions: the regions files of the grounding metrics (image regions
//     and their crop files), with RoViST's and GROOViST's image ids.
//   - story: the input types — a Story (text and ordered images with
//     regions), a Set of stories, and a Suite of several systems' stories for
//     the same image sequences with human references — and their readers.
//   - limits and training: the bound every reader takes and the progress
//     every trainer reports.
//   - stylem: StyleM's contrastive n-gram (CNG) tables, OnlyStyle and
//     StyleCIDEr.
//   - encoders: the ViT, CLIP, ALBERT and BERT/SimCSE forward passes,
//     which the neural metrics share, on a per-model compute backend
//     (encoders/compute) with gorgonia.org/tensor at the API, the shared
//     layers with their backward passes (encoders/nn), and the
//     subpackages checkpoint (safetensors and PyTorch checkpoints), tokenize
//     (WordPiece, SentencePiece, CLIP BPE) and imageproc (Pillow-exact image
//     preprocessing).
//
// Text processing that reproduces NLTK 3.8 (Punkt sentences, word
// tokenization, the averaged-perceptron tagger) lives under internal/.
//
// Every metric defaults to the behaviour of its reference code, quirks
// included, so that published numbers reproduce; where a paper defines a
// metric differently from its code, the paper's variant is an explicit option.
// The design decisions behind the neural code — why hand-written gradients
// rather than gorgonia.org/gorgonia's graphs, the per-model compute backend
// of encoders/compute and where a new one plugs in, the parameter walk of
// encoders/nn — are recorded in docs/design.md.
//
// # Conventions
//
// Every package follows the same rules, so that a caller can guess a name:
//
//   - Reading: Open* and Load* take a path (Open* returns something to read
//     from or close, Load* the whole decoded value), Read* takes an
//     io.Reader, and Parse* a []byte (or, for a name such as a flag value,
//     a string).
//   - Limits: every reader of untrusted input bounds what it reads with a
//     limits.Limits in its options; a zero field means the default that the
//     reader documents, and an input over its bound fails with a
//     *limits.TooLargeError naming the input.
//   - Progress: long runs report through a Progress callback in their
//     options; the trainers all report a training.Progress, whose Epoch
//     counts from 1.
//   - Errors: an error names the input and item it is about (user data
//     quoted and cut short) and says what is wrong, in one line. Where a
//     caller can act on an error it has a type to match with errors.As
//     (rovist.MissingIDFError, regions.MissingCropError,
//     correlation.UndefinedError, limits.TooLargeError). Errors carry no
//     package-name prefixes, so a program prints them as they come.
//
// The command in cmd/storyeval runs the metrics on JSON and CSV files;
// its score subcommand runs every available metric on a Suite and writes a
// comparison report with significance tests and correlations with human
// ratings.
package storyeval
