// Package train trains the RoViST models of package rovist as the
// reference training code does (github.com/usydnlp/rovist):
//
//   - CoherenceTrainer: RoViST-C's training (ALBERT + sentence-order head
//     fine-tuned with cross-entropy and Adam on SOPPairs made from
//     stories, as scripts/rovist_c.py), writing folders
//     LoadCoherenceModelDir scores with and returning rovist.CoherenceModel
//     (Model);
//   - VGTrainer: RoViST-VG's region-to-phrase model (rovist_vg.py: the
//     symmetric soft-label loss with undetached labels and temperature τ,
//     Adam with weight decay, a per-epoch learning-rate decay), from
//     region–phrase pairs (rovist.LoadVGPairsCSV, rovist.VGExamples); its
//     checkpoints load with rovist.LoadGroundingModel and GroundingModel
//     returns the scorer's model.
//
// Gradients come from hand-written backward passes (encoders/nn),
// each checked against central finite differences in float64. Checkpoints
// are written atomically per epoch with Adam's moments, and resuming
// reaches the weights of an uninterrupted run. Trained models reach the
// scorer in memory (CoherenceTrainer.Model, VGTrainer.GroundingModel), with
// no temporary file.
package train
