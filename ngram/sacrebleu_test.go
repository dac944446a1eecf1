package ngram

import "testing"

func TestSacreBLEUMatchesReference(t *testing.T) {
	const tol = 1e-9
	modes := []struct {
		name string
		opts SacreBLEUOptions
		ptb  bool // the mode scores PTB-tokenized strings with tokenizer none
	}{
		{"raw", SacreBLEUOptions{}, false},
		{"raw_lc", SacreBLEUOptions{Lowercase: true}, false},
		{"ptb", SacreBLEUOptions{Tokenizer: TokenizerNone}, true},
	}
	for _, name := range goldenCases {
		var in caseFile
		var gold sacreGolden
		readGzipJSON(t, name+".json.gz", &in)
		readGzipJSON(t, name+".sacrebleu.json.gz", &gold)
		raw, err := NewCorpus(in.Cands, in.Refs)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range modes {
			g, ok := gold.Modes[m.name]
			if !ok {
				continue // synth_300_seed11 has no ptb mode
			}
			c := raw
			if m.ptb {
				c = raw.Tokenized()
			}
			checked, exact := 0, 0
			check := func(what string, got, want float64) {
				checked++
				if got == want {
					exact++
				}
				if !relClose(got, want, tol) {
					t.Errorf("%s/%s %s = %.17g, want %.17g", name, m.name, what, got, want)
				}
			}
			eff, err := SacreBLEU(c, m.opts)
			if err != nil {
				t.Fatal(err)
			}
			noEffOpts := m.opts
			noEffOpts.ItemsWithoutEffectiveOrder = true
			noEff, err := SacreBLEU(c, noEffOpts)
			if err != nil {
				t.Fatal(err)
			}
			check("corpus", eff.Corpus, g.Corpus["BLEU"])
			for id, w := range g.Items {
				check(id+" BLEU", eff.Items[id], w["BLEU"])
				check(id+" BLEU_noeff", noEff.Items[id], w["BLEU_noeff"])
			}
			t.Logf("%s/%s: %d values within %g, %d bit-identical", name, m.name, checked, tol, exact)
		}
	}
}

func TestTokenize13a(t *testing.T) {
	// Expected strings follow the four substitutions of sacrebleu's
	// TokenizerRegexp by hand.
	tests := []struct{ in, want string }{
		{"Hello, world.", "Hello , world ."},
		{"It costs $3.50, or 1,000 yen.", "It costs $ 3.50 , or 1,000 yen ."},
		{"a.,b", "a . , b"},
		{"5-4 score; e-mail", "5 - 4 score ; e-mail"},
		{"&quot;quoted&quot; &amp; <skipped>done", `" quoted " & done`},
		{"line-\nbreak\nnext", "linebreak next"},
		{"café.", "café ."},
	}
	for _, tt := range tests {
		if got := Tokenize13a(tt.in); got != tt.want {
			t.Errorf("Tokenize13a(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
