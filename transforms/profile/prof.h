// Transmute's profiling harness for C++ (transforms/profile): the value printer and
// argument adapters of the C++ execution engine's harness (transforms/execute/cpp),
// plus a reader of the binary-free token data file the Go side writes.
#include <bits/stdc++.h>
#include <cxxabi.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace th {

inline int proto_fd = -1;

inline void write_all(const std::string& s) {
  const char* p = s.data();
  size_t n = s.size();
  while (n > 0) {
    ssize_t w = ::write(proto_fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) _exit(121);
    p += w;
    n -= size_t(w);
  }
}

// The candidate's output goes to /dev/null; the results go to a copy of fd 1.
struct Redirect {
  Redirect() {
    proto_fd = ::dup(1);
    int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      if (null > 2) ::close(null);
    }
  }
};
// The Redirect object is defined in each generated program, not here: this header
// is precompiled, and GCC drops an inline variable's prioritized initializer when
// the variable comes from a precompiled header.

inline void jstr(std::string& o, const std::string& s) {
  o += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char b[8];
          snprintf(b, sizeof b, "\\u%04x", c);
          o += b;
        } else {
          o += char(c);
        }
    }
  }
  o += '"';
}

// A char is one byte; bytes above 127 are read as Latin-1 (as a Java char would be).
inline void jchar(std::string& o, char c) {
  unsigned char u = (unsigned char)c;
  if (u >= 0x80) {
    char b[8];
    snprintf(b, sizeof b, "\"\\u%04x\"", u);
    o += b;
    return;
  }
  jstr(o, std::string(1, c));
}

inline bool special(std::string& o, double d) {
  if (std::isnan(d)) { o += "\"NaN\""; return true; }
  if (std::isinf(d)) { o += d > 0 ? "\"Infinity\"" : "\"-Infinity\""; return true; }
  return false;
}

// Shortest of %.15g..%.17g that reads back exactly.
inline void jdouble(std::string& o, double d) {
  if (special(o, d)) return;
  char b[40];
  for (int p = 15; p <= 17; p++) {
    snprintf(b, sizeof b, "%.*g", p, d);
    if (strtod(b, nullptr) == d) break;
  }
  o += b;
}

inline void jfloat(std::string& o, float f) {
  if (special(o, f)) return;
  char b[40];
  for (int p = 6; p <= 9; p++) {
    snprintf(b, sizeof b, "%.*g", p, double(f));
    if (strtof(b, nullptr) == f) break;
  }
  o += b;
}

// ---- value printer ------------------------------------------------------------------

enum Kind { KI, KL, KF, KD, KB, KC, KS };

template <class X, class = void>
struct is_seq : std::false_type {};
template <class X>
struct is_seq<X, std::void_t<decltype(std::begin(std::declval<const X&>())),
                             decltype(std::end(std::declval<const X&>()))>> : std::true_type {};

template <class X>
constexpr bool is_str_v = std::is_same_v<X, std::string> || std::is_same_v<X, std::string_view> ||
                          std::is_same_v<X, char*> || std::is_same_v<X, const char*>;

// pv prints x as a JSON value of the declared kind K with D array dimensions.
template <int K, int D, class X>
void pv(std::string& o, const X& x) {
  using T = std::decay_t<X>;
  if constexpr (is_str_v<T>) {
    if constexpr (std::is_pointer_v<T>) {
      if (x == nullptr) { o += "null"; return; }
    }
    std::string s(x);
    if constexpr (D == 1 && K == KC) {  // a char[] returned as a string
      o += '[';
      for (size_t i = 0; i < s.size(); i++) {
        if (i) o += ',';
        jchar(o, s[i]);
      }
      o += ']';
    } else {
      jstr(o, s);
    }
  } else if constexpr (is_seq<T>::value) {
    o += '[';
    bool first = true;
    for (auto&& e : x) {
      if (!first) o += ',';
      first = false;
      pv<K, (D > 0 ? D - 1 : 0)>(o, e);
    }
    o += ']';
  } else if constexpr (std::is_pointer_v<T>) {
    static_assert(!std::is_pointer_v<T>, "transmute: cannot print a pointer (the size of an array returned as a pointer is unknown)");
  } else if constexpr (K == KB) {
    o += (x ? "true" : "false");
  } else if constexpr (K == KC) {
    if constexpr (std::is_integral_v<T>) jchar(o, char(x));
    else jdouble(o, double(x));
  } else if constexpr (K == KS) {
    if constexpr (std::is_same_v<T, char>) jstr(o, std::string(1, x));
    else if constexpr (std::is_arithmetic_v<T>) jdouble(o, double(x));
    else jstr(o, std::string(x));
  } else if constexpr (K == KF) {
    jfloat(o, float(x));
  } else if constexpr (K == KD) {
    jdouble(o, double(x));
  } else {  // int, long
    if constexpr (std::is_floating_point_v<T>) {
      jdouble(o, double(x));
    } else if constexpr (std::is_same_v<T, bool>) {
      o += x ? "1" : "0";
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      o += std::to_string((long long)x);
    } else if constexpr (std::is_integral_v<T>) {
      o += std::to_string((unsigned long long)x);
    } else if constexpr (std::is_same_v<T, __int128>) {
      o += std::to_string((long long)x);
    } else {
      o += std::to_string((long long)x);  // an enum or a class convertible to an integer
    }
  }
}

