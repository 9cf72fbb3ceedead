package properties

import (
	"testing"

	"transmute/schemas"
	"transmute/transforms/inspect"
	"transmute/transforms/values"
)

func TestThe38(t *testing.T) {
	if len(All) != 38 {
		t.Fatalf("%d properties, want 38", len(All))
	}
	k := map[int]int{}
	syn := 0
	names := map[string]Property{}
	for _, p := range All {
		k[p.K]++
		if p.Syntactic() {
			syn++
		}
		names[p.Name] = p
	}
	if k[1] != 5 || k[2] != 28 || k[3] != 5 || syn != 24 {
		t.Fatalf("k=1:%d k=2:%d k=3:%d syntactic:%d, want 5, 28, 5, 24 (the paper: 24 syntactic of 38)", k[1], k[2], k[3], syn)
	}
	want := map[string]Relation{
		"arity": Equal, "compiles": Preserved, "retValues": EqualIfBuilt,
		"renameParam|retValues": EqualIfBuilt, "addParam|arity": Greater, "addParam|numLoops": Equal,
		"addConditional|numConditionals": Greater, "chBranchCond|numConditionals": Equal, "chBranchCond|compiles": Preserved,
		"addLoop|numLoops": Greater, "rmLoop|numLoops": Less, "rmLoop|numConditionals": Equal,
		"merge|arity": SumPlusOne, "merge|numConditionals": SumPlusOne, "merge|numLoops": Sum,
		"merge|compiles": Implies, "merge|retValues": EitherOf,
	}
	for n, r := range want {
		if names[n].Relation != r {
			t.Errorf("%s: relation %q, want %q", n, names[n].Relation, r)
		}
	}
	for _, absent := range []string{"rmLoop|retValues", "chBranchCond|retValues"} {
		if _, ok := names[absent]; ok {
			t.Errorf("%s is not a property of appendix B", absent)
		}
	}
}

var ctx = Context{Returns: values.MustParseType("int"), Tolerance: values.DefaultTolerance,
	FirstTest: []int{0, 1}, SecondTest: []int{0, 0}}

func syn(a, c, l int) Obs {
	return Obs{Syntax: inspect.Syntax{Arity: a, Conditionals: c, Loops: l}, Compiles: true}
}

func ret(vals ...string) Obs {
	o := syn(1, 0, 0)
	for _, v := range vals {
		if v == "!" {
			o.Ret = append(o.Ret, Out{Status: schemas.StatusRuntimeError})
		} else {
			o.Ret = append(o.Ret, Out{Status: schemas.StatusOK, Value: v})
		}
	}
	return o
}

func broken(o Obs) Obs { o.Compiles = false; return o }

// with sets inspection in of o to n.
func with(o Obs, in Inspection, n int) Obs {
	switch in {
	case Arity:
		o.Syntax.Arity = n
	case NumConditionals:
		o.Syntax.Conditionals = n
	case NumLoops:
		o.Syntax.Loops = n
	}
	return o
}

// cases builds, for each relation, hand-made (inputs, outputs) that hold and that
// violate it.
func cases(p Property) (holds, violates [][2][]Obs) {
	in := p.Inspection
	base := syn(2, 3, 4)
	one := func(i, o Obs) [2][]Obs { return [2][]Obs{{i}, {o}} }
	two := func(a, b Obs) [2][]Obs { return [2][]Obs{{base}, {a, b}} }
	three := func(a, b, c Obs) [2][]Obs { return [2][]Obs{{base}, {a, b, c}} }
	switch p.Relation {
	case Equal:
		if p.K == 1 {
			return [][2][]Obs{one(base, base), one(base, broken(base))}, [][2][]Obs{one(base, with(base, in, 5)), one(base, MissingObs)}
		}
		return [][2][]Obs{two(base, base)}, [][2][]Obs{two(base, with(base, in, 0)), two(with(base, in, 9), base)}
	case Greater:
		return [][2][]Obs{two(base, with(base, in, 5))}, [][2][]Obs{two(base, base), two(base, with(base, in, 1))}
	case Less:
		return [][2][]Obs{two(base, with(base, in, 1))}, [][2][]Obs{two(base, base), two(base, with(base, in, 7))}
	case SumPlusOne:
		return [][2][]Obs{three(with(base, in, 2), with(base, in, 3), with(base, in, 6))},
			[][2][]Obs{three(with(base, in, 2), with(base, in, 3), with(base, in, 5)), three(with(base, in, 2), with(base, in, 3), with(base, in, 7))}
	case Sum:
		return [][2][]Obs{three(with(base, in, 2), with(base, in, 3), with(base, in, 5))},
			[][2][]Obs{three(with(base, in, 2), with(base, in, 3), with(base, in, 6))}
	case Preserved:
		if p.K == 1 {
			return [][2][]Obs{one(base, base), one(broken(base), broken(base))}, [][2][]Obs{one(base, broken(base)), one(broken(base), base)}
		}
		return [][2][]Obs{two(base, base), two(broken(base), broken(base))}, [][2][]Obs{two(base, broken(base)), two(broken(base), base)}
	case Implies:
		return [][2][]Obs{three(base, base, base), three(broken(base), base, broken(base)), three(base, broken(base), broken(base))},
			[][2][]Obs{three(base, base, broken(base))}
	case EqualIfBuilt:
		a, b := ret("1", "2"), ret("1", "3")
		exc := ret("1", "!")
		if p.K == 1 {
			return [][2][]Obs{one(a, a), one(a, broken(b)), one(broken(a), b), one(exc, exc)}, [][2][]Obs{one(a, b), one(a, exc)}
		}
		return [][2][]Obs{two(a, a), two(a, broken(b)), two(exc, exc)}, [][2][]Obs{two(a, b), two(exc, a)}
	case EitherOf:
		// o3's test 0 carries o1's test 0 and o2's test 0; its test 1 o1's test 1 and o2's test 0
		o1, o2 := ret("10", "11"), ret("20")
		return [][2][]Obs{three(o1, o2, ret("10", "20")), three(o1, o2, ret("20", "11")), three(o1, broken(o2), ret("5", "5"))},
			[][2][]Obs{three(o1, o2, ret("10", "10")), three(o1, o2, ret("11", "20"))}
	}
	return nil, nil
}

