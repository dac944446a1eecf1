// Package backprop holds the hand-written forward and backward passes of
// the transformer blocks that storyeval's trainers compose (linear layers,
// LayerNorm, exact GELU, masked multi-head attention, counter-based dropout
// masks), the encoder layers built from them (EncoderLayer with its
// post-LN passes for BERT and ALBERT and pre-LN passes for ViT), BERT's
// token embeddings, the listing of parameters under their state_dict names
// (TensorNamer), the buffers they reuse between steps (Arena) and torch's
// Adam.
//
// Every block is generic over float32 (training) and float64 (the
// finite-difference checks of the backward passes), runs its matrix
// products through the CPU backend of encoders/compute, and sums its
// reductions in a fixed order, so results do not depend on the number of
// workers. Backward passes accumulate parameter gradients (+=) into a
// gradient value of the same type as the parameters (Linear, Norm).
package backprop
