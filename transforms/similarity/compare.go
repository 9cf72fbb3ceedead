package similarity

import (
	"fmt"
	"math"

	"transmute/internal/lcs"
)

// Level is the representation RUBY used for a pair (RUBY section VI).
type Level string

const (
	LevelGraph  Level = "graph"  // both PDGs built: RUBY = GRS
	LevelTree   Level = "tree"   // both parse: RUBY = TRS
	LevelTokens Level = "tokens" // otherwise: RUBY = STS
)

// Options bound the work spent on one piece of code or one pair.
type Options struct {
	// MaxBytes: longer code is refused (an error, which the caller records as an
	// error row) rather than parsed.
	MaxBytes int
	// MaxTEDCells: when the product of the two trees' sizes exceeds it, TRS is not
	// computed (Zhang-Shasha needs that many cells) and RUBY falls back to tokens.
	MaxTEDCells int
	GED         GEDOptions
}

// DefaultOptions: 256 KiB of code, trees up to about 2000 x 2000 nodes.
var DefaultOptions = Options{MaxBytes: 256 << 10, MaxTEDCells: 4_000_000, GED: DefaultGEDOptions}

// Prepared holds one program's representations, computed once (a reference is
// compared with every translation of its problem).
type Prepared struct {
	Prog   *Program
	Hashes []uint64
	Ngrams Ngrams
	Flat   *FlatTree // the syntax tree of named nodes; nil when the code does not parse
	PDG    *PDG      // nil when it cannot be built
	Shapes []uint64
	shapes map[uint64]bool
	Flow   []dfEntry
}

// Prepare parses code in lang and builds every representation. It fails for an
// unsupported language or code over o.MaxBytes; code that does not parse is not an
// error (it gets no tree and no graph).
func Prepare(lang, code string, o Options) (*Prepared, error) {
	if o.MaxBytes > 0 && len(code) > o.MaxBytes {
		return nil, fmt.Errorf("similarity: code of %d bytes is over the %d-byte limit", len(code), o.MaxBytes)
	}
	p, err := Parse(lang, code)
	if err != nil {
		return nil, err
	}
	pr := &Prepared{Prog: p, Hashes: HashTokens(p.Tokens)}
	pr.Ngrams = CountNgrams(pr.Hashes)
	if p.Parses && p.Root != nil && len(p.Root.Children) > 0 {
		pr.Flat = Flatten(astOf(p.Root))
		pr.PDG, _ = BuildPDG(p)
	}
	pr.Shapes = subtreeShapes(p.Root)
	pr.shapes = make(map[uint64]bool, len(pr.Shapes))
	for _, s := range pr.Shapes {
		pr.shapes[s] = true
	}
	pr.Flow = dataflow(p)
	return pr, nil
}

// astOf keeps the named nodes (tree-sitter's abstract view): a node's label is its
// kind, and a named leaf's (identifier, literal) its kind and text.
func astOf(n *Node) *LabelTree {
	t := &LabelTree{Label: n.Kind}
	for _, c := range n.Children {
		if c.Named {
			t.Children = append(t.Children, astOf(c))
		}
	}
	if len(t.Children) == 0 && n.Text != "" {
		t.Label = n.Kind + ":" + n.Text
	}
	return t
}

// Scores are the similarity metrics of one translation against its reference,
// each in [0, 1]; NaN where a metric could not be computed.
type Scores struct {
	BLEU, CrystalBLEU                                      float64
	CodeBLEU, WeightedNgram, SyntaxMatch, DataflowMatch    float64
	STS, TRS, GRS, RUBY                                    float64
	Level                                                  Level
	TED, GED, GEDLower                                     int
	GEDExact, GEDCapHit, GEDSearched, HypParses, RefParses bool
}

// Compare scores hyp against ref. trivial holds CrystalBLEU's ignored n-grams of
// the target language (nil: CrystalBLEU equals BLEU).
func Compare(ref, hyp *Prepared, trivial map[uint64]bool, o Options) Scores {
	nan := math.NaN()
	s := Scores{TRS: nan, GRS: nan, TED: -1, GED: -1, GEDLower: -1,
		HypParses: hyp.Flat != nil, RefParses: ref.Flat != nil}
	rl, hl := len(ref.Hashes), len(hyp.Hashes)
	s.BLEU = StatsNgrams(ref.Ngrams, rl, hyp.Ngrams, hl, nil).Score(SmoothAddOne)
	if trivial != nil {
		s.CrystalBLEU = StatsNgrams(ref.Ngrams, rl, hyp.Ngrams, hl, trivial).Score(SmoothAddOne)
	} else {
		s.CrystalBLEU = s.BLEU
	}
	s.WeightedNgram = weightedNgram(ref.Prog.Lang, ref.Prog.Tokens, ref.Ngrams, hyp.Ngrams, rl, hl)
	s.SyntaxMatch = syntaxMatch(ref.Shapes, hyp.shapes)
	s.DataflowMatch = dataflowMatch(ref.Flow, hyp.Flow)
	s.CodeBLEU = CodeBLEUAlpha*s.BLEU + CodeBLEUBeta*s.WeightedNgram + CodeBLEUGamma*s.SyntaxMatch + CodeBLEUDelta*s.DataflowMatch
	if n := max(rl, hl); n == 0 {
		s.STS = 1
	} else {
		s.STS = 1 - float64(lcs.Levenshtein(ref.Hashes, hyp.Hashes))/float64(n)
	}
	s.RUBY, s.Level = s.STS, LevelTokens
	if ref.Flat != nil && hyp.Flat != nil && (o.MaxTEDCells <= 0 || ref.Flat.Len()*hyp.Flat.Len() <= o.MaxTEDCells) {
		s.TED = TED(ref.Flat, hyp.Flat)
		s.TRS = 1 - float64(s.TED)/float64(ref.Flat.Len()+hyp.Flat.Len())
		s.RUBY, s.Level = s.TRS, LevelTree
	}
	if ref.PDG != nil && hyp.PDG != nil && s.Level == LevelTree {
		g := GED(ref.PDG, hyp.PDG, o.GED)
		s.GED, s.GEDLower, s.GEDExact, s.GEDCapHit, s.GEDSearched = g.Distance, g.Lower, g.Exact, g.CapHit, g.Searched
		s.GRS = GRS(g.Distance, ref.PDG.Size(), hyp.PDG.Size())
		s.RUBY, s.Level = s.GRS, LevelGraph
	}
	return s
}
