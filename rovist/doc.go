// Package rovist computes the RoViST metrics for visual stories (Wang et
// al., "RoViST: Learning Robust Metrics for Visual Storytelling", Findings of
// NAACL 2022; reference code github.com/usydnlp/rovist):
//
//   - NonRedundancy (RoViST-NR): how little a story repeats itself, within
//     and across its sentences, reproducing the reference scorer's published
//     numbers bit for bit;
//   - CoherenceModel (RoViST-C): the probability that each sentence follows
//     the one before, from the released ALBERT sentence-order checkpoint
//     (sop_model_epoch4.pth.tar), with the dHM growing-prefix variant;
//   - Grounder (RoViST-VG): how well the story's nouns are grounded in the
//     regions of its images, from the released ViT region-to-phrase
//     checkpoint (r2p_model_epoch2.pth.tar), GloVe vectors, idf weights and
//     the regions file (package regions, integer image ids) with its
//     crops;
//   - Combine and SystemMeans: the overall RoViST = VG + C + NR per story
//     and the means over a story set;
//   - noun extraction as RoViST does it (Nouns, StoryNouns).
//
// Training lives in package rovist/train: RoViST-C's sentence-order
// fine-tuning (scripts/rovist_c.py) and RoViST-VG's region-to-phrase
// training (rovist_vg.py), both returning the CoherenceModel and
// GroundingModel types scored with here. The region–phrase pairs file and
// the phrase vectors the VG training reads (LoadVGPairsCSV, PhraseVector,
// VGExamples) are read here, beside the crop sources (CropFolder,
// ImageBoxes).
//
// NonRedundancy scores one story; an NRScorer scores many with less
// allocation. Every result says whether its score is defined (NaN
// otherwise, as the reference) and carries the pieces it was computed from:
// pair scores, per-pair probabilities, per-noun recall, best image and
// region. The neural scores batch the work of many stories (each distinct
// sentence pair or crop once) and use every core; they match the reference
// within float32 rounding (1e-5), everything before the encoders
// (sentences, pieces, ids, nouns, idf weights, regions, pixels) exactly.
//
// Text processing matches NLTK 3.8 exactly (packages internal/sentences,
// internal/words and internal/postag), because the published scores depend
// on its sentence splits and tokens to the last digit. Defaults follow the
// reference code, quirks included; where the paper defines a score
// differently, the paper's version is an option.
package rovist