// ---- argument adapters ---------------------------------------------------------------

template <class T>
using vec = std::vector<T>;

// Arr holds a 1-D array argument and converts to what the candidate takes: T*, a
// vector<T> (by reference or value), a vector of another element type (by value), a
// pointer to a same-size integer type (long* for long long), or a string for char[].
template <class T>
struct Arr {
  vec<T> v;
  std::unique_ptr<bool[]> bools;  // bool* view (vector<bool> has no data())
  size_t nbools = 0;

  Arr() { terminate_chars(); }
  Arr(std::initializer_list<T> l) : v(l) { terminate_chars(); }
  Arr(const Arr& a) : v(a.v) { terminate_chars(); }
  Arr(Arr&&) = default;

  void terminate_chars() {  // a char[] passed as char* ends with a NUL
    if constexpr (std::is_same_v<T, char>) {
      v.reserve(v.size() + 1);
      v.push_back(0);
      v.pop_back();
    }
  }
  operator T*() {
    if constexpr (std::is_same_v<T, bool>) {
      nbools = v.size();
      bools.reset(new bool[nbools + 1]);
      for (size_t i = 0; i < nbools; i++) bools[i] = v[i];
      return bools.get();
    } else {
      return v.data();
    }
  }
  template <class U, std::enable_if_t<std::is_integral_v<U> && std::is_integral_v<T> && !std::is_same_v<U, T> &&
                                          !std::is_same_v<T, bool> && sizeof(U) == sizeof(T),
                                      int> = 0>
  operator U*() {
    return reinterpret_cast<U*>(v.data());
  }
  operator vec<T>&() { return v; }
  template <class U, std::enable_if_t<!std::is_same_v<U, T> && std::is_convertible_v<T, U>, int> = 0>
  operator vec<U>() const {
    return vec<U>(v.begin(), v.end());
  }
  template <class S = T, std::enable_if_t<std::is_same_v<S, char>, int> = 0>
  operator std::string() const {
    return std::string(v.begin(), v.end());
  }
  const vec<T>& cur() {
    if constexpr (std::is_same_v<T, bool>) {
      if (bools)
        for (size_t i = 0; i < nbools && i < v.size(); i++) v[i] = bools[i];
    }
    return v;
  }
};

// Arr2 holds a 2-D array: vector<vector<T>> (by reference or value), T** (rows), or a
// pointer to fixed-size rows (int a[][N]).
template <class T>
struct Arr2 {
  vec<vec<T>> v;
  vec<T*> rows;
  vec<T> flat;
  size_t flatN = 0;

  Arr2() = default;
  Arr2(std::initializer_list<vec<T>> l) : v(l) {}
  Arr2(const Arr2& a) : v(a.v) {}
  Arr2(Arr2&&) = default;

