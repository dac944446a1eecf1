package tokenize

import "fmt"

// Families returns the family names LoadFamily takes.
func Families() []string { return []string{"bert", "albert", "clip"} }

// LoadFamily loads the tokenizer of the named family from a HuggingFace
// model folder: "bert" (LoadBERT), "albert" (LoadALBERT) or "clip"
// (LoadCLIP with clip; clip is ignored for the other families). It is for
// programs that, like the storyeval tokenize command, pick the family at
// run time.
func LoadFamily(family, dir string, clip CLIPOptions) (Encoder, error) {
	switch family {
	case "bert":
		return LoadBERT(dir)
	case "albert":
		return LoadALBERT(dir)
	case "clip":
		return LoadCLIP(dir, clip)
	}
	return nil, fmt.Errorf("unknown tokenizer family %q (want bert, albert or clip)", family)
}

// PaddingByName returns the padding named as HuggingFace's padding
// argument: "none" (False, do_not_pad), "longest" or "max_length".
func PaddingByName(name string) (Padding, error) {
	switch name {
	case "none":
		return NoPadding, nil
	case "longest":
		return PadLongest, nil
	case "max_length":
		return PadMaxLength, nil
	}
	return 0, fmt.Errorf("unknown padding %q (want none, longest or max_length)", name)
}

// CLIPCleanerByName returns the CLIP text cleaning of the name: "openai"
// (CleanOpenAI), "hf" (CleanHF) or "hf-noftfy" (CleanHFNoFTFY).
func CLIPCleanerByName(name string) (CLIPCleaner, error) {
	switch name {
	case "openai":
		return CleanOpenAI, nil
	case "hf":
		return CleanHF, nil
	case "hf-noftfy":
		return CleanHFNoFTFY, nil
	}
	return 0, fmt.Errorf("unknown CLIP cleaner %q (want openai, hf or hf-noftfy)", name)
}
