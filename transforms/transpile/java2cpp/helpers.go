package java2cpp

import "strings"

// prelude is always emitted: the headers and the per-function option that gives signed
// arithmetic Java's two's-complement wrap-around (C++ signed overflow is undefined
// behaviour). The pragma applies to every function defined after it, i.e. to Code.
const prelude = `#include <bits/stdc++.h>
using namespace std;
#pragma GCC optimize("wrapv")
`

// helper is one C++ helper definition, emitted in Imports when the code uses it.
type helper struct {
	name string
	deps []string
	code string
}

// helpers lists the runtime helpers in emission order (deterministic, dependencies first).
var helpers = []helper{
	{name: "jx_dstr", code: `inline std::string jx_dstr(double d, bool isFloat) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  char buf[64];
  for (int p = 1; p <= 17; p++) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, d);
    if (isFloat ? (float)std::strtod(buf, nullptr) == (float)d : std::strtod(buf, nullptr) == d) break;
  }
  std::string s(buf);
  size_t e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp = std::atoi(s.c_str() + e + 1);
  bool neg = mant[0] == '-';
  if (neg) mant = mant.substr(1);
  std::string digits;
  for (char c : mant) if (c != '.') digits += c;
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out;
  if (std::fabs(d) >= 1e-3 && std::fabs(d) < 1e7) {
    if (exp >= 0) {
      std::string ip = digits.substr(0, std::min<size_t>(digits.size(), exp + 1));
      while ((int)ip.size() < exp + 1) ip += '0';
      std::string fp = (int)digits.size() > exp + 1 ? digits.substr(exp + 1) : "0";
      out = ip + "." + fp;
    } else {
      out = "0." + std::string(-exp - 1, '0') + digits;
    }
  } else {
    out = digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0") + "E" + std::to_string(exp);
  }
  return neg ? "-" + out : out;
}
`},
	{name: "jx_str", deps: []string{"jx_dstr"}, code: `inline std::string jx_str(const std::string& s) { return s; }
inline std::string jx_str(const char* s) { return s; }
inline std::string jx_str(char c) { return std::string(1, c); }
inline std::string jx_str(bool b) { return b ? "true" : "false"; }
inline std::string jx_str(int x) { return std::to_string(x); }
inline std::string jx_str(long long x) { return std::to_string(x); }
inline std::string jx_str(short x) { return std::to_string(x); }
inline std::string jx_str(signed char x) { return std::to_string(x); }
inline std::string jx_str(double x) { return jx_dstr(x, false); }
inline std::string jx_str(float x) { return jx_dstr(x, true); }
`},
	{name: "jx_indexOf", code: `template <class X> inline int jx_indexOf(const std::string& s, const X& x, int from = 0) {
  if (from < 0) from = 0;
  if (from > (int)s.size()) return -1;
  size_t p = s.find(x, from);
  return p == std::string::npos ? -1 : (int)p;
}
`},
	{name: "jx_lastIndexOf", code: `template <class X> inline int jx_lastIndexOf(const std::string& s, const X& x) {
  size_t p = s.rfind(x);
  return p == std::string::npos ? -1 : (int)p;
}
`},
	{name: "jx_compare", code: `inline int jx_compare(const std::string& a, const std::string& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t k = 0; k < n; k++)
    if (a[k] != b[k]) return (int)(unsigned char)a[k] - (int)(unsigned char)b[k];
  return (int)a.size() - (int)b.size();
}
`},
	{name: "jx_d2i", code: `inline int jx_d2i(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 2147483647.0) return INT_MAX;
  if (d <= -2147483648.0) return INT_MIN;
  return (int)d;
}
`},
	{name: "jx_d2l", code: `inline long long jx_d2l(double d) {
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775807.0) return LLONG_MAX;
  if (d <= -9223372036854775808.0) return LLONG_MIN;
  return (long long)d;
}
`},
	{name: "jx_div", code: `template <class T> inline T jx_div(T a, T b) { return (b == -1) ? (T)(0 - (typename std::make_unsigned<T>::type)a) : a / b; }
template <class T> inline T jx_mod(T a, T b) { return (b == -1) ? 0 : a % b; }
`},
	{name: "jx_popBack", code: `template <class C> inline typename C::value_type jx_popBack(C& c) {
  typename C::value_type v = c.back();
  c.pop_back();
  return v;
}
`},
	{name: "jx_popFront", code: `template <class C> inline typename C::value_type jx_popFront(C& c) {
  typename C::value_type v = c.front();
  c.pop_front();
  return v;
}
`},
	{name: "jx_pqPoll", code: `template <class Q> inline typename Q::value_type jx_pqPoll(Q& q) {
  typename Q::value_type v = q.top();
  q.pop();
  return v;
}
`},
	{name: "jx_get", code: `template <class M, class K> inline typename M::mapped_type jx_get(const M& m, const K& k) {
  auto it = m.find(k);
  return it == m.end() ? typename M::mapped_type() : it->second;
}
template <class M, class K, class V> inline typename M::mapped_type jx_getOrDefault(const M& m, const K& k, const V& d) {
  auto it = m.find(k);
  return it == m.end() ? (typename M::mapped_type)d : it->second;
}
`},
	{name: "jx_contains", code: `template <class C, class X> inline bool jx_contains(const C& c, const X& x) {
  return std::find(c.begin(), c.end(), x) != c.end();
}
`},
	{name: "jx_copyRange", code: `template <class T> inline std::vector<T> jx_copyRange(const std::vector<T>& a, int from, int to) {
  std::vector<T> r(std::max(0, to - from));
  for (int i = from; i < to && i < (int)a.size(); i++) r[i - from] = a[i];
  return r;
}
template <class T> inline std::vector<T> jx_copyRange(const T* a, int from, int to) {
  return std::vector<T>(a + from, a + to);
}
`},
	{name: "jx_append", deps: []string{"jx_str"}, code: `template <class X> inline std::string& jx_append(std::string& s, const X& x) {
  s += jx_str(x);
  return s;
}
template <class X> inline std::string jx_append(std::string&& s, const X& x) {
  s += jx_str(x);
  return s;
}
`},
	{name: "jx_reverse", code: `inline std::string& jx_reverse(std::string& s) {
  std::reverse(s.begin(), s.end());
  return s;
}
inline std::string jx_reverse(std::string&& s) {
  std::reverse(s.begin(), s.end());
  return s;
}
`},
	{name: "jx_keys", code: `template <class M> inline std::set<typename M::key_type> jx_keys(const M& m) {
  std::set<typename M::key_type> r;
  for (auto& e : m) r.insert(e.first);
  return r;
}
template <class M> inline std::vector<typename M::mapped_type> jx_values(const M& m) {
  std::vector<typename M::mapped_type> r;
  for (auto& e : m) r.push_back(e.second);
  return r;
}
`},
	{name: "jx_removeAt", code: `template <class C> inline typename C::value_type jx_removeAt(C& c, int i) {
  typename C::value_type v = c[i];
  c.erase(c.begin() + i);
  return v;
}
template <class C, class X> inline bool jx_removeValue(C& c, const X& x) {
  auto it = std::find(c.begin(), c.end(), x);
  if (it == c.end()) return false;
  c.erase(it);
  return true;
}
`},
	{name: "jx_substr", code: `inline std::string jx_substr(const std::string& s, int b, int e) { return s.substr(b, e - b); }
inline std::string jx_substr(const std::string& s, int b) { return s.substr(b); }
`},
	{name: "jx_toBinary", code: `inline std::string jx_toBinary(unsigned long long x) {
  if (x == 0) return "0";
  std::string r;
  while (x) { r += (char)('0' + (x & 1)); x >>= 1; }
  std::reverse(r.begin(), r.end());
  return r;
}
`},
	{name: "jx_char", code: `inline bool jx_isDigit(int c) { return c >= '0' && c <= '9'; }
inline bool jx_isUpper(int c) { return c >= 'A' && c <= 'Z'; }
inline bool jx_isLower(int c) { return c >= 'a' && c <= 'z'; }
inline bool jx_isLetter(int c) { return jx_isUpper(c) || jx_isLower(c); }
inline bool jx_isLetterOrDigit(int c) { return jx_isLetter(c) || jx_isDigit(c); }
inline bool jx_isWhitespace(int c) { return c == ' ' || (c >= 9 && c <= 13) || (c >= 28 && c <= 31); }
inline char jx_toUpper(int c) { return jx_isLower(c) ? (char)(c - 32) : (char)c; }
inline char jx_toLower(int c) { return jx_isUpper(c) ? (char)(c + 32) : (char)c; }
inline int jx_numericValue(int c) {
  if (jx_isDigit(c)) return c - '0';
  if (jx_isLower(c)) return c - 'a' + 10;
  if (jx_isUpper(c)) return c - 'A' + 10;
  return -1;
}
`},
	{name: "jx_strcase", code: `inline std::string jx_upper(std::string s) { for (char& c : s) if (c >= 'a' && c <= 'z') c -= 32; return s; }
inline std::string jx_lower(std::string s) { for (char& c : s) if (c >= 'A' && c <= 'Z') c += 32; return s; }
`},
	{name: "jx_floorDiv", code: `template <class T> inline T jx_floorDiv(T a, T b) { T q = a / b; if ((a % b != 0) && ((a < 0) != (b < 0))) q--; return q; }
template <class T> inline T jx_floorMod(T a, T b) { return a - jx_floorDiv(a, b) * b; }
`},
	{name: "jx_round", code: `inline long long jx_round(double x) { return (long long)std::floor(x + 0.5); }
inline int jx_round(float x) { return (int)std::floor(x + 0.5f); }
`},
	{name: "jx_replace", code: `inline std::string jx_replace(std::string s, char a, char b) { for (char& c : s) if (c == a) c = b; return s; }
inline std::string jx_replace(std::string s, const std::string& a, const std::string& b) {
  if (a.empty()) return s;
  std::string r;
  size_t i = 0, p;
  while ((p = s.find(a, i)) != std::string::npos) { r += s.substr(i, p - i) + b; i = p + a.size(); }
  return r + s.substr(i);
}
`},
	{name: "jx_split", code: `inline std::vector<std::string> jx_split(const std::string& s, const std::string& d) {
  std::vector<std::string> r;
  if (s.empty()) return {""};
  size_t i = 0, p;
  while ((p = s.find(d, i)) != std::string::npos) { r.push_back(s.substr(i, p - i)); i = p + d.size(); }
  r.push_back(s.substr(i));
  while (r.size() > 1 && r.back().empty()) r.pop_back();
  if (r.size() == 1 && r[0].empty() && !s.empty()) r.clear();
  return r;
}
`},
	{name: "jx_trim", code: `inline std::string jx_trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && (unsigned char)s[b] <= ' ') b++;
  while (e > b && (unsigned char)s[e - 1] <= ' ') e--;
  return s.substr(b, e - b);
}
`},
}

// imports renders the prelude and the used helpers, with their dependencies, in a fixed
// order.
func imports(used map[string]bool) string {
	need := map[string]bool{}
	var add func(n string)
	add = func(n string) {
		if need[n] {
			return
		}
		need[n] = true
		for _, h := range helpers {
			if h.name == n {
				for _, d := range h.deps {
					add(d)
				}
			}
		}
	}
	for n := range used {
		add(n)
	}
	var b strings.Builder
	b.WriteString(prelude)
	for _, h := range helpers {
		if need[h.name] {
			b.WriteString(h.code)
		}
	}
	return b.String()
}
