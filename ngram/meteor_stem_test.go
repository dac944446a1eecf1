package ngram

import "testing"

// Stems of Meteor 1.5's Java englishStemmer (org.tartarus.snowball), obtained
// by running it; they include the places where github.com/kljensen/snowball
// alone would differ (short non-ASCII words, which Java leaves alone).
func TestMeteorStemMatchesJar(t *testing.T) {
	cases := []struct{ in, want string }{
		{"'hood", "hood"}, {"running", "run"}, {"caresses", "caress"}, {"ponies", "poni"},
		{"ties", "tie"}, {"dying", "die"}, {"news", "news"}, {"skies", "sky"},
		{"generously", "generous"}, {"communism", "communism"}, {"arsenal", "arsenal"},
		{"épées", "épées"}, {"naïvely", "naïv"}, {"généralement", "généralement"},
		{"éa", "éa"}, {"éas", "éas"}, {"ïy", "ïy"}, {"abilities", "abil"}, {"y's", "y"},
		{"yay", "yay"}, {"sky", "sky"}, {"proceeded", "proceed"}, {"1990s", "1990s"},
		{"café", "café"}, {"cafés", "café"}, {"don't", "don't"}, {"n't", "n't"},
		{"'s", "'s"}, {"there's", "there"},
	}
	for _, c := range cases {
		if got := meteorStem(c.in); got != c.want {
			t.Errorf("meteorStem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMeteorStemShield checks that runes the Go stemmer would trim or
// lower-case pass through unchanged, as in Java.
func TestMeteorStemShield(t *testing.T) {
	cases := []struct{ in, want string }{
		{"\u0085running", "\u0085run"},
		{"walkedX", "walkedX"},
		{"jumps\u2028", "jumps\u2028"},
	}
	for _, c := range cases {
		if got := meteorStem(c.in); got != c.want {
			t.Errorf("meteorStem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Expected values are Java's String.hashCode.
func TestMeteorJavaHash(t *testing.T) {
	cases := []struct {
		in   string
		want int32
	}{
		{"", 0}, {"a", 97}, {"hello", 99162322}, {"Aa", 2112}, {"BB", 2112},
		{"café", 3045921}, {"😀", 1772899},
	}
	for _, c := range cases {
		if got := meteorJavaHash(c.in); got != c.want {
			t.Errorf("meteorJavaHash(%q) = %d, want %d", c.in, got, c.want)
		}
	}
}

// TestMeteorStemApostrophes checks words with apostrophes against Meteor
// 1.5's Java englishStemmer (run through SnowballStemmerWrapper): it leaves
// the curly apostrophes alone and deletes one leading apostrophe, where
// github.com/kljensen/snowball alone normalizes the former and trims all
// of the latter.
func TestMeteorStemApostrophes(t *testing.T) {
	cases := []struct{ in, want string }{
		{"‘fancy’", "‘fancy’"}, {"''abc", "'abc"}, {"'''running", "''run"},
		{"’s", "’s"}, {"dog’s", "dog’"}, {"dogs’", "dogs’"}, {"'running", "run"},
		{"''s", ""}, {"''running''", "'running'"}, {"‛cats", "‛cat"},
		{"Running’s", "Running’"}, {"x’", "x’"}, {"ab’", "ab’"},
		{"’’cats", "’’cat"}, {"''", "''"}, {"'''", "'"}, {"''s'", ""},
		{"''Running", "'Run"}, {"''yes", "'ye"}, {"''ies", "'ie"}, {"'''s", "'"},
		{"''generous", "'gener"}, {"''ss", "'ss"}, {"''a", "'a"},
		{"''sky", "'ski"}, {"''skis", "'skis"}, {"''ab", "'ab"}, {"'''ies", "''i"},
		{"''y", "'y"}, {"''ys", "'ys"}, {"''s's", "'s"},
	}
	for _, c := range cases {
		if got := meteorStem(c.in); got != c.want {
			t.Errorf("meteorStem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