  operator vec<vec<T>>&() { return v; }
  template <class U, std::enable_if_t<!std::is_same_v<U, T> && std::is_convertible_v<T, U>, int> = 0>
  operator vec<vec<U>>() const {
    vec<vec<U>> r;
    for (auto& x : v) r.emplace_back(x.begin(), x.end());
    return r;
  }
  template <class S = T, std::enable_if_t<!std::is_same_v<S, bool>, int> = 0>
  operator T**() {
    rows.clear();
    for (auto& r : v) rows.push_back(r.data());
    return rows.data();
  }
  template <size_t N>
  using row = T[N];
  template <size_t N>
  operator row<N>*() {
    flatN = N;
    flat.assign(v.size() * N, T());
    for (size_t i = 0; i < v.size(); i++)
      for (size_t j = 0; j < v[i].size() && j < N; j++) flat[i * N + j] = v[i][j];
    return reinterpret_cast<row<N>*>(flat.data());
  }
  template <class S = T, std::enable_if_t<std::is_same_v<S, char>, int> = 0>
  operator vec<std::string>() const {
    vec<std::string> r;
    for (auto& x : v) r.emplace_back(x.begin(), x.end());
    return r;
  }
  const vec<vec<T>>& cur() {
    if (flatN)
      for (size_t i = 0; i < v.size(); i++)
        for (size_t j = 0; j < v[i].size() && j < flatN; j++) v[i][j] = flat[i * flatN + j];
    return v;
  }
};

// Arr3 holds a 3-D array (a memoization table such as TransCoder-test's int dp[][][]):
// vector<vector<vector<T>>> (by reference or value), T*** (planes of rows), or a
// pointer to fixed-size planes (int dp[][N][M]), whose copy cur() reads back as Arr2's.
template <class T>
struct Arr3 {
  vec<vec<vec<T>>> v;
  vec<vec<T*>> rows;
  vec<T**> planes;
  vec<T> flat;
  size_t flatN = 0, flatM = 0;

  Arr3() = default;
  Arr3(std::initializer_list<vec<vec<T>>> l) : v(l) {}
  Arr3(const Arr3& a) : v(a.v) {}
  Arr3(Arr3&&) = default;

  operator vec<vec<vec<T>>>&() { return v; }
  template <class U, std::enable_if_t<!std::is_same_v<U, T> && std::is_convertible_v<T, U>, int> = 0>
  operator vec<vec<vec<U>>>() const {
    vec<vec<vec<U>>> r(v.size());
    for (size_t i = 0; i < v.size(); i++)
      for (auto& x : v[i]) r[i].emplace_back(x.begin(), x.end());
    return r;
  }
  template <class S = T, std::enable_if_t<!std::is_same_v<S, bool>, int> = 0>
  operator T***() {
    rows.assign(v.size(), {});
    planes.clear();
    for (size_t i = 0; i < v.size(); i++) {
      for (auto& r : v[i]) rows[i].push_back(r.data());
      planes.push_back(rows[i].data());
    }
    return planes.data();
  }
  template <size_t N, size_t M>
  using plane = T[N][M];
  template <size_t N, size_t M>
  operator plane<N, M>*() {
    flatN = N;
    flatM = M;
    flat.assign(v.size() * N * M, T());
    for (size_t i = 0; i < v.size(); i++)
      for (size_t j = 0; j < v[i].size() && j < N; j++)
        for (size_t k = 0; k < v[i][j].size() && k < M; k++) flat[(i * N + j) * M + k] = v[i][j][k];
    return reinterpret_cast<plane<N, M>*>(flat.data());
  }
  template <class S = T, std::enable_if_t<std::is_same_v<S, char>, int> = 0>
  operator vec<vec<std::string>>() const {
    vec<vec<std::string>> r(v.size());
    for (size_t i = 0; i < v.size(); i++)
      for (auto& x : v[i]) r[i].emplace_back(x.begin(), x.end());
    return r;
  }
  const vec<vec<vec<T>>>& cur() {
    if (flatN)
      for (size_t i = 0; i < v.size(); i++)
        for (size_t j = 0; j < v[i].size() && j < flatN; j++)
          for (size_t k = 0; k < v[i][j].size() && k < flatM; k++) v[i][j][k] = flat[(i * flatN + j) * flatM + k];
    return v;
  }
};

// Str holds a string argument: std::string (by reference or value), char*, const char*.
struct Str {
  std::string s;
  Str() = default;
  Str(const char* p, size_t n) : s(p, n) {}
  operator std::string&() { return s; }
  operator char*() { return s.data(); }
  operator const char*() const { return s.c_str(); }
  operator std::string_view() const { return s; }
};


