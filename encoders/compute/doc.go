// Package compute is the seam between the models of package encoders (and
// the layers of encoders/nn) and the hardware they run on: a Backend owns
// the buffers that hold weights and activations (Tensor) and runs the
// operations a transformer needs on them, at the granularity a GPU needs —
// a whole (batched) matrix product, a fused bias + activation, a
// LayerNorm over every row, a fused masked scaled-dot-product attention
// over every (sequence, head) — so that a device backend keeps a layer's
// intermediate values on the device and the host only uploads inputs and
// weights and downloads outputs.
//
// A Backend is chosen per model (encoders' Options.Backend), never for the
// whole process; the zero choice is CPU(), today's host code: the
// project's SGEMM (AVX-512/AVX2 kernels in Go assembly) or, built with the
// "openblas" tag, OpenBLAS through cgo, and the loops the encoders always
// ran, so results are bit-identical to the code before the interface.
//
// The layout follows gomlx's backends (a small set of primitive
// operations plus fused ones — softmax, GELU, LayerNorm, scaled-dot-product
// attention — that a backend may implement natively) and spago/cybertron's
// split of model code (which parameters, in which order) from compute
// (how an operation runs). A new backend implements Backend; every
// operation is specified by the CPU implementation's numbers, and the
// encoders' golden tests run through any Backend (see encoders'
// TestGoldensOnReferenceBackend).
package compute
