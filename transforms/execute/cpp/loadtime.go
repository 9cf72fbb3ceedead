package cpp

import (
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
)

// Load-time code. A unit's program is loaded once per server, and every candidate of
// the unit is then run in a child forked from it: whatever runs when the program is
// loaded (a global constructor, a namespace-scope object with a dynamic initializer,
// an IFUNC resolver, an entry of .init_array or .preinit_array) runs in the shared
// server, where a thread it starts or a limit it lowers reaches every candidate of
// the unit, and a libc function the unit defines replaces the server's own. So the
// unit is first compiled to an object file, and loadTimeCode reads that object (its
// sections, symbols and relocations, which the candidate cannot hide from the
// linker): a unit with such code is not linked as it is; the candidates the code
// belongs to are built each in a unit of its own (whose server serves it alone), and
// the rest is built again and checked again. The harness's own load-time code (the
// redirection of the standard streams) lives in harness_rt.o, outside the unit.

// loadReport is what an object file of a unit runs at load time, or defines in place
// of another library's functions.
type loadReport struct {
	// cands are the unit's candidates (group indices) that own such code
	cands map[int]bool
	// unknown is set when some of it belongs to no candidate of the unit (it was
	// reached without a name in a candidate's namespace)
	unknown bool
	// what describes each finding, for messages and tests
	what []string
	// deferrable are the object's startup arrays that the process serving the
	// candidate can run in place of the loader (deferLoadTime)
	deferrable []deferSection
}

// deferSection is a startup array of an object and the name it is renamed to.
type deferSection struct{ name, to string }

// deferName is the section a startup array s is renamed to for run_deferred_init
// (harness.h), by its type, as the linker keeps sections of one name and different
// types apart; "" when it is not one.
func deferName(s *elf.Section) string {
	switch {
	case s.Type == elf.SHT_PREINIT_ARRAY:
		return "th_preinit_array"
	case s.Type == elf.SHT_INIT_ARRAY:
		return "th_init_array"
	case s.Type == elf.SHT_PROGBITS && (s.Name == ".ctors" || strings.HasPrefix(s.Name, ".ctors.")):
		return "th_ctors"
	}
	return ""
}

func (r loadReport) found() bool { return len(r.cands) > 0 || r.unknown }

// harmlessLoad are the names the unit's own initialisation may use without a
// candidate: the static std::ios_base::Init object every unit that includes <iostream>
// gets before GCC 13.
var harmlessLoad = map[string]bool{
	"_ZStL8__ioinit": true, "_ZNSt8ios_base4InitC1Ev": true, "_ZNSt8ios_base4InitD1Ev": true,
	"__cxa_atexit": true, "__dso_handle": true,
}

// loadSection tells whether an input section's content runs when the program is
// loaded or ends: the linker places it by its name (and, for an orphan, by its type)
// among the startup arrays or the _init/_fini code.
func loadSection(s *elf.Section) bool {
	switch s.Type {
	case elf.SHT_INIT_ARRAY, elf.SHT_FINI_ARRAY, elf.SHT_PREINIT_ARRAY:
		return true
	}
	n := s.Name
	if n == ".init" || n == ".fini" {
		return true
	}
	for _, p := range []string{".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors"} {
		if n == p || strings.HasPrefix(n, p+".") {
			return true
		}
	}
	return false
}

// candidateOf returns the group index g when the mangled name has a component c<g>
// (the namespace a candidate's code is placed in), or -1.
func candidateOf(name string) int {
	if !strings.HasPrefix(name, "_Z") {
		return -1
	}
	for i := 2; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' || name[i-1] >= '0' && name[i-1] <= '9' {
			continue
		}
		l, j := 0, i
		for j < len(name) && name[j] >= '0' && name[j] <= '9' && l < 1<<20 {
			l = l*10 + int(name[j]-'0')
			j++
		}
		if l < 2 || j+l > len(name) || name[j] != 'c' {
			continue
		}
		comp := name[j+1 : j+l]
		g := 0
		ok := comp[0] != '0' || len(comp) == 1
		for k := 0; k < len(comp) && ok; k++ {
			if comp[k] < '0' || comp[k] > '9' {
				ok = false
				break
			}
			g = g*10 + int(comp[k]-'0')
		}
		if ok {
			return g
		}
	}
	return -1
}

