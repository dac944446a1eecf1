package rovist

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/storyeval/storyeval/encoders"
	"github.com/storyeval/storyeval/encoders/tokenize"
	"github.com/storyeval/storyeval/internal/dense"
	"github.com/storyeval/storyeval/internal/pairwise"
	"github.com/storyeval/storyeval/internal/pyunicode"
	"github.com/storyeval/storyeval/internal/sentences"
	"github.com/storyeval/storyeval/story"
)

// DefaultCoherenceBatch is the number of sentence pairs per forward pass
// when CoherenceOptions.BatchSize is zero.
const DefaultCoherenceBatch = 16

// CoherenceOptions configures RoViST-C. The zero value gives the reference
// scorer's behaviour (usydnlp/rovist scripts/coherence_scorer.py).
type CoherenceOptions struct {
	// GrowingPrefix scores each sentence against all the sentences before
	// it joined with spaces, instead of against the previous sentence: the
	// variant of the dHM re-implementation (akskuchi/dHM-visual-storytelling
	// evaluate/eval_C_R.py get_coherence_score), in which a sentence equal
	// to the prefix scores 0 and is not appended to it.
	GrowingPrefix bool

	// Truncate shortens a pair longer than the model's 512 positions with
	// HuggingFace's "longest_first" strategy (tokens dropped from the end of
	// the longer sentence) and marks the pair Truncated. By default such a
	// pair is an error naming the story: the reference crashes on it (the
	// position embeddings have 512 rows), so it has no published score.
	Truncate bool

	// BatchSize is the number of sentence pairs per forward pass (pairs of
	// all the stories are batched together, shortest first, padded and
	// masked); 0 means DefaultCoherenceBatch. Scores do not depend on it.
	BatchSize int

	// Progress, when set, is called after each forward pass with the number
	// of model pairs done so far and their total.
	Progress func(done, total int)
}

// CoherencePair is one scored transition of a story.
type CoherencePair struct {
	// Second is the index of the sentence being judged; First is the index
	// of the sentence before it (Second−1). With GrowingPrefix the first
	// text is the prefix of the sentences kept so far, ending at First.
	First, Second int
	// A and B are the texts given to the model: [CLS] A [SEP] B [SEP].
	A, B string
	// Identical is set when A and B are equal after stripping white space:
	// the pair scores 0 without running the model, as in the reference.
	Identical bool
	// Truncated is set when the pair was shortened (CoherenceOptions.Truncate).
	Truncated bool
	// Pieces are the model input's pieces, [CLS] and [SEP] included, as
	// the reference's tokenizer.tokenize("[CLS] A [SEP] B [SEP]") gives
	// them (a piece outside the vocabulary keeps its text; its id is
	// <unk>'s); IDs and TypeIDs are the input_ids and token_type_ids. All
	// three are nil for an identical pair.
	Pieces       []string
	IDs, TypeIDs []int
	// Logits are the head's two outputs, in float32 as PyTorch computes
	// them.
	Logits [2]float32
	// Prob is softmax(Logits)[1], the probability that B follows A (a
	// float32 value widened to float64, as the reference's .item()); 0 for
	// an identical pair.
	Prob float64
}

// CoherenceResult is the RoViST-C score of one story with the pair
// probabilities it averages, so that a caller sees which transition is
// judged incoherent.
type CoherenceResult struct {
	// Score is the numpy mean of the pair probabilities; NaN when Defined
	// is false.
	Score float64
	// Defined is false for a story with fewer than two sentences (the
	// empty story included), where the reference yields NaN (and the dHM
	// variant drops the story).
	Defined bool
	// Sentences are the story's sentences (nltk.sent_tokenize).
	Sentences []string
	// Pairs are the scored transitions in story order.
	Pairs []CoherencePair
}

// pyStrip is Python's str.strip() without arguments.
func pyStrip(s string) string { return strings.TrimFunc(s, pyunicode.IsSpace) }

// coherenceJob is one model input of a run.
type coherenceJob struct {
	story, pair int
	enc         tokenize.Encoding
}

// Coherence scores one story text with RoViST-C (see Score).
func (m *CoherenceModel) Coherence(ctx context.Context, text string, opts CoherenceOptions) (CoherenceResult, error) {
	res, err := m.Score(ctx, []story.Story{{ID: "story", Text: text}}, opts)
	if err != nil {
		return CoherenceResult{}, err
	}
	return res[0], nil
}

// ScoreSet scores every story of a set (see Score).
func (m *CoherenceModel) ScoreSet(ctx context.Context, set *story.Set, opts CoherenceOptions) ([]CoherenceResult, error) {
	return m.Score(ctx, set.Stories(), opts)
}

