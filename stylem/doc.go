// Package stylem scores how well a caption carries a style, following StyleM
// (Li & Harrison, 2022, "StyleM: Stylized Metrics for Image Captioning Built
// with Contrastive N-grams") and its reference code (chengxili/preStyleM).
//
// A Table of contrastive n-gram (CNG) scores is built once from a stylized
// caption corpus (Build, or ReadTable for a saved one; WriteBuild writes a
// table file in memory bounded by a chunk, spilling counts to disk, for
// corpora whose table would not fit). For every style k
// and every n-gram g (n = 1..4) of the style's captions, CNG_k(g) compares
// how typical g is for k (the empirical CDF of g's document frequency among
// k's n-grams) with how typical it is for the other styles. Two metrics use
// the table:
//
//   - OnlyStyle (and its "exist" variant) scores a caption against a style
//     without any reference: the mean CNG of its distinct n-grams.
//   - StyleCIDEr scores a caption against references: CIDEr-D with CNG
//     values in place of tf-idf weights.
//
// OwnStyleShare and StyleCIDErShare implement the paper's evaluation of the
// metrics themselves (eq. 9 and 10): the share of captions that score higher
// under their own style than under another.
//
// Text goes through Tokenize before counting, as in the reference: the
// RETOK regular expression, a PTB step (PTB, or Simple), and an "<eos>"
// token appended.
//
// Defaults reproduce the reference code, quirks included; each quirk is
// documented where it applies. The paper's CNG formula (eq. 4) is available
// through BuildOptions.Formula.
package stylem