// stbGNUUnique is the binding of an inline function's static variable (STB_GNU_UNIQUE).
const stbGNUUnique = elf.STB_LOOS

type rela struct {
	off    uint64
	sym    uint32
	typ    uint32
	addend int64
}

// loadTimeCode reads the object file of a unit whose candidates are members (group
// indices) and reports the code it runs at load time and the functions it defines
// outside the candidates' namespaces.
func loadTimeCode(path string, members map[int]bool) (loadReport, error) {
	rep := loadReport{cands: map[int]bool{}}
	f, err := elf.Open(path)
	if err != nil {
		return rep, err
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		return rep, fmt.Errorf("symbols of %s: %w", path, err)
	}
	// relocations of each section, by the index of the section they apply to
	relocs := map[int][]rela{}
	for _, s := range f.Sections {
		if s.Type != elf.SHT_RELA {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return rep, err
		}
		var rs []rela
		for k := 0; k+24 <= len(data); k += 24 {
			info := binary.LittleEndian.Uint64(data[k+8:])
			rs = append(rs, rela{off: binary.LittleEndian.Uint64(data[k:]), sym: uint32(info >> 32),
				typ: uint32(info), addend: int64(binary.LittleEndian.Uint64(data[k+16:]))})
		}
		relocs[int(s.Info)] = append(relocs[int(s.Info)], rs...)
	}
	// the named symbols of each section, by address, to resolve a relocation made
	// against the section itself (gas does so for local symbols)
	bySection := map[int][]int{}
	for k, s := range syms {
		if s.Name != "" && s.Section > elf.SHN_UNDEF && s.Section < elf.SHN_LORESERVE &&
			elf.ST_TYPE(s.Info) != elf.STT_SECTION && elf.ST_TYPE(s.Info) != elf.STT_FILE {
			bySection[int(s.Section)] = append(bySection[int(s.Section)], k)
		}
	}
	for _, l := range bySection {
		sort.Slice(l, func(a, b int) bool { return syms[l[a]].Value < syms[l[b]].Value })
	}
	// target resolves relocation r to a symbol index (into syms), or -1
	target := func(r rela) int {
		if r.sym == 0 || int(r.sym) > len(syms) {
			return -1
		}
		k := int(r.sym) - 1
		s := syms[k]
		if elf.ST_TYPE(s.Info) != elf.STT_SECTION {
			return k
		}
		// a PC-relative field is 4 bytes before the next instruction, which the
		// addend counts from
		off := uint64(r.addend)
		switch elf.R_X86_64(r.typ) {
		case elf.R_X86_64_PC32, elf.R_X86_64_PLT32, elf.R_X86_64_GOTPCREL, elf.R_X86_64_GOTPCRELX,
			elf.R_X86_64_REX_GOTPCRELX, elf.R_X86_64_PC64:
			off = uint64(r.addend + 4)
		}
		for _, c := range bySection[int(s.Section)] {
			cs := syms[c]
			if off >= cs.Value && (off < cs.Value+cs.Size || cs.Size == 0 && off == cs.Value) {
				return c
			}
		}
		return -1
	}
	type finding struct {
		cands   map[int]bool
		foreign []string
	}
	seen := map[int]bool{}
	var visit func(k int, fd *finding)
	// scan follows the relocations in [from, to) of section sec
	scan := func(sec int, from, to uint64, fd *finding) {
		for _, r := range relocs[sec] {
			if r.off < from || r.off >= to {
				continue
			}
			if t := target(r); t >= 0 {
				visit(t, fd)
			} else {
				fd.foreign = append(fd.foreign, fmt.Sprintf("a relocation of section %d", sec))
			}
		}
	}
	visit = func(k int, fd *finding) {
		s := syms[k]
		if g := candidateOf(s.Name); g >= 0 {
			fd.cands[g] = true
			return
		}
		if harmlessLoad[s.Name] || seen[k] {
			return
		}
		seen[k] = true
		if s.Section == elf.SHN_UNDEF || s.Section >= elf.SHN_LORESERVE {
			fd.foreign = append(fd.foreign, s.Name)
			return
		}
		// code of this object outside the candidates' namespaces (the unit's
		// initialisation function, a function of no namespace): what it reaches
		end := s.Value + s.Size
		if s.Size == 0 {
			end = s.Value + 1
		}
		scan(int(s.Section), s.Value, end, fd)
		if elf.ST_TYPE(s.Info) != elf.STT_FUNC && elf.ST_TYPE(s.Info) != elf.STT_GNU_IFUNC && !harmlessLoad[s.Name] {
			fd.foreign = append(fd.foreign, s.Name)
		}
	}
	record := func(what string, fd *finding) {
		inUnit := false
		for g := range fd.cands {
			if members[g] {
				rep.cands[g] = true
				inUnit = true
			}
		}
		if !inUnit && (len(fd.foreign) > 0 || len(fd.cands) > 0) {
			rep.unknown = true
		}
		if len(fd.cands) > 0 || len(fd.foreign) > 0 {
			var gs []int
			for g := range fd.cands {
				gs = append(gs, g)
			}
			sort.Ints(gs)
			rep.what = append(rep.what, fmt.Sprintf("%s (candidates %v, other names %v)", what, gs, fd.foreign))
		}
	}
	for i, s := range f.Sections {
		if !loadSection(s) {
			continue
		}
		fd := &finding{cands: map[int]bool{}}
		scan(i, 0, s.Size, fd)
		if s.Type == elf.SHT_PROGBITS && s.Flags&elf.SHF_EXECINSTR != 0 && s.Size > 0 && len(fd.cands) == 0 {
			fd.foreign = append(fd.foreign, "code in "+s.Name)
		}
		if s.Size > 0 && len(fd.cands) == 0 && len(fd.foreign) == 0 && len(relocs[i]) < int(s.Size/8) {
			fd.foreign = append(fd.foreign, "entries without a symbol in "+s.Name)
		}
		record("section "+s.Name, fd)
		if to := deferName(s); to != "" {
			rep.deferrable = append(rep.deferrable, deferSection{s.Name, to})
		}
	}
	for _, s := range syms {
		defined := s.Section > elf.SHN_UNDEF && s.Section < elf.SHN_LORESERVE
		if !defined {
			continue
		}
		bind := elf.ST_BIND(s.Info)
		switch {
		case elf.ST_TYPE(s.Info) == elf.STT_GNU_IFUNC:
			// its resolver runs when the program is relocated
			fd := &finding{cands: map[int]bool{}}
			if g := candidateOf(s.Name); g >= 0 {
				fd.cands[g] = true
			}
			end := s.Value + max(s.Size, 1)
			scan(int(s.Section), s.Value, end, fd)
			if len(fd.cands) == 0 {
				fd.foreign = append(fd.foreign, s.Name)
			}
			record("indirect function "+s.Name, fd)
		case bind == elf.STB_LOCAL || s.Name == "main" || candidateOf(s.Name) >= 0:
		case (bind == elf.STB_WEAK || bind == stbGNUUnique) &&
			(strings.HasPrefix(s.Name, "_Z") || strings.HasPrefix(s.Name, "DW.ref.")):
			// an inline function or variable, a template instantiation (the same in
			// every unit), or the compiler's reference to a type for exceptions
		default:
			// a definition in no candidate's namespace: it takes the place of the
			// library's function of that name in the whole program (write, fork,
			// operator new)
			record("definition "+s.Name, &finding{cands: map[int]bool{}, foreign: []string{s.Name}})
		}
	}
	return rep, nil
}
