package consistency

import "strings"

// reservedWords are the names a renamed identifier may not take: the keywords of
// Java, Python and C++, Python's builtins, java.lang's classes, and the names of
// namespace std that code reaches unqualified under `using namespace std` (which
// the C++ engine puts before every candidate). Taking one would change what a
// name means in one of the languages a variant may be translated into, the
// analogue of TransRepair's part-of-speech change. std::count and std::size are
// not listed: a local of that name is legal C++ and only hides an algorithm the
// function does not call (a rename never takes a name the function uses).
var reservedWords = func() map[string]bool {
	m := map[string]bool{}
	for _, list := range []string{
		// Java keywords and literals.
		`abstract assert boolean break byte case catch char class const continue default do double else
		enum extends final finally float for goto if implements import instanceof int interface long native
		new package private protected public return short static strictfp super switch synchronized this
		throw throws transient try void volatile while var record yield sealed permits true false null`,
		// java.lang classes that programs name unqualified.
		`Math String Integer Long Double Float Boolean Character Byte Short Object System StringBuilder
		Arrays Collections List ArrayList Map HashMap Set HashSet Scanner`,
		// Python keywords and soft keywords.
		`False None True and as assert async await break class continue def del elif else except finally
		for from global if import in is lambda nonlocal not or pass raise return try while with yield match
		case type self cls`,
		// Python builtins.
		`abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex
		delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr
		hash help hex id input int isinstance issubclass iter len list locals map max memoryview min next
		object oct open ord pow print property range repr reversed round set setattr slice sorted
		staticmethod str sum super tuple vars zip math sys inf nan`,
		// C++ keywords and alternative tokens.
		`alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
		char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
		co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern
		false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr
		operator or or_eq private protected public register reinterpret_cast requires return short signed
		sizeof static static_assert static_cast struct switch template this thread_local throw true try
		typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq
		NULL main std`,
		// namespace std and <cmath>/<climits> names reached unqualified.
		`max min swap sort reverse fill abs sqrt pow floor ceil log log2 log10 exp gcd lcm vector string map
		set pair queue stack deque list array accumulate memset memcpy printf scanf cout cin endl begin end
		lower_bound upper_bound unique next_permutation to_string stoi INT_MAX INT_MIN LLONG_MAX LLONG_MIN
		UINT_MAX M_PI size_t priority_queue unordered_map unordered_set bitset make_pair tuple get hypot
		round trunc fmod islower isupper isdigit isalpha tolower toupper strlen strcmp`,
	} {
		for _, w := range strings.Fields(list) {
			m[w] = true
		}
	}
	return m
}()

// Reserved reports whether name is reserved in any of the three languages.
func Reserved(name string) bool { return reservedWords[name] }
