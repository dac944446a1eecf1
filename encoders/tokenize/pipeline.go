package tokenize

import "fmt"

// pipeline turns the tokens of a family into model inputs: special tokens,
// type ids, truncation and padding, as HF's PreTrainedTokenizer does for the
// three families. It holds no mutable state.
type pipeline struct {
	name     string                     // family name for error messages
	tokenize func(text string) []string // full HF tokenize(), specials split
	lookup   func(tok string) int       // token to id, unknown id if absent
	tokenOf  func(id int) string        // id to vocabulary token

	open, close     string // [CLS]/[SEP] or <|startoftext|>/<|endoftext|>
	openID, closeID int
	// doubleClose puts close twice between the texts of a pair and gives the
	// second text type id 0, as CLIPTokenizer's build_inputs_with_special_tokens
	// and create_token_type_ids_from_sequences do; otherwise the pair is
	// open A close B close with type ids 0…0 1…1 (BERT, ALBERT).
	doubleClose bool

	padToken string
	padID    int
	modelMax int
}

// numSpecial is HF's num_special_tokens_to_add.
func (p *pipeline) numSpecial(pair bool) int {
	switch {
	case !pair:
		return 2
	case p.doubleClose:
		return 4
	}
	return 3
}

// segment is one tokenized text.
type segment struct {
	tokens []string
	ids    []int
}

func (p *pipeline) segmentOf(text string) segment {
	toks := p.tokenize(text)
	ids := make([]int, len(toks))
	for i, t := range toks {
		ids[i] = p.lookup(t)
		// HF reports convert_ids_to_tokens(input_ids): an unknown piece
		// becomes the unknown token.
		toks[i] = p.tokenOf(ids[i])
	}
	return segment{toks, ids}
}

func (s segment) cut(n int) segment {
	if n > len(s.ids) {
		n = len(s.ids)
	}
	return segment{s.tokens[:len(s.tokens)-n], s.ids[:len(s.ids)-n]}
}

// truncate shortens a and b as HF 4.29's truncate_sequences. Matches the
// reference implementation, which leaves the input untruncated (and logs an
// error) when the sequence it may cut is not longer than the excess, and
// which ignores OnlySecond for a single text.
func truncate(a, b segment, pair bool, excess int, strategy Truncation) (segment, segment) {
	if excess <= 0 {
		return a, b
	}
	switch {
	case strategy == OnlyFirst || (strategy == LongestFirst && !pair):
		if len(a.ids) > excess {
			a = a.cut(excess)
		}
	case strategy == LongestFirst:
		// One token at a time from the longer sequence, the second on ties.
		na, nb := len(a.ids), len(b.ids)
		for range excess {
			if na > nb {
				na--
			} else if nb > 0 {
				nb--
			}
		}
		a, b = a.cut(len(a.ids)-na), b.cut(len(b.ids)-nb)
	case strategy == OnlySecond && pair:
		if len(b.ids) > excess {
			b = b.cut(excess)
		}
	}
	return a, b
}

// assemble adds the special tokens around a (and b).
func (p *pipeline) assemble(a, b segment, pair bool) Encoding {
	n := len(a.ids) + p.numSpecial(pair)
	if pair {
		n += len(b.ids)
	}
	e := Encoding{
		IDs:           make([]int, 0, n),
		Tokens:        make([]string, 0, n),
		TypeIDs:       make([]int, 0, n),
		AttentionMask: make([]int, 0, n),
	}
	add := func(tok string, id, typ int) {
		e.IDs = append(e.IDs, id)
		e.Tokens = append(e.Tokens, tok)
		e.TypeIDs = append(e.TypeIDs, typ)
		e.AttentionMask = append(e.AttentionMask, 1)
	}
	add(p.open, p.openID, 0)
	for i, id := range a.ids {
		add(a.tokens[i], id, 0)
	}
	add(p.close, p.closeID, 0)
	if !pair {
		return e
	}
	typ := 1
	if p.doubleClose {
		add(p.close, p.closeID, 0)
		typ = 0
	}
	for i, id := range b.ids {
		add(b.tokens[i], id, typ)
	}
	add(p.close, p.closeID, typ)
	return e
}

func (p *pipeline) encode(a, b string, pair bool, opt Options) (Encoding, error) {
	if err := opt.validate(); err != nil {
		return Encoding{}, fmt.Errorf("%s: %w", p.name, err)
	}
	sa := p.segmentOf(a)
	var sb segment
	if pair {
		sb = p.segmentOf(b)
	}
	if limit, ok := opt.maxLength(p.modelMax); ok && opt.Truncation != NoTruncation {
		total := len(sa.ids) + len(sb.ids) + p.numSpecial(pair)
		sa, sb = truncate(sa, sb, pair, total-limit, opt.Truncation)
	}
	return p.assemble(sa, sb, pair), nil
}

// pad pads every encoding on the right, with the pad token, type id 0 and
// attention 0, to the longest of the batch or to the maximum length.
func (p *pipeline) pad(batch []Encoding, opt Options) {
	target := 0
	switch opt.Padding {
	case NoPadding:
		return
	case PadLongest:
		for _, e := range batch {
			target = max(target, e.Len())
		}
	case PadMaxLength:
		var ok bool
		if target, ok = opt.maxLength(p.modelMax); !ok {
			return
		}
	}
	for i := range batch {
		e := &batch[i]
		for e.Len() < target {
			e.IDs = append(e.IDs, p.padID)
			e.Tokens = append(e.Tokens, p.padToken)
			e.TypeIDs = append(e.TypeIDs, 0)
			e.AttentionMask = append(e.AttentionMask, 0)
		}
	}
}

func (p *pipeline) encodeBatch(a, b []string, pair bool, opt Options) ([]Encoding, error) {
	if err := opt.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	if pair && len(a) != len(b) {
		return nil, fmt.Errorf("%s: pair batch has %d first texts but %d second texts", p.name, len(a), len(b))
	}
	out := make([]Encoding, len(a))
	for i := range a {
		var bi string
		if pair {
			bi = b[i]
		}
		e, err := p.encode(a[i], bi, pair, opt)
		if err != nil {
			return nil, fmt.Errorf("batch item %d: %w", i, err)
		}
		out[i] = e
	}
	p.pad(out, opt)
	return out, nil
}
