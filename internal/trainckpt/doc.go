// Package trainckpt writes and reads the training checkpoint folders that
// the RoViST and Vrank trainers share: root/epoch-NNN folders, each written
// under a temporary name and renamed into place (so a folder is either
// complete or absent), holding the model files, Adam's moments
// (optimizer.safetensors, "m."/"v." prefixed tensor names, as a
// torch.optim.Adam state would name them) and trainer_state.json.
package trainckpt
