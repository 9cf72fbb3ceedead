package consistency

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
)

// Role is the part a parameter or local variable plays in its function. Names
// that play the same role across the corpora are context-similar, the code
// analogue of TransRepair's word pairs whose vectors lie close (section 2.2.1).
type Role string

const (
	RoleIndex   Role = "index"   // declared in a loop header: i, j, idx
	RoleArray   Role = "array"   // subscripted: arr, a, nums
	RoleResult  Role = "result"  // returned: res, result, ans
	RoleBound   Role = "bound"   // compared, not an index: n, len, size
	RoleCounter Role = "counter" // updated in place: cnt, count, sum
)

// Roles lists the roles in the order the classifier tries them.
var Roles = []Role{RoleIndex, RoleArray, RoleResult, RoleBound, RoleCounter}

// roleOf gives the role of a declared name from all its occurrences in one
// function; "" when it plays none of them.
func roleOf(occ []ident) Role {
	var decl, forHeader, sub, ret, cmp, upd bool
	for _, o := range occ {
		decl = decl || o.decl
		forHeader = forHeader || o.forHeader
		sub = sub || o.subscripted
		ret = ret || o.returned
		cmp = cmp || o.compared
		upd = upd || o.updated
	}
	switch {
	case !decl:
		return ""
	case forHeader:
		return RoleIndex
	case sub:
		return RoleArray
	case ret:
		return RoleResult
	case cmp && !upd:
		return RoleBound
	case upd:
		return RoleCounter
	}
	return ""
}

// declaredRoles returns the role of every parameter and local variable of a
// parsed function (skipping names also used as members or functions).
func declaredRoles(p *parsed) map[string]Role {
	byName := map[string][]ident{}
	for _, id := range p.idents {
		byName[id.name] = append(byName[id.name], id)
	}
	out := map[string]Role{}
	for name, occ := range byName {
		if r := roleOf(occ); r != "" {
			out[name] = r
		}
	}
	return out
}

// NameCount is one name of a role with how many functions use it in that role.
type NameCount struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Table maps each role to its names, most frequent first. It is built from
// the corpora's functions by BuildTable and shipped as similar_names.json.
type Table struct {
	// MinCount is the number of functions a name must play its role in.
	MinCount int                  `json:"min_count"`
	Sources  []string             `json:"sources"`
	Roles    map[Role][]NameCount `json:"roles"`
	roleOf   map[string]Role
}

//go:embed similar_names.json
var shippedTable []byte

// DefaultTable is the shipped table.
func DefaultTable() (*Table, error) {
	var t Table
	if err := json.Unmarshal(shippedTable, &t); err != nil {
		return nil, fmt.Errorf("consistency: similar_names.json: %w", err)
	}
	t.index()
	return &t, nil
}

func (t *Table) index() {
	t.roleOf = map[string]Role{}
	for _, r := range Roles {
		for _, nc := range t.Roles[r] {
			if _, dup := t.roleOf[nc.Name]; !dup {
				t.roleOf[nc.Name] = r
			}
		}
	}
}

// Similar returns the names context-similar to name in role r (same group,
// most frequent first), or nil when name is not in that role's group.
func (t *Table) Similar(name string, r Role) []string {
	if t.roleOf[name] != r {
		return nil
	}
	var out []string
	for _, nc := range t.Roles[r] {
		if nc.Name != name {
			out = append(out, nc.Name)
		}
	}
	return out
}

// SourceFunc is one function the table is built from. Group names the problem
// it belongs to: a problem's versions in three languages count once.
type SourceFunc struct {
	Group, Lang, Code string
}

// BuildTable counts, over funcs, the problems (groups) in which each name plays
// each role; a name goes to the role it plays most often (ties: the earlier role in
// Roles), and is kept when that count reaches minCount and it is not reserved
// in any language. The result depends on the functions only, not their order.
func BuildTable(funcs []SourceFunc, minCount int, sources []string) (*Table, error) {
	seen := map[string]bool{} // name, role, group
	counts := map[string]map[Role]int{}
	for _, f := range funcs {
		p, err := parse(f.Lang, f.Code)
		if err != nil {
			return nil, err
		}
		if p.hasError {
			continue
		}
		for name, r := range declaredRoles(p) {
			k := name + "\x00" + string(r) + "\x00" + f.Group
			if seen[k] {
				continue
			}
			seen[k] = true
			if counts[name] == nil {
				counts[name] = map[Role]int{}
			}
			counts[name][r]++
		}
	}
	t := &Table{MinCount: minCount, Sources: sources, Roles: map[Role][]NameCount{}}
	for name, byRole := range counts {
		if Reserved(name) {
			continue
		}
		best, bestN := Role(""), 0
		for _, r := range Roles {
			if byRole[r] > bestN {
				best, bestN = r, byRole[r]
			}
		}
		if bestN >= minCount {
			t.Roles[best] = append(t.Roles[best], NameCount{name, bestN})
		}
	}
	for _, r := range Roles {
		ns := t.Roles[r]
		sort.Slice(ns, func(i, j int) bool {
			if ns[i].Count != ns[j].Count {
				return ns[i].Count > ns[j].Count
			}
			return ns[i].Name < ns[j].Name
		})
	}
	t.index()
	return t, nil
}
