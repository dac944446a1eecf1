package vrank

import "fmt"

// ParseFeature reads a Feature by its name (Feature.String): cls or
// pooler.
func ParseFeature(name string) (Feature, error) {
	for _, f := range []Feature{FeatureCLS, FeaturePooler} {
		if name == f.String() {
			return f, nil
		}
	}
	return 0, fmt.Errorf("want cls or pooler, got %q", name)
}

// ParseInputEncoding reads an InputEncoding by its name
// (InputEncoding.String): joined or pair.
func ParseInputEncoding(name string) (InputEncoding, error) {
	for _, e := range []InputEncoding{JoinedText, TextPair} {
		if name == e.String() {
			return e, nil
		}
	}
	return 0, fmt.Errorf("want joined or pair, got %q", name)
}
