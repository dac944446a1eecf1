// Package train fine-tunes Vrank models (package vrank) on story pairs and
// runs the Vrank paper's masked-LM domain pre-training of their encoder. A
// Trainer holds a vrank.Model's weights plus Adam's state and returns the
// same vrank.Model type that prediction uses (Trainer.Model, BestModel).
//
// # Fine-tuning
//
// A Trainer fine-tunes every weight — the whole encoder and the head — with
// MSE loss and Adam exactly as torch.optim.Adam computes it (lr 2e-5, betas
// 0.9/0.999, eps 1e-8 by default), symmetric augmentation (each pair also
// swapped with the negated gap), dropout 0.1 on the CLS feature, seeded
// shuffling, mini-batches, a validation split with the paper's ranking
// accuracy after each epoch, atomic per-epoch checkpoints (model folder plus
// Adam's moments, written to a temporary folder and renamed) and
// ResumeTrainer, which continues to the same weights as an uninterrupted
// run. The reference's one Adam step (loss, every gradient, every updated
// parameter) is reproduced through Trainer.Step with dropout off. Dropout
// inside the encoder (BERT's own 0.1 hidden and attention dropout, as a
// transformers model in train mode — the paper's fine-tuning) is on by
// default (Options.EncoderDropout, NoEncoderDropout). The epoch of
// highest validation accuracy is kept: its checkpoint is never pruned, and
// Trainer.BestModel (vrank train's output) returns it.
//
// Gradients come from hand-written backward passes of the encoder blocks
// (linear layers, LayerNorm, erf GELU, masked multi-head attention, the
// embedding gathers, pooler, dropout), generic over float32 (training) and
// float64, in which each is checked against central finite differences on a
// tiny configuration. Their matrix products go through the same BLAS as the
// encoders (gorgonia.org/tensor's, set to the project's SGEMM). Since only
// the CLS state reaches the head, the last layer computes its queries,
// attention output and feed-forward block for the CLS rows alone, and a
// step's buffers are reused by the next.
//
// Why not gorgonia.org/gorgonia's graphs: the design first named Gorgonia
// v0.9.18's reverse-mode autodiff. Within the time given to that attempt,
// probes of its TapeMachine at BERT-base sizes (8 pairs × 512 tokens, on the
// project's 2-core AMD EPYC host; code in the commit that added
// internal/autodiff's probes) found the compute acceptable — the attention
// softmax of one layer (8·12·512 rows of 512) took 0.69 s of CPU forward and
// 1.3 s forward + backward, a feed-forward block's forward + weight
// gradients 2.1× its forward — but not the memory: the TapeMachine keeps a
// value for every node, and that one softmax with its gradient peaked at
// 1.45 GB of RSS against 0.44 GB for the forward pass alone, where the
// backward pass here keeps only the 100 MB of probabilities per layer. For
// the 12 layers at the paper's batch of 32 pairs that is some 48 GB for the
// softmaxes alone, more than the machines this runs on. Erf GELU, LayerNorm,
// masked softmax and the embedding scatter would all have needed custom ops
// with hand-written gradients in any case, so the gradients are written
// directly, keeping only the activations the backward pass needs.
//
// # Domain pre-training
//
// Pretrainer runs the masked-language-model pre-training the Vrank paper
// applies to the encoder before fine-tuning (§4: SimCSE further trained on
// the SIND references): BERT's MLM head with its decoder tied to the word
// embeddings, BERT's 15 % masking (80 % [MASK], 10 % random, 10 % kept),
// and Adam; SaveEncoder writes a folder vrank.NewFromEncoder starts from.
//
// ReadPairs reads the VHED columns training needs (sent1, sent2,
// label) with package vhed's reader, where the dataset and the assessments
// live.
package train
