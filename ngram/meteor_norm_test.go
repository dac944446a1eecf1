package ngram

import (
	"strings"
	"testing"
)

// Expected outputs below are those of Meteor 1.5's Normalizer.normalizeLine
// (language en, punctuation kept) followed by String.toLowerCase, obtained by
// running the Java classes built from github.com/cmu-mtlab/meteor.
var meteorNormCases = []struct{ in, want string }{
	{"The U.S. flag waves over the White House at 5:30 p.m.", "the us flag waves over the white house at 5 : 30 pm"},
	{"He didn't know what to say... so he said nothing at all.", "he didn 't know what to say ... so he said nothing at all ."},
	{"A sign reads “Welcome” — with ‘fancy’ quotes…", "a sign reads \" welcome \" — with ' fancy ' quotes …"},
	{"A 50% off sale; #1 deal at the U.S. store -- 1,000 items for $3.50 each.", "a 50 % off sale ; # 1 deal at the us store - 1,000 items for $ 3.50 each ."},
	{"A café with tables outside — people drinking coffee.", "a café with tables outside — people drinking coffee ."},
	{"The train is pulling into the station -- it's late again!", "the train is pulling into the station - it 's late again !"},
	{"e-mail me at the office, Mr. Smith said.", "e mail me at the office , mr. smith said ."},
	{"Éç&", "éç &"},
	{")0e.g.DOTΣ", ") 0e.g.dot σ"},
	{"+/ …^ ᴀMr.   ?”Ÿ‘ +ö1,000& b ^— ", "+ / … ^ ᴀmr . ? \" ÿ ' + ö1,000 & b ^ —"},
	{"[U.S.?] ...Ø e.g. ?, Øž", "[ us ? ] ... ø eg ? , øž"},
	{"\" - ", "\" -"},
	{"Α| Z İ + { 'A. ) .”  5.5'U.S.[ Ÿ}p.m. –! É... ", "α | z i̇ + { ' a. ) . \" 55'us [ ÿ } pm - ! é ..."},
	{"A. e.g.?ž", "a. eg ? ž"},
	{":Inc.  9., ÉNo. n't | ", ": inc . 9 . , éno. n 't |"},
	// The escape text DOTMULTI in the input is itself rewritten.
	{"/p.m.Z>! ꙀÉ's ]:ç , DOTMULTI’ a ]?$)DOT ", "/ p.m.z > ! ꙁé 's ] : ç , . ' a ] ? $ ) dot"},
	{"^!'Σz U.S./ö 1,000  [ --DOTØ Š $ DOTMULTIİ\t&$” Σ", "^ ! ' σ z us / ö 1,000 [ -dotø š $ .i̇ & $ \" σ"},
	{"É!\\%ö ^# Z DOTMULTI> “A.. Ꙁ>\"# e.g.İe.g.‘ ’Σ", "é ! \\ % ö ^ # z . > \" a .. ꙁ > \" # egi̇eg ' ' σ"},
	{"", ""},
	{"a,b,c", "a , b,c"},
	{"Wait....what?!", "wait .... what ? !"},
}

func TestMeteorNormalizeMatchesJar(t *testing.T) {
	res, err := loadMeteorResources()
	if err != nil {
		t.Fatal(err)
	}
	nz := &meteorNormalizer{prefixes: res.prefixes}
	for _, c := range meteorNormCases {
		if got := nz.normalize(c.in); got != c.want {
			t.Errorf("normalize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMeteorNormalizeDotRuns checks the fast multi-dot path against the
// literal replay of the reference's escape loops.
func TestMeteorNormalizeDotRuns(t *testing.T) {
	res, err := loadMeteorResources()
	if err != nil {
		t.Fatal(err)
	}
	nz := &meteorNormalizer{prefixes: res.prefixes}
	for _, in := range []string{"a..b", "x.... Y", "U.S.. then", "...", "e.g...", "Mr.. Smith", "a . . .. .", "5..6", "end.."} {
		if got, want := nz.normalize(in), meteorJavaLower(meteorNormalizeLiteral(string(nz.separate(in)), res.prefixes)); got != want {
			t.Errorf("normalize(%q) = %q, literal replay %q", in, got, want)
		}
	}
}

// TestMeteorNormalizeLiteralBudget: a pathological line (the escape text plus
// a long dot run) is normalized in bounded time, like the fast path.
func TestMeteorNormalizeLiteralBudget(t *testing.T) {
	res, err := loadMeteorResources()
	if err != nil {
		t.Fatal(err)
	}
	nz := &meteorNormalizer{prefixes: res.prefixes}
	line := "DOTMULTI x" + strings.Repeat(".", 20000) + strings.Repeat(" y", 2000)
	got := nz.normalize(line)
	want := "dotmulti x " + strings.Repeat(".", 20000) + strings.Repeat(" y", 2000)
	if got != want {
		t.Errorf("normalize: got %d bytes %.40q..., want %d bytes %.40q...", len(got), got, len(want), want)
	}
}
