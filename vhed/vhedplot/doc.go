// Package vhedplot draws the accuracy figures of the VHED assessments
// (package vhed) with gonum.org/v1/plot: accuracy per ranking-gap bucket
// (Hsu et al., ACL 2022, Figure 3) and accuracy on the agreement subsets
// Ω^k (their Table 4), as PNG or SVG. It is a package of its own so that
// the dataset and the assessments do not pull in the plotting library.
package vhedplot
