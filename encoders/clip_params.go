package encoders

// clipParams maps CLIPModel's parameters to their HuggingFace checkpoint
// names (%d: layer); linear and LayerNorm entries name the module. The
// layer names are the same in both towers, under text or vision.
var clipParams = struct {
	text, vision                                       string
	tokenEmb, textPos, finalNorm                       string
	classEmb, patch, visionPos, preNorm, postNorm      string
	query, key, value, attnOut, norm1, fc1, fc2, norm2 string
	textProj, visualProj, logitScale                   string
}{
	text:       "text_model.",
	vision:     "vision_model.",
	tokenEmb:   "embeddings.token_embedding.weight",
	textPos:    "embeddings.position_embedding.weight",
	finalNorm:  "final_layer_norm",
	classEmb:   "embeddings.class_embedding",
	patch:      "embeddings.patch_embedding",
	visionPos:  "embeddings.position_embedding.weight",
	preNorm:    "pre_layrnorm", // sic, as in HF
	postNorm:   "post_layernorm",
	query:      "encoder.layers.%d.self_attn.q_proj",
	key:        "encoder.layers.%d.self_attn.k_proj",
	value:      "encoder.layers.%d.self_attn.v_proj",
	attnOut:    "encoder.layers.%d.self_attn.out_proj",
	norm1:      "encoder.layers.%d.layer_norm1",
	fc1:        "encoder.layers.%d.mlp.fc1",
	fc2:        "encoder.layers.%d.mlp.fc2",
	norm2:      "encoder.layers.%d.layer_norm2",
	textProj:   "text_projection",
	visualProj: "visual_projection",
	logitScale: "logit_scale",
}
