// Package checkpoint reads model weights without Python: safetensors files
// (memory-mapped), PyTorch checkpoints written by torch.save — the zip
// format of PyTorch ≥ 1.6 (pytorch_model.bin, training checkpoints such as *.pth.tar) and the
// legacy pickle format before it — and sharded checkpoints described by a
// *.index.json.
//
// Open sniffs a single file's format; OpenDir picks the weights of a
// HuggingFace model directory the way transformers does. A State maps
// tensor names to stored tensors, read on demand as gorgonia float32
// (Float32: F32, F16, BF16, F64) or int64 (Int64) tensors of the stored
// shape; strided views and storages shared by several tensors (tied
// weights) are materialised as PyTorch would. Sub selects a sub-dictionary by
// name prefix, and the non-tensor entries of a pickled dict (epoch, losses,
// an argparse.Namespace) are plain Go values (Value).
//
// Files are untrusted input. The pickle reader executes nothing: a short
// allow-list of globals (collections.OrderedDict, torch's storage classes and
// tensor rebuild functions, set, bytes) builds plain values and any other
// class stays an inert *Object; every length read from a file is checked
// against the file and the limits in Options before anything is allocated.
//
// HF checkpoints differ in two ways this package tolerates rather than
// hides: transformers 4.29 stores the embeddings.position_ids buffer (int64)
// and newer releases omit it, and safetensors files drop tied weights
// (e.g. ALBERT's predictions.decoder.weight) that pytorch_model.bin keeps;
// callers look for both with Has.
package checkpoint
