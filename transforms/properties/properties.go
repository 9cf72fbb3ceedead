// Package properties holds the 38 k-safety properties of NOMOS and their checking: the five program inspections
// (arity, numConditionals, numLoops from transforms/inspect; compiles from the
// engine's compile status; retValues, the outputs on the tests), one relation per
// property exactly as the appendix states it, and the beam-size rule of section
// 3.2: with N samples per translation, an instance of a k-safety property counts
// as violated only when all N^k combinations of samples violate it.
//
// It is plain Go (no Beam): the properties job (pipelines/properties.go) and the
// property-guided search (Search) call it.
package properties

import (
	"fmt"

	"transmute/schemas"
	"transmute/transforms/inspect"
	"transmute/transforms/metamorph"
	"transmute/transforms/values"
)

// Inspection names a program-inspection function (appendix A.2).
type Inspection string

// The five inspections.
const (
	Arity           Inspection = "arity"
	NumConditionals Inspection = "numConditionals"
	NumLoops        Inspection = "numLoops"
	Compiles        Inspection = "compiles"
	RetValues       Inspection = "retValues"
)

// Inspections lists them in the order of the paper's tables.
var Inspections = []Inspection{Arity, NumConditionals, NumLoops, Compiles, RetValues}

// Syntactic tells whether the inspection looks at the code only (VSP counts the
// properties on these).
func (i Inspection) Syntactic() bool { return i == Arity || i == NumConditionals || i == NumLoops }

// Relation is how a property relates the inspections of its programs.
type Relation string

// The relations of appendix B. For 1-safety the pair is (input, output); for
// 2-safety (o1, o2); for merge (o1, o2, o3).
const (
	Equal        Relation = "equal"          // x(o) == x(i), or x(o1) == x(o2)
	Greater      Relation = "greater"        // x(o2) > x(o1)
	Less         Relation = "less"           // x(o2) < x(o1)
	SumPlusOne   Relation = "sum_plus_one"   // x(o3) == x(o1) + x(o2) + 1
	Sum          Relation = "sum"            // x(o3) == x(o1) + x(o2)
	Preserved    Relation = "preserved"      // compiles(a) == compiles(b)
	Implies      Relation = "implies"        // compiles(o1) && compiles(o2) ==> compiles(o3)
	EqualIfBuilt Relation = "equal_if_built" // both compile ==> retValues equal
	EitherOf     Relation = "either_of"      // all three compile ==> each output of o3 is o1's or o2's
)

// Property is one k-safety property.
type Property struct {
	// Name is the paper's: "arity", "renameParam|retValues", "merge|numLoops"...
	Name           string
	Transformation metamorph.Transformation // "" for the 1-safety properties
	Inspection     Inspection
	K              int
	Relation       Relation
}

// Syntactic tells whether the property is on arity, numConditionals or numLoops.
func (p Property) Syntactic() bool { return p.Inspection.Syntactic() }

// All is the 38 properties of appendix B, in its order.
var All = func() []Property {
	var ps []Property
	for _, in := range Inspections {
		r := Equal
		switch in {
		case Compiles:
			r = Preserved
		case RetValues:
			r = EqualIfBuilt
		}
		ps = append(ps, Property{Name: string(in), Inspection: in, K: 1, Relation: r})
	}
	for _, t := range []metamorph.Transformation{metamorph.RenameParam, metamorph.AddParam, metamorph.AddConditional,
		metamorph.ChBranchCond, metamorph.AddLoop, metamorph.RmLoop} {
		for _, in := range Inspections {
			if in == RetValues && !t.PreservesSemantics() {
				continue // rmLoop and chBranchCond may change behaviour: no semantic property
			}
			r := Equal
			switch {
			case in == Compiles:
				r = Preserved
			case in == RetValues:
				r = EqualIfBuilt
			case t == metamorph.AddParam && in == Arity, t == metamorph.AddConditional && in == NumConditionals,
				t == metamorph.AddLoop && in == NumLoops:
				r = Greater
			case t == metamorph.RmLoop && in == NumLoops:
				r = Less
			}
			ps = append(ps, Property{Name: string(t) + "|" + string(in), Transformation: t, Inspection: in, K: 2, Relation: r})
		}
	}
	for _, in := range Inspections {
		r := map[Inspection]Relation{Arity: SumPlusOne, NumConditionals: SumPlusOne, NumLoops: Sum, Compiles: Implies, RetValues: EitherOf}[in]
		ps = append(ps, Property{Name: string(metamorph.Merge) + "|" + string(in), Transformation: metamorph.Merge,
			Inspection: in, K: 3, Relation: r})
	}
	return ps
}()

// ByTransformation returns the properties of a transformation ("" for 1-safety).
func ByTransformation(t metamorph.Transformation) []Property {
	var out []Property
	for _, p := range All {
		if p.Transformation == t {
			out = append(out, p)
		}
	}
	return out
}

// Out is one test's outcome.
type Out struct {
	Status schemas.Status
	Value  string // canonical JSON when Status is ok
}

// Obs is what the five inspections return on one program: an input function or one
// sample of a translation.
type Obs struct {
	Syntax   inspect.Syntax
	Compiles bool
	// Ret is the outcome of each test, in the order of the program's tests.
	Ret []Out
}

