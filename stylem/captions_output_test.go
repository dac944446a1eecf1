package stylem

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestScoreAllMatchesFixture scores the toy fixture's captions from their
// JSONL file and checks all 27 scores, then that the JSON and CSV writers
// carry them exactly (null / NaN for an undefined StyleCIDEr).
func TestScoreAllMatchesFixture(t *testing.T) {
	fx := loadToy(t)
	tab := buildToy(t, fx, ECDFCountRatio)
	got, err := tab.ScoreAll(bytes.NewReader(readGzip(t, "toy_score.jsonl.gz")), Simple)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.IDs, ",") != "t1,t2,t3" || strings.Join(got.Styles, ",") != "Happy,Gloomy,Angry" {
		t.Fatalf("ids %v, styles %v", got.IDs, got.Styles)
	}
	want := func(i int, style string) [3]float64 {
		return [3]float64{fx.OnlyStyle[style][i], fx.Exist[style][i], fx.StyleCIDEr[style][i]}
	}
	n := 0
	for i := range got.IDs {
		for s, style := range got.Styles {
			if got.Scores[i][s] != want(i, style) {
				t.Errorf("%s %s = %v, want %v", got.IDs[i], style, got.Scores[i][s], want(i, style))
			}
			n++
		}
	}
	if n != 9 {
		t.Errorf("compared %d rows of 3, want 9", n)
	}

	got.Scores[2][1][2] = math.NaN() // an undefined StyleCIDEr
	var js bytes.Buffer
	if err := got.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var items struct {
		Items map[string]map[string]map[string]*float64 `json:"items"`
	}
	if err := json.Unmarshal(js.Bytes(), &items); err != nil {
		t.Fatalf("%v\n%s", err, js.String())
	}
	if v := items.Items["t3"]["Gloomy"]["stylecider"]; v != nil {
		t.Errorf("NaN written as %v, want null", *v)
	}
	if v := items.Items["t2"]["Angry"]["onlystyle_exist"]; v == nil || *v != fx.Exist["Angry"][1] {
		t.Errorf("t2 Angry onlystyle_exist = %v, want %v", v, fx.Exist["Angry"][1])
	}
	if !strings.HasPrefix(js.String(), "{\n  \"items\": {\n    \"t1\": {\n      \"Happy\": {\"onlystyle\": ") {
		t.Errorf("JSON layout:\n%s", js.String())
	}

	var cs bytes.Buffer
	if err := got.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 10 || strings.Join(rows[0], ",") != "id,style,onlystyle,onlystyle_exist,stylecider" {
		t.Fatalf("CSV rows %v", rows)
	}
	if rows[8][0] != "t3" || rows[8][1] != "Gloomy" || rows[8][4] != "NaN" {
		t.Errorf("row 8: %v", rows[8])
	}
	if v, _ := strconv.ParseFloat(rows[1][2], 64); v != fx.OnlyStyle["Happy"][0] {
		t.Errorf("t1 Happy onlystyle = %s, want %v", rows[1][2], fx.OnlyStyle["Happy"][0])
	}

	if _, err := tab.ScoreAll(strings.NewReader(""), Simple); err == nil || err.Error() != "no captions to score (the file is empty)" {
		t.Errorf("empty input: %v", err)
	}
}
