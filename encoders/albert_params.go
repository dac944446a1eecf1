package encoders

// albertPrefixes are the prefixes AlbertModel's names (nn.WalkALBERT) have
// in the AlbertFor… checkpoints; an encoder stored under any other prefix
// of a larger checkpoint loads through checkpoint.State.Sub(prefix).
var albertPrefixes = []string{"albert.", "model.albert."}

// albertHeads names the heads of AlbertFor… checkpoints, relative to the
// checkpoint root (not the encoder prefix); linear and LayerNorm entries
// name the module.
var albertHeads = struct {
	sop, classifier                                        string
	mlmDense, mlmNorm, mlmDecoder, mlmDecoderBias, mlmBias string
}{
	sop:            "sop_classifier.classifier",
	classifier:     "classifier",
	mlmDense:       "predictions.dense",
	mlmNorm:        "predictions.LayerNorm",
	mlmDecoder:     "predictions.decoder.weight",
	mlmDecoderBias: "predictions.decoder.bias",
	mlmBias:        "predictions.bias",
}
