// Package nn holds the parameter-holding layers of the transformer
// encoders with their forward and backward passes — Linear, LayerNorm
// (Norm), exact GELU, masked multi-head attention with counter-based
// dropout masks, post-LN (BERT, ALBERT) and pre-LN (ViT) encoder layers,
// BERT's token embeddings — the buffers a training step reuses (Arena),
// torch's Adam with L2 weight decay, and the parameter walk: a model lists
// its tensors once, under their checkpoint names, through a TensorNamer,
// and Collect turns that walk into the []Param that loading (ReadParams),
// saving (WriteSafetensors), random initialisation (InitNormal),
// gradients and Adam moments (ZerosLike, Values) all use.
//
// Every block is generic over float32 (training) and float64 (the
// finite-difference checks of the backward passes, in blocks_test.go,
// encoder_layer_test.go and param_test.go), runs its matrix products
// through the CPU backend of encoders/compute, and sums its reductions in
// a fixed order, so results do not depend on the number of workers.
// Backward passes accumulate parameter gradients (+=) into a gradient
// value of the same type as the parameters (Linear, Norm).
//
// Each architecture declares its walk once, here: WalkBERT, WalkALBERT
// and WalkViT visit the blocks under their checkpoint names, shapes and
// state_dict order through a Walker over the caller's own slot types. The
// inference models of package encoders read their backend tensors through
// it (their constructors; encoders' Params, ParamWeights and
// RandomWeights); the trainers embed BERTParams, ALBERTParams or
// ViTParams (allocated by Allocator, listed by Lister) and add only their
// heads; Layout gives the names and shapes without values. So a trainer
// can hand its tensors to encoders.NewBERTFrom and get the model scoring
// uses, without a file.
package nn