func TestRelations(t *testing.T) {
	for _, p := range All {
		holds, violates := cases(p)
		if len(holds) == 0 || len(violates) == 0 {
			t.Fatalf("%s: no hand-made cases", p.Name)
		}
		for i, c := range holds {
			if ok, _ := p.Holds(ctx, c[0], c[1]); !ok {
				t.Errorf("%s: holding case %d violates", p.Name, i)
			}
		}
		for i, c := range violates {
			if ok, _ := p.Holds(ctx, c[0], c[1]); ok {
				t.Errorf("%s: violating case %d holds", p.Name, i)
			}
		}
	}
}

func TestWitnessTest(t *testing.T) {
	p := All[4] // retValues
	ok, test := p.Holds(ctx, []Obs{ret("1", "2", "3")}, []Obs{ret("1", "2", "4")})
	if ok || test != 2 {
		t.Fatalf("got %v, test %d; want a violation on test 2", ok, test)
	}
}

// TestBeamRule: with N samples per output, an instance is violated only when all N^k
// combinations violate.
func TestBeamRule(t *testing.T) {
	var p Property
	for _, q := range All {
		if q.Name == "renameParam|numLoops" {
			p = q
		}
	}
	a, b := syn(1, 0, 1), syn(1, 0, 2)
	// o1 has samples with 1, 2 loops; o2 with 2, 2 loops: (sample 1, any) holds
	v := p.Check(ctx, nil, [][]Obs{{a, b}, {b, b}})
	if v.Violated {
		t.Fatalf("a holding combination exists, got violated: %+v", v)
	}
	// every combination differs: 1 vs 2, 1 vs 3, ... violated, 4 combinations
	c := syn(1, 0, 3)
	v = p.Check(ctx, nil, [][]Obs{{a, a}, {b, c}})
	if !v.Violated || v.Combinations != 4 || len(v.Samples) != 2 || v.Samples[0] != 0 || v.Samples[1] != 0 {
		t.Fatalf("all 4 combinations violate: got %+v", v)
	}
	// merge (k=3) with N=3: 27 combinations, one holds
	var m Property
	for _, q := range All {
		if q.Name == "merge|numLoops" {
			m = q
		}
	}
	n := func(l int) Obs { return syn(0, 0, l) }
	v = m.Check(ctx, nil, [][]Obs{{n(1), n(1), n(1)}, {n(1), n(1), n(1)}, {n(3), n(3), n(3)}})
	if !v.Violated || v.Combinations != 27 {
		t.Fatalf("27 violating combinations: got %+v", v)
	}
	v = m.Check(ctx, nil, [][]Obs{{n(1), n(1), n(1)}, {n(1), n(1), n(2)}, {n(3), n(3), n(3)}})
	if v.Violated {
		t.Fatalf("the last combination holds (1+2 = 3): got %+v", v)
	}
	// a missing output counts as one missing translation
	v = p.Check(ctx, nil, [][]Obs{{a}, {}})
	if !v.Violated || v.Combinations != 1 {
		t.Fatalf("missing output: %+v", v)
	}
}
