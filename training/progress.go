// Package training holds what storyeval's trainers share: the progress
// they report while they run.
package training

// Progress reports where a training run stands; every trainer (RoViST-C
// and RoViST-VG in rovist/train, Vrank fine-tuning and masked-LM
// pre-training in vrank/train) sends one to its Progress callback after
// every optimizer step.
type Progress struct {
	// Epoch is the current epoch, counted from 1, of Epochs, the number
	// the run was asked for (a resumed run goes on counting from where it
	// stopped).
	Epoch, Epochs int
	// Done and Total count the training examples of this epoch (pairs,
	// texts) trained on so far, and all of them.
	Done, Total int
	// Step counts optimizer (Adam) steps since the start of training,
	// across epochs and resumptions.
	Step int
	// Loss is the mean training loss of the epoch's steps so far, each
	// taken before its update.
	Loss float64
	// ExamplesPerSecond is the training speed over the epoch so far; 0
	// from trainers that do not measure it.
	ExamplesPerSecond float64
}
