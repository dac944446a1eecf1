// Package vrank is the Vrank story-pair ranker (Hsu et al., "Learning to
// Rank Visual Stories From Human Ranking Data", ACL 2022).
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
// Model holds its weights in memory once: Weights and WithWeights hand them
// to and take them back from a trainer, and the prediction encoder is built
// over them without a copy or a file.
//
// # Training
//
// Fine-tuning (with the reference's Adam step reproduced exactly) and the
// paper's masked-LM domain pre-training live in package vrank/train; they
// return the Model type this package predicts with.
//
// # VHED
//
// The VHED dataset reader and the assessments of any metric against VHED's
// human rankings (story-pair ranking accuracy, Ω^k subsets, ranking-gap
// buckets, the Reference Absent algorithm, point-biserial correlations)
// are package vhed; the figures are package vhed/vhedplot. Model.Predict
// returns gaps in vhed's sign convention, so vhed.AssessGapFunc wraps it
// directly. vrank/train's ReadPairs reads the VHED columns training
// needs (sent1, sent2, label) through vhed's reader.
package vrank