// Score returns the RoViST-C score of each story, in input order: the
// story is split into sentences with NLTK's Punkt; each pair of adjacent
// sentences (A, B) is encoded as [CLS] A [SEP] B [SEP] (token types 0 up to
// the first [SEP], 1 after) and scored with P(B follows A); the story's
// score is the numpy mean of its pair scores. Only the story texts are used.
//
// Matches the reference implementation (usydnlp/rovist
// scripts/coherence_scorer.py), which gives a pair whose sentences are
// equal after str.strip() the score 0 without running the model, and NaN to
// a story of fewer than two sentences. The pairs of all stories are batched
// together; padding is masked, so the scores equal one-pair batches.
//
// A story whose pair exceeds the model's 512 positions is an error naming
// the story unless opts.Truncate is set; so are invalid UTF-8, an empty
// list of stories and a cancelled ctx. No partial results are returned with an error.
func (m *CoherenceModel) Score(ctx context.Context, stories []story.Story, opts CoherenceOptions) ([]CoherenceResult, error) {
	if len(stories) == 0 {
		return nil, fmt.Errorf("coherence: no stories to score")
	}
	results := make([]CoherenceResult, len(stories))
	var jobs []coherenceJob
	maxLen := m.MaxPieces()
	for si, st := range stories {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := checkText(st.Text); err != nil {
			return nil, fmt.Errorf("coherence: story %q: %w", st.ID, err)
		}
		sents := sentences.Split(st.Text)
		res := CoherenceResult{Sentences: sents, Pairs: []CoherencePair{}}
		prefix := ""
		if len(sents) > 0 {
			prefix = sents[0]
		}
		for i := 1; i < len(sents); i++ {
			p := CoherencePair{First: i - 1, Second: i, A: sents[i-1], B: sents[i]}
			if opts.GrowingPrefix {
				p.A = prefix
			}
			p.Identical = pyStrip(p.A) == pyStrip(p.B)
			if !p.Identical {
				enc := m.tok.EncodePair(p.A, p.B)
				if enc.Len() > maxLen {
					if !opts.Truncate {
						return nil, fmt.Errorf("coherence: story %q: sentences %d and %d make %d pieces, more than the model's %d positions (the reference crashes; set Truncate to shorten)",
							st.ID, p.First, p.Second, enc.Len(), maxLen)
					}
					var err error
					enc, err = m.tok.EncodePairWith(p.A, p.B, tokenize.Options{Truncation: tokenize.LongestFirst, MaxLength: maxLen})
					if err != nil {
						return nil, fmt.Errorf("coherence: story %q: sentences %d and %d: %w", st.ID, p.First, p.Second, err)
					}
					p.Truncated = true
				}
				p.Pieces, p.IDs, p.TypeIDs = enc.Tokens, enc.IDs, enc.TypeIDs
				if !p.Truncated {
					// The reference's pieces: tokenize of the joined text,
					// where a piece outside the vocabulary keeps its text.
					p.Pieces = m.tok.Tokenize("[CLS] " + p.A + " [SEP] " + p.B + " [SEP]")
				}
				jobs = append(jobs, coherenceJob{story: si, pair: len(res.Pairs), enc: enc})
				if opts.GrowingPrefix {
					prefix += " " + sents[i]
				}
			}
			res.Pairs = append(res.Pairs, p)
		}
		results[si] = res
	}
	if err := m.runPairs(ctx, jobs, results, opts); err != nil {
		return nil, err
	}
	for i := range results {
		r := &results[i]
		if len(r.Pairs) == 0 {
			r.Score = math.NaN()
			continue
		}
		probs := make([]float64, len(r.Pairs))
		for j, p := range r.Pairs {
			probs[j] = p.Prob
		}
		r.Score, r.Defined = pairwise.Mean(probs), true
	}
	return results, nil
}

// runPairs runs the model on every job, shortest inputs first so that a
// batch holds sequences of similar lengths, and stores the logits and
// probabilities in the results.
func (m *CoherenceModel) runPairs(ctx context.Context, jobs []coherenceJob, results []CoherenceResult, opts CoherenceOptions) error {
	if len(jobs) == 0 {
		return nil
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(jobs[a].enc.Len(), jobs[b].enc.Len()) })
	size := opts.BatchSize
	if size <= 0 {
		size = DefaultCoherenceBatch
	}
	// One batch at a time: ALBERT's matrix products and attention heads use
	// every core already; concurrent batches only add memory.
	var prog progressCounter
	prog.total, prog.report = len(jobs), opts.Progress
	H := m.albert.Config().HiddenSize
	for lo := 0; lo < len(order); lo += size {
		idx := order[lo:min(lo+size, len(order))]
		out, err := m.albert.Forward(ctx, padBatch(jobs, idx), encoders.ForwardOptions{})
		if err != nil {
			return fmt.Errorf("coherence: %w", err)
		}
		if out.PoolerOutput == nil {
			return fmt.Errorf("coherence: the ALBERT checkpoint has no pooler")
		}
		pooled := dense.Data(out.PoolerOutput).([]float32)
		for k, j := range idx {
			logits, prob := m.logitsAndProb(pooled[k*H : (k+1)*H])
			p := &results[jobs[j].story].Pairs[jobs[j].pair]
			p.Logits, p.Prob = logits, float64(prob)
		}
		prog.add(len(idx))
	}
	return nil
}

// padBatch pads the encodings of jobs[idx] to the longest with the
// padding id 0, type 0 and attention mask 0.
func padBatch(jobs []coherenceJob, idx []int) []tokenize.Encoding {
	n := 0
	for _, j := range idx {
		n = max(n, jobs[j].enc.Len())
	}
	encs := make([]tokenize.Encoding, len(idx))
	for k, j := range idx {
		e := jobs[j].enc
		pad := n - e.Len()
		p := tokenize.Encoding{
			IDs:           append(slices.Clip(e.IDs), make([]int, pad)...),
			TypeIDs:       append(slices.Clip(e.TypeIDs), make([]int, pad)...),
			AttentionMask: make([]int, n),
			Tokens:        append(slices.Clip(e.Tokens), make([]string, pad)...),
		}
		for t := range e.Len() {
			p.AttentionMask[t] = 1
		}
		encs[k] = p
	}
	return encs
}

// checkText rejects text that is not valid UTF-8, which NLTK could not
// have read either.
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("story text is not valid UTF-8")
	}
	return nil
}
