// Transmute's profiling harness for C++ (transforms/profile): the value printer and
// argument adapters of the C++ execution engine's harness (transforms/execute/cpp),
// plus a reader of the binary-free token data file the Go side writes.
#include <bits/stdc++.h>
#include <cxxabi.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
// Collection is per thread (--collect-atstart=no): the main thread's pthread_join,
// which valgrind may run after the calls' thread has started counting, is not
// counted (it added 1,011 instructions to some C++ counts on a busy machine).
#define TH_COUNT_START() do { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; } while (0)
#define TH_COUNT_STOP() do { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_STOP_INSTRUMENTATION; } while (0)
#else
#define TH_COUNT_START() ((void)0)
#define TH_COUNT_STOP() ((void)0)
#endif

namespace th {

inline int proto_fd = -1;

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

// build.go puts the JSON string and number printers of the C++ engine's harness
// (its "JSON primitives" section) in place of the next line, inline here.
#define TH_RT inline
// TH_JSON_PRIMITIVES
#undef TH_RT

// build.go puts the value printer and argument adapters of the C++ engine's harness
// (transforms/execute/cpp/harness.h, from its "value printer" section to its
// "per-test measurement" section) in place of the next line, so that both harnesses
// print values and convert arguments with the same code.
// TH_VALUE_PRINTER_AND_ADAPTERS

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

// ---- the candidate's calls: instructions, thread CPU, heap -----------------------------
// calls_begin and calls_end bracket the loop over the tests: under callgrind
// (--instr-atstart=no) only the instructions between them are counted; calls_ns is
// the thread CPU time between them; alloc_peak the peak of the live heap (bytes from
// operator new, by malloc_usable_size) above its level at calls_begin.
inline long long heap_live = 0, heap_peak = 0, heap_base = 0;
inline long long calls_ns = -1, alloc_peak = -1, calls_t0 = 0;

inline long long thread_ns() {
  timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

inline void calls_begin() {
  heap_base = heap_peak = heap_live;
  calls_t0 = thread_ns();
  TH_COUNT_START();
}

inline void calls_end() {
  TH_COUNT_STOP();
  calls_ns = thread_ns() - calls_t0;
  alloc_peak = heap_peak - heap_base;
}

inline void* counted_alloc(std::size_t n) {
  void* p = malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  heap_live += (long long)malloc_usable_size(p);
  if (heap_live > heap_peak) heap_peak = heap_live;
  return p;
}

inline void counted_free(void* p) {
  if (!p) return;
  heap_live -= (long long)malloc_usable_size(p);
  free(p);
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

// The counting allocator: every C++ heap allocation of the program (the candidate's
// containers included) goes through th::counted_alloc. Defined here, not inline
// (replacement functions cannot be), as each program includes this header once.
void* operator new(std::size_t n) { return th::counted_alloc(n); }
void* operator new[](std::size_t n) { return th::counted_alloc(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try { return th::counted_alloc(n); } catch (...) { return nullptr; }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try { return th::counted_alloc(n); } catch (...) { return nullptr; }
}
void operator delete(void* p) noexcept { th::counted_free(p); }
void operator delete[](void* p) noexcept { th::counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { th::counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { th::counted_free(p); }

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
