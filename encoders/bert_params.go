package encoders

// bertParams maps BertModel's parameters to their HuggingFace checkpoint
// names (%d is the layer index); linear and LayerNorm entries name the
// module, to which ".weight" and ".bias" are appended. BertFor… checkpoints
// hold the same names under "bert.".
var bertParams = struct {
	prefixes                              []string
	wordEmb, posEmb, typeEmb, embNorm     string
	query, key, value, attnOut, attnNorm  string
	intermediate, output, outNorm, pooler string
}{
	prefixes:     []string{"bert.", "model.bert.", "model."},
	wordEmb:      "embeddings.word_embeddings.weight",
	posEmb:       "embeddings.position_embeddings.weight",
	typeEmb:      "embeddings.token_type_embeddings.weight",
	embNorm:      "embeddings.LayerNorm",
	query:        "encoder.layer.%d.attention.self.query",
	key:          "encoder.layer.%d.attention.self.key",
	value:        "encoder.layer.%d.attention.self.value",
	attnOut:      "encoder.layer.%d.attention.output.dense",
	attnNorm:     "encoder.layer.%d.attention.output.LayerNorm",
	intermediate: "encoder.layer.%d.intermediate.dense",
	output:       "encoder.layer.%d.output.dense",
	outNorm:      "encoder.layer.%d.output.LayerNorm",
	pooler:       "pooler.dense",
}
