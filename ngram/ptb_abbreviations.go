package ngram

import "strings"

// The abbreviation lists of PTBLexer (ABMONTH, ABDAYS, ABSTATE, ABCOMP,
// ABNUM, ABPTIT, ABVARIA and ABTITLE): a word from these lists keeps its
// period ("Mr.", "St.", "Mass."), any other word loses it to a separate "."
// token. ptbAbbreviations is case-sensitive (as the lexer is for words that
// are also common English words); ptbAbbreviationsAnyCase is not.
var (
	ptbAbbreviations = setOf(
		// Titles.
		"Mr Mrs Ms Miss Dr Drs Prof Profs Sen Sens Rep Reps Atty Attys Lt Col Gen Messrs Gov Govs Adm Rev Fr Maj Sgt Cpl Pvt Capt St Ste Sta Ave Pres Lieut Hon Brig Cmdr Comdr Pfc Spc Supt Supts Det Mt Ft Adj Adv Asst Assoc Ens Insp Mlle Mme Msgr Sfc",
		// Months and days ("May." is a word, so it is absent).
		"Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec Mon Tue Tues Wed Thu Thurs Fri",
		// States.
		"Ala Ariz Ark Calif Colo Conn Dak Del Fla Ga Ill Ind Kan Kans Ky La Md Mass Mich Minn Miss Mo Mont Neb Nev Okla Ore Pa Penn Tenn Tex Va Vt Wash Wis Wisc Wyo",
		// Companies and name suffixes.
		"Inc Co Cos Corp Pty Ltd Plc Bancorp Bhd Assn Univ Intl Sys Jr Sr Bros Esq",
	)
	ptbAbbreviationsAnyCase = setOf("etc al seq vs tel est ext sq no nos fig figs approx dept")

	// ptbAbbreviationFirst marks the bytes an abbreviation can start with:
	// ptbFirstCased for ptbAbbreviations, ptbFirstAnyCase (both cases) for
	// ptbAbbreviationsAnyCase. Most words fail this test, which saves the
	// map lookups (and the lower-casing) for them.
	ptbAbbreviationFirst = func() (tab [256]uint8) {
		for w := range ptbAbbreviations {
			tab[w[0]] |= ptbFirstCased
		}
		for w := range ptbAbbreviationsAnyCase {
			tab[w[0]] |= ptbFirstAnyCase
			tab[strings.ToUpper(w[:1])[0]] |= ptbFirstAnyCase
		}
		return tab
	}()
)

const (
	ptbFirstCased = 1 << iota
	ptbFirstAnyCase
)

func setOf(lists ...string) map[string]bool {
	m := map[string]bool{}
	for _, l := range lists {
		for _, w := range strings.Fields(l) {
			m[w] = true
		}
	}
	return m
}
