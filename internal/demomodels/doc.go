// Package demomodels writes the demonstration inputs of `storyeval score
// -demo`: a models folder in exactly the layout compare.ModelsLayout
// documents (RoViST-C, RoViST-VG, CLIP for GROOViST and CLIPScore, Vrank),
// with tiny random-weight models and minimal tokenizers generated from the
// demo's own text, plus synthetic images for the demo's sequences, a
// regions CSV and its crops. Every file comes from a fixed seed, so two
// runs write the same bytes and score the same.
//
// The models show the pipeline, not quality: their scores are those of
// random weights (DemonstrationLabel). The package is internal because
// only the command uses it; a library user brings real models.
package demomodels
