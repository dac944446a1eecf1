package stylem

import "fmt"

// LabeledCaption is a tokenized caption with the style it was written in.
type LabeledCaption struct {
	Style  string
	Tokens []string
}

// OwnStyleShare evaluates a reference-free score as the paper's eq. 9: over
// every caption c of style p and every other style q of the table, the share
// of pairs with score(c, p) > score(c, q). exist selects OnlyStyleExist
// instead of OnlyStyle. Ties count as failures. It returns an error for an
// empty list or a style the table lacks.
func (t *Table) OwnStyleShare(captions []LabeledCaption, exist bool) (float64, error) {
	if len(captions) == 0 {
		return 0, fmt.Errorf("OwnStyleShare of no captions")
	}
	var sc *Scores
	wins, pairs := 0, 0
	for i, c := range captions {
		p, err := t.styleIndex(c.Style)
		if err != nil {
			return 0, fmt.Errorf("caption %d: %w", i, err)
		}
		if sc, err = t.Score(c.Tokens, nil, sc); err != nil {
			return 0, fmt.Errorf("caption %d: %w", i, err)
		}
		v := sc.OnlyStyle
		if exist {
			v = sc.OnlyStyleExist
		}
		for q := range v {
			if q == p {
				continue
			}
			pairs++
			if v[p] > v[q] {
				wins++
			}
		}
	}
	return float64(wins) / float64(pairs), nil
}

// StyleCIDErCase is one caption for StyleCIDErShare: its style, its tokens,
// references written in the same style and references in another style.
type StyleCIDErCase struct {
	Style     string
	Tokens    []string
	SameRefs  [][]string
	OtherRefs [][]string
}

// StyleCIDErShare evaluates StyleCIDEr as the paper's eq. 10: the share of
// cases whose StyleCIDEr under their own style is higher against the
// same-style references than against the other-style references. Ties
// count as failures.
func (t *Table) StyleCIDErShare(cases []StyleCIDErCase) (float64, error) {
	if len(cases) == 0 {
		return 0, fmt.Errorf("StyleCIDErShare of no cases")
	}
	wins := 0
	var same, other *Scores
	for i, c := range cases {
		p, err := t.styleIndex(c.Style)
		if err != nil {
			return 0, fmt.Errorf("case %d: %w", i, err)
		}
		if len(c.SameRefs) == 0 || len(c.OtherRefs) == 0 {
			return 0, fmt.Errorf("case %d: needs same-style and other-style references", i)
		}
		if same, err = t.Score(c.Tokens, c.SameRefs, same); err != nil {
			return 0, fmt.Errorf("case %d: %w", i, err)
		}
		if other, err = t.Score(c.Tokens, c.OtherRefs, other); err != nil {
			return 0, fmt.Errorf("case %d: %w", i, err)
		}
		if same.StyleCIDEr[p] > other.StyleCIDEr[p] {
			wins++
		}
	}
	return float64(wins) / float64(len(cases)), nil
}
