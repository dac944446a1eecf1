package ngram

import (
	"strings"
	"testing"
)

// ptbDiffSeeds exercise every lexer rule, in ASCII and out of it, plus
// invalid UTF-8, which both tokenizers turn into U+FFFD.
var ptbDiffSeeds = []string{
	"",
	"A man riding a wave on top of a surfboard.",
	`He can't stay -- "Mr. Smith" paid $3.50 (in the U.S.)!`,
	"I'm gonna go, they'll see; we've been there... You'd DON'T it's CANNOT Gimme lemme wanna gotta",
	"o'clock rock'n'roll n't 'n't a'b 'S 's x's X'RE x'Ve x'lL x'D x'M x'mm",
	"AT&T R&D a&b <b>bold</b> <!doctype> < > <a\nb> &amp; &AMP; &#39; &lt;x &;",
	"see http://example.com/a?b=c. or www.x.org, ftp://f.g/h) https://q.r/s's www. www.a",
	"mail john.doe+x@mail.example.com, or a@b.c. @ x@y z@yy.zz-",
	"-5 +3.5 −7 x-5 a -b 1,000 5:30 3.50 1/2 ½ ¾ ⅞ a/b a_b a-b u.s. p.m. e.g. Mass. etc. ETC. No. fig. Fig.",
	"!! ?! ! ? . .. .... - -- --- ---- ----- —– ― ‒ … \u0085 “quoted” «x» ‘single’ ‚x‛ `` `x' '' \u0091\u0092",
	"( ) [ ] { } % # $ / * @ ~ ^ | \\ = + ; : ,",
	"İstanbul fİg. KELVIN\u212a ǅ ẞ Σ ΣΑΣ straße ÉCOLE naïve café's 日本語 x\u0301y\u093fz",
	"bad \xff bytes \xc3( \xe2\x82 x\xa9y \xed\xa0\x80 \xf4\x90\x80\x80 'n\xff't \xef\xbb\xbf\u200b\ufeff",
	"tab\tnew\nline\r\nnul\x00del\x7f\u00a0nbsp\u2028ls",
}

// FuzzPTBAgainstOracle checks that ptbTokenizer appends exactly what the
// rune-based tokenizer it replaced returns, for any input, reusing one
// tokenizer across inputs and appending after existing bytes.
//
//	go test -run=^$ -fuzz=FuzzPTBAgainstOracle -fuzztime=60s ./ngram/
func FuzzPTBAgainstOracle(f *testing.F) {
	for _, s := range ptbDiffSeeds {
		f.Add(s)
	}
	var tok ptbTokenizer
	f.Fuzz(func(t *testing.T, s string) {
		want := oraclePTBTokenize(s)
		if got := string(tok.appendTokenized([]byte("prefix|"), s)); got != "prefix|"+want {
			t.Fatalf("appendTokenized(%q)\n got %q\nwant %q", s, got, "prefix|"+want)
		}
		if got := PTBTokenize(s); got != want {
			t.Fatalf("PTBTokenize(%q)\n got %q\nwant %q", s, got, want)
		}
	})
}

// TestPTBTokenizerMatchesOracle runs the seeds, each on its own and all
// joined, through one reused tokenizer.
func TestPTBTokenizerMatchesOracle(t *testing.T) {
	var tok ptbTokenizer
	var buf []byte
	cases := append(ptbDiffSeeds, strings.Join(ptbDiffSeeds, " "), strings.Join(ptbDiffSeeds, ""))
	for _, s := range cases {
		buf = tok.appendTokenized(buf[:0], s)
		if got, want := string(buf), oraclePTBTokenize(s); got != want {
			t.Errorf("appendTokenized(%q)\n got %q\nwant %q", s, got, want)
		}
	}
}

// TestIsPTBDroppedMatchesList checks the switch against ptbDropped, the
// toolkit's list, for its members and for tokens close to them.
func TestIsPTBDroppedMatchesList(t *testing.T) {
	toks := []string{"x", "'s", "...", "....", "---", "-lrb-", "-LRB-", "!!", "?", "/", "$", "''", "``", "`'"}
	for k := range ptbDropped {
		toks = append(toks, k)
	}
	for _, tok := range toks {
		if got, want := isPTBDropped(tok), ptbDropped[strings.ToLower(tok)]; got != want {
			t.Errorf("isPTBDropped(%q) = %v, want %v", tok, got, want)
		}
	}
}

// TestPTBAbbreviationFirst checks the assumption keepsPeriod makes when it
// rejects words by their first byte, and compares it with the oracle on
// every listed abbreviation in three casings.
func TestPTBAbbreviationFirst(t *testing.T) {
	for _, c := range "iIkK" {
		if ptbAbbreviationFirst[c]&ptbFirstAnyCase != 0 {
			t.Errorf("an any-case abbreviation starts with %q, which İ or K lower-cases to", c)
		}
	}
	var tok ptbTokenizer
	for _, set := range []map[string]bool{ptbAbbreviations, ptbAbbreviationsAnyCase} {
		for w := range set {
			for _, v := range []string{w, strings.ToUpper(w), strings.ToLower(w), w + "x", "x" + w} {
				if got, want := tok.keepsPeriod(v), oraclePtbKeepsPeriod(v); got != want {
					t.Errorf("keepsPeriod(%q) = %v, want %v", v, got, want)
				}
			}
		}
	}
}
