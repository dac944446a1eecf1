package groovist

import (
	"context"
	"fmt"

	"github.com/storyeval/storyeval/embcache"
	"github.com/storyeval/storyeval/encoders"
)

// textLookup is a batch of texts looked up in a cache: the rows found, and
// the token ids and keys of those to encode.
type textLookup struct {
	cache   embcache.Cache
	keys    []embcache.Key
	ids     [][]int
	rows    [][]float32
	missing []int
}

// lookupTexts tokenizes texts as clip.tokenize does (an error as
// EmbedTexts gives it) and looks them up in cache. A text's key is the
// model identity, output (which scorer and which of the tower's outputs is
// kept), the tokenization settings, the text and its token ids: the text
// tower's output is a function of the weights and the ids alone, so a
// tokenizer whose files changed misses exactly the texts it now encodes
// otherwise. A nil cache finds nothing.
func (c *CLIPText) lookupTexts(cache embcache.Cache, model embcache.Digest, output string, texts []string) (*textLookup, error) {
	ids, err := c.Tokens(texts)
	if err != nil {
		return nil, err
	}
	l := &textLookup{cache: cache, ids: ids}
	if cache == nil {
		l.rows = make([][]float32, len(texts))
		for i := range texts {
			l.missing = append(l.missing, i)
		}
		return l, nil
	}
	tok := fmt.Sprintf("%s; clip.tokenize context_length=%d truncate=%v", output, ContextLength, c.Truncate)
	l.keys = make([]embcache.Key, len(texts))
	for i, t := range texts {
		l.keys[i] = embcache.TextKey(embcache.TextInput{Model: model, Tokenizer: tok, Text: t, IDs: ids[i]})
	}
	if l.rows, l.missing, err = embcache.Lookup(cache, l.keys); err != nil {
		return nil, err
	}
	return l, nil
}

// encode runs encode on the token ids of the texts not found, textBatch
// at a time, telling progress how many are done, and stores their rows.
// A text's row does not depend on the batch it is in (see
// TestCLIPTextBatchInvariance), so rows encoded now and rows from the cache
// are those one batch of every text would give.
func (l *textLookup) encode(ctx context.Context, encode func(context.Context, [][]int) ([][]float32, error), progress func(done int)) error {
	for lo := 0; lo < len(l.missing); lo += textBatch {
		at := l.missing[lo:min(lo+textBatch, len(l.missing))]
		ids := make([][]int, len(at))
		for j, i := range at {
			ids[j] = l.ids[i]
		}
		rows, err := encode(ctx, ids)
		if err != nil {
			return err
		}
		var ks []embcache.Key
		for j, i := range at {
			l.rows[i] = rows[j]
			if l.keys != nil {
				ks = append(ks, l.keys[i])
			}
		}
		if l.cache != nil {
			if err := l.cache.PutMany(ks, rows); err != nil {
				return err
			}
		}
		progress(lo + len(at))
	}
	return nil
}

// embedRows returns the unit-length embeddings (text_embeds) of
// OpenAI-tokenized ids, one row per text.
func (c *CLIPText) embedRows(ctx context.Context, ids [][]int) ([][]float32, error) {
	out, err := c.embedIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	rows, err := splitRows(out, len(ids))
	if err != nil {
		return nil, fmt.Errorf("text encoder: %w", err)
	}
	return rows, nil
}

// lookupTexts looks the phrases up in s.Cache when Text is a *CLIPText,
// whose tokenization keys them; it returns nil otherwise.
func (s *Scorer) lookupTexts(t *textSet) (*textLookup, error) {
	ct, ok := s.Text.(*CLIPText)
	if s.Cache == nil || !ok {
		return nil, nil
	}
	return ct.lookupTexts(s.Cache, s.CacheModel, "groovist text_embeds", t.list)
}

// embedMissing is embed, or, with a cache lookup, embeds only the phrases
// the cache lacks.
func (t *textSet) embedMissing(ctx context.Context, enc encoders.TextEncoder, l *textLookup, progress func(int)) error {
	if l == nil {
		return t.embed(ctx, enc, progress)
	}
	encode := func(ctx context.Context, ids [][]int) ([][]float32, error) {
		rows, err := enc.(*CLIPText).embedRows(ctx, ids)
		if err != nil {
			return nil, fmt.Errorf("embedding phrases: %w", err)
		}
		return rows, nil
	}
	if err := l.encode(ctx, encode, progress); err != nil {
		return err
	}
	t.emb = l.rows
	return nil
}

// WarmTexts embeds the noun phrases Score would embed for these inputs
// (the given NPs, or those extracted from the text as opts.Units says,
// without the pronouns) and stores them in s.Cache; phrases already there
// are skipped. It returns the number of phrases encoded and the number of
// distinct phrases. Text must be a *CLIPText (the phrases of another
// TextEncoder are not cached).
func (s *Scorer) WarmTexts(ctx context.Context, inputs []Input, opts Options) (encoded, phrases int, err error) {
	if _, ok := s.Text.(*CLIPText); !ok || s.Cache == nil {
		return 0, 0, fmt.Errorf("WarmTexts needs a *CLIPText Text and Cache")
	}
	pronouns := s.Pronouns
	if pronouns == nil {
		pronouns = DefaultPronouns()
	}
	texts := newTextSet()
	for _, in := range inputs {
		nps := in.NPs
		if nps == nil {
			sents, err := sentencePhrases(in.Text, opts.Units)
			if err != nil {
				return 0, 0, fmt.Errorf("story %q: %w", in.ID, err)
			}
			for _, s := range sents {
				nps = append(nps, s...)
			}
		}
		for _, np := range pronouns.Filter(nps) {
			texts.add(np)
		}
	}
	l, err := s.lookupTexts(texts)
	if err != nil {
		return 0, 0, err
	}
	if err := texts.embedMissing(ctx, s.Text, l, func(int) {}); err != nil {
		return 0, 0, err
	}
	return len(l.missing), len(texts.list), nil
}
