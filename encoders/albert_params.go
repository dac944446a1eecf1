package encoders

// albertParams maps AlbertModel's parameters and heads to their HuggingFace
// checkpoint names (%d: layer group, then layer within the group); linear
// and LayerNorm entries name the module. AlbertFor… checkpoints hold the
// encoder under "albert."; an encoder stored under any other prefix of a
// larger checkpoint loads through checkpoint.State.Sub(prefix).
var albertParams = struct {
	prefixes                                 []string
	wordEmb, posEmb, typeEmb, embNorm, mapIn string
	query, key, value, attnOut, attnNorm     string
	ffn, ffnOut, ffnNorm, pooler             string
	// Heads, relative to the checkpoint root (not the encoder prefix).
	sop, classifier                                        string
	mlmDense, mlmNorm, mlmDecoder, mlmDecoderBias, mlmBias string
}{
	prefixes:       []string{"albert.", "model.albert."},
	wordEmb:        "embeddings.word_embeddings.weight",
	posEmb:         "embeddings.position_embeddings.weight",
	typeEmb:        "embeddings.token_type_embeddings.weight",
	embNorm:        "embeddings.LayerNorm",
	mapIn:          "encoder.embedding_hidden_mapping_in",
	query:          "encoder.albert_layer_groups.%d.albert_layers.%d.attention.query",
	key:            "encoder.albert_layer_groups.%d.albert_layers.%d.attention.key",
	value:          "encoder.albert_layer_groups.%d.albert_layers.%d.attention.value",
	attnOut:        "encoder.albert_layer_groups.%d.albert_layers.%d.attention.dense",
	attnNorm:       "encoder.albert_layer_groups.%d.albert_layers.%d.attention.LayerNorm",
	ffn:            "encoder.albert_layer_groups.%d.albert_layers.%d.ffn",
	ffnOut:         "encoder.albert_layer_groups.%d.albert_layers.%d.ffn_output",
	ffnNorm:        "encoder.albert_layer_groups.%d.albert_layers.%d.full_layer_layer_norm",
	pooler:         "pooler",
	sop:            "sop_classifier.classifier",
	classifier:     "classifier",
	mlmDense:       "predictions.dense",
	mlmNorm:        "predictions.LayerNorm",
	mlmDecoder:     "predictions.decoder.weight",
	mlmDecoderBias: "predictions.decoder.bias",
	mlmBias:        "predictions.bias",
}
