// Package backprop is what remains of the trainers' former transformer
// blocks: every name is now an alias of, or a one-line call into,
// encoders/nn, which holds the forward and backward passes, the dropout
// masks, the parameter walk and Adam. It keeps the trainers compiling
// until they import encoders/nn themselves; no math is written here.
//
// Deprecated: use github.com/storyeval/storyeval/encoders/nn.
package backprop