// MissingObs is the observation of a translation that does not exist: it has no
// syntax (every count -1), does not compile and returns nothing.
var MissingObs = Obs{Syntax: inspect.Missing}

func (o Obs) count(in Inspection) int {
	switch in {
	case Arity:
		return o.Syntax.Arity
	case NumConditionals:
		return o.Syntax.Conditionals
	default:
		return o.Syntax.Loops
	}
}

// Context is what a relation on return values needs: the return type, the
// tolerance, and for merge which test of o1 and of o2 each test of o3 carries.
type Context struct {
	Returns               values.Type
	Tolerance             values.Tolerance
	FirstTest, SecondTest []int
}

// sameOut tells whether two test outcomes are the same return value (or the same
// failure: an exception in both, a timeout in both).
func sameOut(c Context, a, b Out) bool {
	if a.Status != b.Status {
		return false
	}
	return a.Status != schemas.StatusOK || values.Equal(c.Returns, a.Value, b.Value, c.Tolerance)
}

// retEqual compares two programs' outcomes test by test and returns the first test
// that differs (-1 when none).
func retEqual(c Context, a, b []Out) (bool, int32) {
	n := max(len(a), len(b))
	for j := 0; j < n; j++ {
		if j >= len(a) || j >= len(b) || !sameOut(c, a[j], b[j]) {
			return false, int32(j)
		}
	}
	return true, -1
}

// Holds checks the property on one combination: the inputs i_1..i_k of the
// instance (only the 1-safety properties look at them) and one sample of each
// output o_1..o_k. It returns whether the relation holds and, when it does not and
// a test decides it, that test's position (else -1).
func (p Property) Holds(c Context, inputs, outputs []Obs) (bool, int32) {
	if len(outputs) != p.K || (p.K == 1 && len(inputs) != 1) {
		panic(fmt.Sprintf("properties: %s needs %d outputs, got %d", p.Name, p.K, len(outputs)))
	}
	// a, b are the two programs the binary relations compare.
	var a, b Obs
	if p.K == 1 {
		a, b = inputs[0], outputs[0]
	} else {
		a, b = outputs[0], outputs[1]
	}
	switch p.Relation {
	case Equal:
		return a.count(p.Inspection) == b.count(p.Inspection), -1
	case Greater:
		return b.count(p.Inspection) > a.count(p.Inspection), -1
	case Less:
		return b.count(p.Inspection) < a.count(p.Inspection), -1
	case SumPlusOne, Sum:
		extra := 0
		if p.Relation == SumPlusOne {
			extra = 1
		}
		o3 := outputs[2]
		return o3.count(p.Inspection) == a.count(p.Inspection)+b.count(p.Inspection)+extra, -1
	case Preserved:
		return a.Compiles == b.Compiles, -1
	case Implies:
		return !(a.Compiles && b.Compiles) || outputs[2].Compiles, -1
	case EqualIfBuilt:
		if !(a.Compiles && b.Compiles) {
			return true, -1
		}
		return retEqual(c, a.Ret, b.Ret)
	case EitherOf:
		o3 := outputs[2]
		if !(a.Compiles && b.Compiles && o3.Compiles) {
			return true, -1
		}
		for j, r := range o3.Ret {
			if j >= len(c.FirstTest) || j >= len(c.SecondTest) {
				return false, int32(j)
			}
			i1, i2 := c.FirstTest[j], c.SecondTest[j]
			ok1 := i1 < len(a.Ret) && sameOut(c, r, a.Ret[i1])
			ok2 := i2 < len(b.Ret) && sameOut(c, r, b.Ret[i2])
			if !ok1 && !ok2 {
				return false, int32(j)
			}
		}
		return true, -1
	}
	panic("properties: unknown relation " + string(p.Relation))
}

// Verdict is the outcome of one property instance over all sample combinations.
type Verdict struct {
	Violated bool
	// Combinations is the number of sample combinations checked (N^k).
	Combinations int
	// Witness, when violated: the sample index of each output in the first
	// combination, and the test that decided it (-1 when no test did).
	Samples []int
	Test    int32
}

// Check applies the beam-size rule: the instance is violated only when every
// combination of one sample per output violates the property. An output without
// any sample counts as one missing translation.
func (p Property) Check(c Context, inputs []Obs, outputs [][]Obs) Verdict {
	outs := make([][]Obs, len(outputs))
	for i, o := range outputs {
		if len(o) == 0 {
			o = []Obs{MissingObs}
		}
		outs[i] = o
	}
	idx := make([]int, len(outs))
	combo := make([]Obs, len(outs))
	v := Verdict{Violated: true, Test: -1}
	for {
		for i := range outs {
			combo[i] = outs[i][idx[i]]
		}
		v.Combinations++
		ok, test := p.Holds(c, inputs, combo)
		if ok {
			return Verdict{Combinations: v.Combinations, Test: -1}
		}
		if v.Samples == nil {
			v.Samples = append([]int(nil), idx...)
			v.Test = test
		}
		// next combination (odometer)
		i := len(idx) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(outs[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return v
		}
	}
}
