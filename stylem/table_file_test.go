package stylem

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/limits"
)

func TestTableRoundTrip(t *testing.T) {
	fx := loadToy(t)
	for _, opts := range []BuildOptions{
		{Step: Simple, StepName: "simple", ECDF: ECDFCountRatio},
		{Step: Simple, StepName: "simple", Formula: CNGSumOverStyleCount},
	} {
		tab, err := Build(toyRecords(fx), opts)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		n, err := tab.WriteTo(&buf)
		if err != nil || n != int64(buf.Len()) {
			t.Fatalf("WriteTo = %d, %v; wrote %d bytes", n, err, buf.Len())
		}
		got, err := ReadTable(bytes.NewReader(buf.Bytes()), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Formula() != tab.Formula() || got.ECDF() != tab.ECDF() || got.Tokenization() != "simple" ||
			strings.Join(got.Styles(), ",") != strings.Join(tab.Styles(), ",") || got.NumNgrams() != tab.NumNgrams() {
			t.Fatalf("read table differs in its header: %v %v %q %v", got.Formula(), got.ECDF(), got.Tokenization(), got.Styles())
		}
		for i := range tab.order {
			g := tab.ngramText(uint32(i))
			for _, s := range tab.styles {
				c1, ok1 := tab.CNG(s, g)
				c2, ok2 := got.CNG(s, g)
				if c1 != c2 || ok1 != ok2 || tab.DocFreq(s, g) != got.DocFreq(s, g) {
					t.Fatalf("n-gram %d %q style %s: %v/%v vs %v/%v", i, g, s, c1, ok1, c2, ok2)
				}
			}
		}
		// Scores from the read table are bit-identical.
		for _, tc := range fx.Tests.Values {
			var refs [][]string
			for _, r := range tc.Refs {
				refs = append(refs, strings.Fields(r))
			}
			a, _ := tab.Score(strings.Fields(tc.Hyp), refs, nil)
			b, _ := got.Score(strings.Fields(tc.Hyp), refs, nil)
			for s := range a.StyleCIDEr {
				if a.StyleCIDEr[s] != b.StyleCIDEr[s] || a.OnlyStyle[s] != b.OnlyStyle[s] || a.OnlyStyleExist[s] != b.OnlyStyleExist[s] {
					t.Fatalf("scores differ after a round trip: %+v vs %+v", a, b)
				}
			}
		}
	}
}

// body gzips a hand-written table body behind a valid header.
func tableBytes(version uint16, body []byte) []byte {
	var buf bytes.Buffer
	buf.WriteString(tableMagic)
	binary.Write(&buf, binary.LittleEndian, version)
	zw := gzip.NewWriter(&buf)
	zw.Write(body)
	zw.Close()
	return buf.Bytes()
}

// uv encodes uvarints and strings for hand-written bodies.
func uv(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = binary.AppendUvarint(b, uint64(v))
		case string:
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		case float64:
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

func TestReadTableRejects(t *testing.T) {
	// A valid minimal table: 2 styles, tokens "a", "<eos>", the unigram "a"
	// in both styles and the bigram "a <eos>" in style 0.
	valid := uv(0, 0, "simple", 2, "A", "B", 2, "a", "<eos>", 2, 0, 1, 2, 0, 1, 0.5, 1, 2, -0.5, 1, 2, 1, 0, 1, 0.5)
	// pad keeps short bodies long enough for their n-gram counts, so that
	// the error each case is about is the one reached.
	pad := string(make([]byte, 32))
	if _, err := ReadTable(bytes.NewReader(tableBytes(1, valid)), ReadOptions{}); err != nil {
		t.Fatalf("valid table rejected: %v", err)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"magic", append([]byte("STYLEMTX\x01\x00"), tableBytes(1, valid)[10:]...), "not a StyleM table"},
		{"version", tableBytes(3, valid), "version 3 is not supported (want 1 to 2)"},
		{"version 0", tableBytes(0, valid), "version 0 is not supported"},
		{"short", []byte("STYLEM"), "header"},
		{"not gzip", []byte("STYLEMTB\x01\x00plain"), "table body"},
		{"truncated", tableBytes(1, valid[:len(valid)-3]), "truncated"},
		{"trailing", tableBytes(1, append(valid[:len(valid):len(valid)], 0)), "trailing data"},
		{"formula", tableBytes(1, uv(7)), "unknown CNG formula"},
		{"ecdf", tableBytes(1, uv(0, 9)), "unknown ECDF kind"},
		{"one style", tableBytes(1, uv(0, 0, "simple", 1, "A")), "at least 2"},
		{"dup style", tableBytes(1, uv(0, 0, "simple", 2, "A", "A")), `"A" appears twice`},
		{"empty style", tableBytes(1, uv(0, 0, "simple", 2, "A", "")), "empty name"},
		{"too many n-grams", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1000, pad)), "n-gram count 1000 exceeds what the remaining 33 bytes can hold"},
		{"too many tokens", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1000, pad)), "token count 1000 exceeds what the remaining 33 bytes can hold"},
		{"dup token", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 2, "a", "a")), `"a" appears twice`},
		{"space token", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a b")), "white space"},
		{"prefix later", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 1, pad)), "n-gram prefix = 1 exceeds 0"},
		{"prefix before the start", tableBytes(2, uv(0, 0, "simple", 2, "A", "B", 1, "a", 2, 2, 0, 1, 1, 0, 1, 0.1, 2, 1, pad)), "n-gram prefix = 2 exceeds 1"},
		{"v2 entry count below n-grams", tableBytes(2, uv(0, 0, "simple", 2, "A", "B", 1, "a", 2, 1, pad)), "entry count 1 is fewer than the 2 n-grams"},
		{"v2 entry count too large", tableBytes(2, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 1000, pad)), "entry count 1000 is fewer than the 1 n-grams or more than the remaining"},
		{"v2 entry count wrong", tableBytes(2, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 2, 0, 1, 1, 0, 1, 0.1, pad)), "1 entries, but the entry count says 2"},
		{"5-gram", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 5, 0, 1, 1, 0, 1, 0.1, 1, 1, 1, 0, 1, 0.1, 2, 1, 1, 0, 1, 0.1, 3, 1, 1, 0, 1, 0.1, 4, 1, pad)), "extends the 4-gram"},
		{"token id", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 0, 2, pad)), "token id = 2"},
		{"token id 0", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 0, 0, pad)), "token id 0"},
		{"no entries", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 0, 1, 0, pad)), "no style"},
		{"style index", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 0, 1, 1, 2, pad)), "style index = 2"},
		{"df 0", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 0, 1, 1, 0, 0, pad)), "df 0"},
		{"order of styles", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 0, 1, 2, 1, 1, 0.1, 0, 1, 0.1, pad)), "not increasing"},
		{"nan", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 1, 0, 1, 1, 0, 1, math.NaN(), pad)), "outside [-1, 1]"},
		{"dup ngram", tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 1, "a", 2, 0, 1, 1, 0, 1, 0.1, 0, 1, 1, 0, 1, 0.1, pad)), `"a" appears twice`},
	}
	for _, tt := range tests {
		_, err := ReadTable(bytes.NewReader(tt.data), ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error = %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	if _, err := ReadTable(bytes.NewReader(tableBytes(1, valid)), ReadOptions{Limits: limits.Limits{MaxBytes: 10}}); !errors.As(err, new(*limits.TooLargeError)) {
		t.Errorf("size limit: error = %v", err)
	}
}

func FuzzReadTable(f *testing.F) {
	fx := loadToy(f)
	tab, err := Build(toyRecords(fx), BuildOptions{Step: Simple})
	if err != nil {
		f.Fatal(err)
	}
	var buf bytes.Buffer
	tab.WriteTo(&buf)
	f.Add(buf.Bytes())
	f.Add(tableBytes(1, uv(0, 0, "simple", 2, "A", "B", 2, "a", "<eos>", 2, 0, 1, 2, 0, 1, 0.5, 1, 2, -0.5, 1, 2, 1, 0, 1, 0.5)))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := ReadTable(bytes.NewReader(data), ReadOptions{Limits: limits.Limits{MaxBytes: 1 << 20}})
		if err != nil {
			return
		}
		// A table that loads must score without failing.
		if _, err := got.Score([]string{"a", "<eos>"}, [][]string{{"a", "b", "<eos>"}}, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// zeroGzip is a gzip stream of n zero bytes (about n/1000 bytes long).
func zeroGzip(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	chunk := make([]byte, 1<<20)
	for ; n > 0; n -= len(chunk) {
		zw.Write(chunk[:min(n, len(chunk))])
	}
	zw.Close()
	return buf.Bytes()
}

// TestReadTableStopsADecompressionBombFastAndSmall feeds a valid header and
// a gzip body of 64 MiB of zeros (about 64 KB on disk), well within the
// absolute limit: the ratio bound must stop it after a few megabytes.
func TestReadTableStopsADecompressionBombFastAndSmall(t *testing.T) {
	hdr := append([]byte(tableMagic), 1, 0)
	bomb := append(hdr, zeroGzip(t, 64<<20)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadTable(bytes.NewReader(bomb), ReadOptions{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "decompression bomb") {
		t.Fatalf("err = %v, want a decompression-bomb error", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 128<<20 {
		t.Errorf("allocated %d MB before failing, want at most 128 MB", alloc>>20)
	}
}

// TestTablePrefixByVersion reads one body as version 1 (prefix = 1 + the
// index of the (n−1)-gram) and as version 2 (prefix = how many places
// back it is): the third n-gram is "b b" in the first, "a b" in the
// second.
func TestTablePrefixByVersion(t *testing.T) {
	head := uv(0, 0, "simple", 2, "A", "B", 2, "a", "b", 3)
	ngrams := uv(0, 1, 1, 0, 1, 0.5,
		0, 2, 1, 0, 1, 0.5,
		2, 2, 1, 0, 1, 0.5)
	for version, want := range map[uint16]string{1: "b b", 2: "a b"} {
		body := slices.Concat(head, ngrams)
		if version == 2 {
			body = slices.Concat(head, uv(3), ngrams) // the entry count
		}
		tab, err := ReadTable(bytes.NewReader(tableBytes(version, body)), ReadOptions{})
		if err != nil {
			t.Fatalf("version %d: %v", version, err)
		}
		if got := tab.ngramText(2); got != want {
			t.Errorf("version %d: n-gram 2 is %q, want %q", version, got, want)
		}
	}
}
