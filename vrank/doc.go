// Package vrank is the Vrank story-pair ranker and the VHED assessments of
// story metrics (Hsu et al., "Learning to Rank Visual Stories From Human
// Ranking Data", ACL 2022).
//
// # The model
//
// No Vrank code or weights were published; the model here is the definition
// of the reference fixture (testdata/e2e/vrank): a BERT encoder (the paper
// starts from SimCSE, princeton-nlp/sup-simcse-bert-base-uncased) and a
// Linear(H, 1) head on the raw CLS hidden state of the last layer, reading
// the one string story1 + " [SEP] " + story2 — the literal [SEP] becomes the
// separator token, all token types are 0 and the joined text is truncated
// to 512 word pieces. It predicts the ranking gap of the pair: the average
// human rank of story 1 minus that of story 2, so a negative gap means story
// 1 is better. BERT's standard pair encoding (TextPair) and the pooler output
// (FeaturePooler) are options. Model.Predict runs pairs in batches on
// encoders.BERT; Load and Model.Save read and write a model as a folder a
// user can share: config.json (a HuggingFace BertConfig with a "vrank_head"
// entry), model.safetensors ("bert.*" and "regression_layer.*") and the
// WordPiece tokenizer files.
//
// # Training
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
// default (TrainOptions.EncoderDropout, NoEncoderDropout). The epoch of
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
// and Adam; SaveEncoder writes a folder NewFromEncoder starts from.
//
// # VHED
//
// The VHED loader and the assessments of any metric against VHED's human
// rankings (story-pair ranking accuracy, Ω^k subsets, ranking-gap buckets,
// the Reference Absent algorithm, point-biserial correlations, plots) live
// in the vhed*.go, assess*.go and plot*.go files of this package.
// ReadTrainPairsCSV is the minimal reader of the VHED columns training needs
// (sent1, sent2, label).
package vrank
