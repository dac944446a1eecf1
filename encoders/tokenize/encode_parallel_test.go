package tokenize

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestEncodeBatchParallel checks that several goroutines' chunks give what
// one EncodeBatch of all texts gives, for each family and padding, and
// that with the longest text passed along, the batches of a split file
// are padded as one batch of the whole file.
func TestEncodeBatchParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	bert, albert, clip := loadTestTokenizers(t)
	texts := make([]string, 300)
	for i := range texts {
		texts[i] = strings.Repeat(fmt.Sprintf("word%d café, ", i%7), i%13)
	}
	longest := texts[12] // 12 repetitions, the most
	for _, enc := range []Encoder{bert, albert, clip} {
		for _, opt := range []Options{{}, {Padding: PadLongest}, {Padding: PadMaxLength, MaxLength: 20, Truncation: LongestFirst}} {
			want, err := enc.EncodeBatch(texts, opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EncodeBatchParallel(enc, texts, opt, nil)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("%T %+v: parallel differs from EncodeBatch (err %v)", enc, opt, err)
			}
			// Two halves, each padded along the longest text of both.
			a, errA := EncodeBatchParallel(enc, texts[:150], opt, &longest)
			b, errB := EncodeBatchParallel(enc, texts[150:], opt, &longest)
			if errA != nil || errB != nil || !reflect.DeepEqual(append(a, b...), want) {
				t.Fatalf("%T %+v: halves padded along the longest differ from one batch (%v, %v)", enc, opt, errA, errB)
			}
		}
	}
	if _, err := EncodeBatchParallel(bert, texts, Options{MaxLength: -1}, nil); err == nil || !strings.Contains(err.Error(), "negative MaxLength -1") {
		t.Errorf("invalid options: %v", err)
	}
}

// TestEncodingJSON checks the members HF's tokenizer(...) dictionary has,
// in the order the tokenize command prints them.
func TestEncodingJSON(t *testing.T) {
	bert, _, _ := loadTestTokenizers(t)
	data, err := json.Marshal(bert.Encode("Hello"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tokens":["[CLS]","hello","[SEP]"],"input_ids":[101,7592,102],"attention_mask":[1,1,1],"token_type_ids":[0,0,0]}`
	if string(data) != want {
		t.Errorf("got  %s\nwant %s", data, want)
	}
}
