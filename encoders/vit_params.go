package encoders

// vitPrefixes are the prefixes ViTModel's names (nn.WalkViT) have in the
// ViTFor… checkpoints; an encoder stored under any other prefix of a
// larger checkpoint loads through checkpoint.State.Sub(prefix).
var vitPrefixes = []string{"vit.", "model.vit."}

// vitClassifier names ViTForImageClassification's head, relative to the
// checkpoint root.
const vitClassifier = "classifier"
