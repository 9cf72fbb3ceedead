package similarity

import (
	"sort"
)

// CodeBLEU (Ren et al. 2020) = 0.25 BLEU + 0.25 weighted n-gram match + 0.25 syntax
// match + 0.25 dataflow match, with CodeBLEU's default weights. Our versions:
//   - BLEU and the weighted n-gram match use the same add-one smoothing as our
//     sentence BLEU (CodeBLEU scores a corpus unsmoothed; per translation that is 0
//     for most short functions);
//   - the weighted n-gram match weighs unigrams that are keywords of the language 1
//     and other unigrams 0.2, over the reference's n-grams (as CodeBLEU's
//     weighted_ngram_match does), higher orders unweighted;
//   - syntax match is the share of the reference's subtrees (of nodes with
//     children, compared by shape: named node kinds and field names, as tree-sitter's
//     S-expressions) that also occur in the translation;
//   - dataflow match is the share of the reference's data-flow entries (variable,
//     relation, parent variables, with variables renamed by order of appearance)
//     found in the translation's, each matched once. Our data flow is per statement
//     (see dataflow), coarser than CodeBLEU's per-identifier graph.

// CodeBLEU weights.
const (
	CodeBLEUAlpha, CodeBLEUBeta, CodeBLEUGamma, CodeBLEUDelta = 0.25, 0.25, 0.25, 0.25
	keywordWeight, otherWeight                                = 1.0, 0.2
)

// keywords: CodeXGLUE's keywords/java.txt and python.txt (CodeBLEU's lists);
// CodeBLEU has none for C++, whose list is the C++17 keywords.
var keywords = map[string]map[string]bool{
	"java": set("abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const",
		"continue", "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for",
		"goto", "if", "implements", "import", "instanceof", "int", "interface", "long", "native", "new",
		"package", "private", "protected", "public", "return", "short", "static", "strictfp", "super",
		"switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile", "while"),
	"cpp": set("alignas", "alignof", "and", "asm", "auto", "bool", "break", "case", "catch", "char", "class",
		"const", "constexpr", "const_cast", "continue", "decltype", "default", "delete", "do", "double",
		"dynamic_cast", "else", "enum", "explicit", "extern", "false", "float", "for", "friend", "goto", "if",
		"inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "nullptr", "operator", "or",
		"private", "protected", "public", "register", "reinterpret_cast", "return", "short", "signed",
		"sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this", "throw",
		"true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using", "virtual", "void",
		"volatile", "while", "xor"),
	"python": set("False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
		"continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
		"in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
		"yield"),
}

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// weightedNgram is CodeBLEU's weighted n-gram match of hyp against ref, scored
// with our sentence BLEU's add-one smoothing and brevity penalty.
func weightedNgram(lang string, refToks []string, ref, hyp Ngrams, refLen, hypLen int) float64 {
	return weightedStats(lang, refToks, ref, hyp, refLen, hypLen).Score(SmoothAddOne)
}

// weightedStats are the statistics of CodeBLEU's weighted_ngram_match: per order,
// the reference's n-grams (recall, not precision) with their counts clipped at the
// translation's as matches and their counts as possible matches, unigrams weighed
// by keywordWeight or otherWeight.
func weightedStats(lang string, refToks []string, ref, hyp Ngrams, refLen, hypLen int) NgramStats {
	s := NgramStats{HypLen: hypLen, RefLen: refLen}
	if hypLen == 0 {
		return s
	}
	kw := keywords[lang]
	w := map[uint64]float64{}
	for _, t := range refToks {
		wt := otherWeight
		if kw[t] {
			wt = keywordWeight
		}
		w[ngramHash([]uint64{hashString(t)})] = wt
	}
	// Unigrams: the counts are summed per weight (integers) and weighed at the end,
	// weights in order: summing weighed counts in the map's order made the last
	// bits vary from run to run, and with them the ties of the rank correlations.
	possible, matches := map[float64]int32{}, map[float64]int32{}
	for g, c := range ref[0] {
		possible[w[g]] += c
		matches[w[g]] += min(c, hyp[0][g])
	}
	weights := make([]float64, 0, len(possible))
	for wt := range possible {
		weights = append(weights, wt)
	}
	sort.Float64s(weights)
	for _, wt := range weights {
		s.Possible[0] += wt * float64(possible[wt])
		s.Matches[0] += wt * float64(matches[wt])
	}
	// Longer n-grams weigh 1: sums of whole numbers, exact in any order.
	for n := 1; n < MaxOrder; n++ {
		for g, c := range ref[n] {
			s.Possible[n] += float64(c)
			s.Matches[n] += float64(min(c, hyp[n][g]))
		}
	}
	return s
}

