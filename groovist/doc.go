// Package groovist computes GROOViST (Surikuchi, Pezzelle & Fernández,
// EMNLP 2023), a visual-grounding score for stories, and the CLIPScore and
// RefCLIPScore baselines (Hessel et al., EMNLP 2021), with the numbers of
// the reference code: akskuchi/groovist (groovist.py, utils.py) and
// jmhessel/clipscore (clipscore.py).
//
// # GROOViST
//
// Each story's noun phrases — given by the caller as the reference reads
// them from nphrases.json (spaCy en_core_web_trf noun chunks), or extracted
// from the text by this module's chunker, which approximates spaCy (see
// Phrases) — are filtered (a phrase equal to a listed pronoun, or already
// kept, is dropped), embedded with CLIP's text tower (no prompt), and
// compared by cosine with the CLIP image embeddings of the first 10 region
// crops of each of the story's images. A phrase's score is 2.5 × its best
// cosine over all regions of all images; below θ it becomes the negative
// distance to θ; it is then weighted by the phrase's concreteness (the mean
// Brysbaert rating of its words, a word retried as its WordNet noun lemma,
// 1 when no word is rated). GROOViST is the mean weighted score: unbounded,
// tanh maps it into [−1, 1].
//
// Conventions of the reference kept here: the first 10 rows of an image
// in the entities CSV are taken before any crop is read, and an image with
// a crop that cannot be read contributes a row of zeros, which wins the
// maximum over negative cosines (reported in Result.Images); θ is compared
// in float32 and the scores are float32; a story whose phrases are all
// pronouns is NaN (Result.Defined false). The θ presets are those of
// GROOViST's config.ini; EstimateTheta derives one for a new dataset.
// The paper's ablations are options (−C Uniform, −P NoPenalty, +idf IDF,
// +Ns Nouns) and its analyses are in every Result (TemporalMisalignment T,
// eq. 3; NPProportion P, eq. 4).
//
// Regions come from an entities CSV (read by package regions) plus a
// folder of crops, exactly as the reference reads them (Scorer.Entities,
// Scorer.CropsDir), or from whole
// images and boxes (story.Image Path and Regions), cropped here; the
// reference's crops are JPEG files, so scores from re-cropped images differ
// slightly from those of its crop files.
//
// # CLIPScore
//
// CLIPScorer follows clipscore.py: "A photo depicts " before candidates and
// references, 77-token truncation, images resized and cropped before the
// conversion to RGB, CLIPScore = 2.5 · max(cos, 0), RefCLIPScore the
// harmonic mean of CLIPScore and the raw maximum reference cosine.
//
// CLIPScorer.ScoreStories applies it to multi-image stories as image–sentence
// pairs: a story with as many (Punkt) sentences as images pairs sentence k
// with image k, any other story pairs each image with the whole text; the
// story's CLIPScore and RefCLIPScore are the means over its pairs, with the
// alignment used and the pairs' scores in the result.
//
// Every distinct phrase, caption and crop of a call is embedded once, in
// batches; preprocessing runs on all cores. The embedded data are
// GROOViST's concreteness ratings (Brysbaert, Warriner & Kuperman 2014)
// and pronoun list (data/ATTRIBUTION.md).
package groovist
