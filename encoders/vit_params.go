package encoders

// vitParams maps ViTModel's parameters and the image-classification head to
// their HuggingFace checkpoint names (%d: layer); linear and LayerNorm
// entries name the module. ViTFor… checkpoints hold the encoder under
// "vit."; an encoder stored under any other prefix of a larger checkpoint
// loads through checkpoint.State.Sub(prefix).
var vitParams = struct {
	prefixes                                    []string
	cls, pos, patch                             string
	normBefore, query, key, value, attnOut      string
	normAfter, intermediate, output, norm, pool string
	classifier                                  string
}{
	prefixes:     []string{"vit.", "model.vit."},
	cls:          "embeddings.cls_token",
	pos:          "embeddings.position_embeddings",
	patch:        "embeddings.patch_embeddings.projection",
	normBefore:   "encoder.layer.%d.layernorm_before",
	query:        "encoder.layer.%d.attention.attention.query",
	key:          "encoder.layer.%d.attention.attention.key",
	value:        "encoder.layer.%d.attention.attention.value",
	attnOut:      "encoder.layer.%d.attention.output.dense",
	normAfter:    "encoder.layer.%d.layernorm_after",
	intermediate: "encoder.layer.%d.intermediate.dense",
	output:       "encoder.layer.%d.output.dense",
	norm:         "layernorm",
	pool:         "pooler.dense",
	classifier:   "classifier",
}