// subtreeShapes hashes the shape of every subtree whose root has children: the
// named node kinds and field names below it, as tree-sitter's S-expression shows.
func subtreeShapes(root *Node) []uint64 {
	var out []uint64
	var shape func(n *Node) uint64
	shape = func(n *Node) uint64 {
		h := hashString(n.Kind)
		for _, c := range n.Children {
			ch := shape(c)
			if c.Named {
				h = mix(h, mix(hashString(c.Field), ch))
			}
		}
		if len(n.Children) > 0 {
			out = append(out, h)
		}
		return h
	}
	if root != nil {
		for _, c := range root.Children {
			shape(c)
		}
	}
	return out
}

// syntaxMatch is the share of ref's subtree shapes present in hyp's.
func syntaxMatch(ref []uint64, hyp map[uint64]bool) float64 {
	if len(ref) == 0 {
		return 0
	}
	m := 0
	for _, s := range ref {
		if hyp[s] {
			m++
		}
	}
	return float64(m) / float64(len(ref))
}

// dfEntry is one data-flow entry: a variable, how it gets its value, from which
// variables, with variables renamed by order of first appearance.
type dfEntry struct {
	v, rel  string
	parents string
}

// dataflow lists the data-flow entries of every statement of p's functions: a
// definition of v "computedFrom" the variables its statement reads, a read of v
// "comesFrom" v when v was seen before.
func dataflow(p *Program) []dfEntry {
	if p == nil || p.Root == nil {
		return nil
	}
	names := map[string]string{}
	norm := func(v string) string {
		if n, ok := names[v]; ok {
			return n
		}
		n := "var_" + itoa(len(names))
		names[v] = n
		return n
	}
	seen := map[string]bool{}
	var out []dfEntry
	var visit func(n *Node)
	visit = func(n *Node) {
		isStmt := n.Kind == "expression_statement" || simpleCategory[n.Kind] != "" || headerFields[n.Kind] != nil
		if isStmt {
			target := n
			if hf := headerFields[n.Kind]; hf != nil {
				var header []*Node
				for _, c := range n.Children {
					if hf[c.Field] {
						header = append(header, c)
					}
				}
				target = &Node{Kind: n.Kind, Children: header}
			}
			d, u := defsUses(target)
			for _, v := range u {
				if seen[v] {
					out = append(out, dfEntry{v: norm(v), rel: "comesFrom", parents: norm(v)})
				}
				seen[v] = true
			}
			var ps []string
			for _, v := range u {
				ps = append(ps, norm(v))
			}
			sort.Strings(ps)
			pj := ""
			for i, x := range ps {
				if i > 0 {
					pj += ","
				}
				pj += x
			}
			for _, v := range d {
				out = append(out, dfEntry{v: norm(v), rel: "computedFrom", parents: pj})
				seen[v] = true
			}
			if headerFields[n.Kind] == nil {
				return
			}
			for _, c := range n.Children {
				if !headerFields[n.Kind][c.Field] {
					visit(c)
				}
			}
			return
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(p.Root)
	return out
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

// dataflowMatch is the share of ref's entries matched (each once) by hyp's.
func dataflowMatch(ref, hyp []dfEntry) float64 {
	if len(ref) == 0 {
		return 0
	}
	left := map[dfEntry]int{}
	for _, e := range hyp {
		left[e]++
	}
	m := 0
	for _, e := range ref {
		if left[e] > 0 {
			left[e]--
			m++
		}
	}
	return float64(m) / float64(len(ref))
}

// TrivialNgrams returns the k most frequent n-grams (orders 1..MaxOrder together)
// of a corpus of token sequences: CrystalBLEU's "trivially shared n-grams", which
// its BLEU ignores (Eghbali and Pradel 2022, k = 500 by default). Ties are broken by
// hash so the set is deterministic.
func TrivialNgrams(corpus [][]string, k int) map[uint64]bool {
	counts := map[uint64]int{}
	for _, toks := range corpus {
		addNgramCounts(counts, toks)
	}
	out := map[uint64]bool{}
	for _, h := range topNgrams(counts, k) {
		out[h] = true
	}
	return out
}

// addNgramCounts adds the n-grams of toks (every order up to MaxOrder) to counts.
func addNgramCounts(counts map[uint64]int, toks []string) {
	g := CountNgrams(HashTokens(toks))
	for n := range MaxOrder {
		for h, c := range g[n] {
			counts[h] += int(c)
		}
	}
}

// topNgrams are the k most frequent n-grams of counts (ties: the smaller hash
// first), sorted by hash.
func topNgrams(counts map[uint64]int, k int) []uint64 {
	type kv struct {
		h uint64
		c int
	}
	all := make([]kv, 0, len(counts))
	for h, c := range counts {
		all = append(all, kv{h, c})
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].c != all[j].c {
			return all[i].c > all[j].c
		}
		return all[i].h < all[j].h
	})
	out := make([]uint64, 0, min(k, len(all)))
	for i := 0; i < k && i < len(all); i++ {
		out = append(out, all[i].h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
