// Package randmodel writes synthetic inputs for the full-size benchmarks of
// several packages: gradient JPEG images, a regions file with its crops,
// and GloVe text files of random vectors, all from seeded sources so files
// are reproducible. The random model checkpoints are in encoders/randmodel.
package randmodel