// ---- data file reader ------------------------------------------------------------------
// Tokens separated by one blank: integers, floats (hex or nan/inf), a string as
// "<bytes> <raw bytes>", an array as "<n> e1 ... en".
struct Reader {
  std::string buf;
  size_t pos = 0;
  explicit Reader(const char* path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    buf = ss.str();
  }
  void skip() {
    while (pos < buf.size() && (buf[pos] == ' ' || buf[pos] == '\n')) pos++;
  }
  long long integer() {
    skip();
    char* end;
    long long v = strtoll(buf.c_str() + pos, &end, 10);
    pos = end - buf.c_str();
    return v;
  }
  double real() {
    skip();
    char* end;
    double v = strtod(buf.c_str() + pos, &end);
    pos = end - buf.c_str();
    return v;
  }
  std::string str() {
    size_t n = (size_t)integer();
    pos++;  // the one blank after the length
    std::string s = buf.substr(pos, n);
    pos += n;
    return s;
  }
  template <class T>
  T get() {
    if constexpr (std::is_same_v<T, std::string>) return str();
    else if constexpr (std::is_floating_point_v<T>) return (T)real();
    else return (T)integer();
  }
  template <class T>
  std::vector<T> vec() {
    size_t n = (size_t)integer();
    std::vector<T> v;
    v.reserve(n + 1);
    for (size_t i = 0; i < n; i++) v.push_back(get<T>());
    return v;
  }
};

template <class T>
inline void fill(Reader& r, T& x) { x = r.get<T>(); }
inline void fill(Reader& r, Str& x) { x.s = r.str(); }
template <class T>
inline void fill(Reader& r, Arr<T>& x) {
  x.v = r.vec<T>();
  x.terminate_chars();
}
template <class T>
inline void fill(Reader& r, Arr2<T>& x) {
  size_t n = (size_t)r.integer();
  x.v.clear();
  for (size_t i = 0; i < n; i++) x.v.push_back(r.vec<T>());
}
template <class T>
inline void fill(Reader& r, Arr3<T>& x) {
  size_t n = (size_t)r.integer();
  x.v.assign(n, {});
  for (auto& p : x.v) {
    size_t m = (size_t)r.integer();
    for (size_t j = 0; j < m; j++) p.push_back(r.vec<T>());
  }
}

inline void ok(int t, const std::string& v) {
  write_all("{\"c\":0,\"t\":" + std::to_string(t) + ",\"s\":\"ok\",\"v\":" + v + "}\n");
}

inline void fail(int t, const char* status, const std::string& msg) {
  std::string o = "{\"c\":0,\"t\":" + std::to_string(t) + ",\"s\":\"" + status + "\",\"e\":";
  jstr(o, msg.size() > 300 ? msg.substr(0, 300) + "..." : msg);
  write_all(o + "}\n");
}

inline std::string type_name(const std::type_info& ti) {
  int st = 0;
  char* d = abi::__cxa_demangle(ti.name(), nullptr, nullptr, &st);
  std::string s = (st == 0 && d) ? d : ti.name();
  free(d);
  return s;
}

// peak_rss_kb is VmHWM of this process image (the rusage figure may include the
// parent's memory from before exec).
inline long long peak_rss_kb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return atoll(line.c_str() + 6);
  return 0;
}

// run_on_big_stack runs f on a thread with a large stack (deep recursion), or directly.
inline void run_on_big_stack(void (*f)(), size_t stack) {
  pthread_attr_t attr;
  pthread_t tid;
  if (pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, stack) == 0 &&
      pthread_create(&tid, &attr, [](void* p) -> void* { ((void (*)())p)(); return nullptr; }, (void*)f) == 0) {
    pthread_join(tid, nullptr);
    return;
  }
  f();
}

}  // namespace th

#define TH_CATCH(T)                                                          \
  catch (const std::bad_alloc& e) {                                          \
    th::fail(T, "memory_limit", th::type_name(typeid(e)) + ": " + e.what()); \
  }                                                                          \
  catch (const std::exception& e) {                                          \
    th::fail(T, "exception", th::type_name(typeid(e)) + ": " + e.what());    \
  }                                                                          \
  catch (...) {                                                              \
    th::fail(T, "exception", "unknown exception");                           \
  }
