package vrank

import (
	"strings"
	"testing"
)

func TestParseFeatureAndEncoding(t *testing.T) {
	if f, err := ParseFeature("pooler"); err != nil || f != FeaturePooler {
		t.Errorf("ParseFeature(pooler) = %v, %v", f, err)
	}
	if f, err := ParseFeature("cls"); err != nil || f != FeatureCLS {
		t.Errorf("ParseFeature(cls) = %v, %v", f, err)
	}
	if e, err := ParseInputEncoding("pair"); err != nil || e != TextPair {
		t.Errorf("ParseInputEncoding(pair) = %v, %v", e, err)
	}
	if e, err := ParseInputEncoding("joined"); err != nil || e != JoinedText {
		t.Errorf("ParseInputEncoding(joined) = %v, %v", e, err)
	}
	if _, err := ParseFeature("CLS"); err == nil || !strings.Contains(err.Error(), `want cls or pooler, got "CLS"`) {
		t.Errorf("ParseFeature(CLS): %v", err)
	}
	if _, err := ParseInputEncoding(""); err == nil || !strings.Contains(err.Error(), `want joined or pair, got ""`) {
		t.Errorf("ParseInputEncoding(\"\"): %v", err)
	}
}
