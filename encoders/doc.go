// Package encoders runs the neural networks the learned metrics are built on
// — BERT (and SimCSE sentence embeddings), ALBERT with its sentence-order and
// classification heads, ViT and CLIP — with the numbers of HuggingFace
// transformers 4.29 on PyTorch 1.13, in float32, on gorgonia.org/tensor.
//
// Models load from a HuggingFace model directory: config.json (architecture
// sizes and hidden_act are read from it) and the weights in any format the
// checkpoint subpackage reads (model.safetensors, sharded safetensors,
// pytorch_model.bin). Parameter names are mapped from the checkpoint in one
// table per architecture (the *_params.go files), so a checkpoint with a
// prefix ("bert.", "vit.", "albert.") loads too. config.json is untrusted
// input: every size is bounded and checked against the checkpoint's tensor
// shapes before anything is allocated, so a corrupt or hostile config fails
// at once with the field's name. Entry points check the encodings, images
// and tensors they are given (dtype, shape, ids within the vocabulary) and
// return errors rather than panic.
//
// Subpackages hold what comes before the first matrix multiply: checkpoint
// (weights), tokenize (WordPiece, SentencePiece, CLIP BPE) and imageproc
// (Pillow-exact image preprocessing).
//
// Models are immutable after loading and safe for concurrent use. Each
// model runs on the compute backend its Options name (Load*/New* take them
// as a last, optional argument): the default, compute.CPU(), multiplies
// matrices with the project's SGEMM — written in Go and Go assembly, no
// cgo — or, built with the "openblas" tag, with OpenBLAS through cgo. There
// is no process-wide switch: two models of one program may run on
// different backends. See docs/design.md for why the backend interface has
// the shape it has.
//
// Metrics attach their own heads to these encoders: Linear (LoadLinear reads
// one from a checkpoint by module name) applies a PyTorch nn.Linear to the
// pooled or [CLS] outputs (TextOutput.CLS, TextOutput.Pooled,
// ImageOutput.CLS), and checkpoint.State.Sub selects an encoder stored
// under a prefix of a larger checkpoint.
//
// Outputs are *tensor.Dense. Read their values with t.Float32s(), not
// t.Data(): gorgonia.org/tensor v0.9.24's Data holds the backing array
// only as a uintptr while it allocates, so when t is not used after the
// call the garbage collector may free the array under the slice returned
// (issue 21's "found bad pointer in Go heap"). Where Data is needed, keep
// t reachable past it with runtime.KeepAlive(t), as this module does.
package encoders
