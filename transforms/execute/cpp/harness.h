// Transmute's C++ harness: included (precompiled) first in every generated program.
// It holds the argument adapters, the value printer and the protocol writer; the
// generated code adds the candidates (one namespace each), the tests and main.

#include <bits/stdc++.h>
#include <cxxabi.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace th {

// ---- protocol output -------------------------------------------------------------

inline int proto_fd = -1;
inline int cmd_fd = -1;  // serve mode: a copy of fd 0, the engine's commands

void write_all(const std::string& s);

// The candidates' output goes to /dev/null; the protocol goes to a copy of fd 1. This
// runs before any other static initializer of the program (init_priority). It is
// defined in harness_rt.o alone: a unit has no load-time code of its own
// (loadtime.go), so that one with a candidate's is told apart.
struct Redirect {
  Redirect() {
    proto_fd = ::dup(1);
    cmd_fd = ::dup(0);
    int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      ::dup2(null, 2);
      if (null > 2) ::close(null);
    }
  }
};
#ifdef TH_RUNTIME
__attribute__((init_priority(101))) Redirect redirect_;
#endif

void jstr(std::string& o, const std::string& s);

// A char is one byte; bytes above 127 are read as Latin-1 (as a Java char would be).
void jchar(std::string& o, char c);

bool special(std::string& o, double d);

// Shortest of %.15g..%.17g that reads back exactly.
void jdouble(std::string& o, double d);

void jfloat(std::string& o, float f);

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
  Arr(const T* p, size_t n) : v(p, p + n) { terminate_chars(); }  // a test's static data
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
  Arr2(const T* const* rows, const size_t* lens, size_t n) {  // a test's static data
    v.reserve(n);
    for (size_t i = 0; i < n; i++) v.emplace_back(rows[i], rows[i] + lens[i]);
  }
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
  // a test's static data: the elements of all rows one after another in data, row k
  // of lens[k] elements, plane i of nrows[i] rows (one array rather than one per row:
  // a TransCoder-test table has up to 45 x 45 rows)
  Arr3(const T* data, const size_t* lens, const size_t* nrows, size_t n) {
    v.resize(n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      v[i].reserve(nrows[i]);
      for (size_t j = 0; j < nrows[i]; j++, k++) {
        v[i].emplace_back(data, data + lens[k]);
        data += lens[k];
      }
    }
  }
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

// as passes an argument as the type T that the benchmark's C++ gold declares, as its
// test scripts do (Batch.CallTypes): an lvalue of the holder's own data when T& binds
// to it (vector<int>&, std::string, int), else a value converted to T (int* from a
// vector, long from long long). When the holder cannot give T at all (vector<long>
// from the neutral long's long long elements), it passes the holder, which adapts.
template <class T, class H>
decltype(auto) as(H& h) {
  if constexpr (std::is_convertible_v<H&, T&>)
    return static_cast<T&>(h);
  else if constexpr (std::is_convertible_v<H&, T>)
    return static_cast<T>(h);
  else
    return (h);
}

// ---- per-test measurement and limits ---------------------------------------------------

inline double wall_limit = 10, cpu_limit = 10;
inline timespec c0, w0;
inline long long cpu_ns, wall_ns;

void arm(double secs, int which);

inline long long ns(const timespec& a, const timespec& b) {
  return (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
}

void begin();

void end();

void ok(int c, int t, const std::string& v);

void fail(int c, int t, const char* status, const std::string& msg);

std::string type_name(const std::type_info& ti);

// BadArgs is thrown by the generated test maker when a test's arguments could not be
// turned into C++ values.
struct BadArgs {
  const char* why;
};

// run_on_big_stack runs f on a thread with a large stack (deep recursion), or directly.
// While it runs, the calling thread blocks every signal, so a signal sent to the
// process (a candidate's kill(getpid(), SIGSEGV), the interval timers) is taken by
// the test thread, at once, rather than by a thread in pthread_join after the test
// thread has gone on and reported the test.
void run_on_big_stack(void (*f)(int), int from, size_t stack);

// ---- serve mode --------------------------------------------------------------------
//
// One sandboxed process serves all candidates of a program: it reads commands
// "<g> <from> <wall s> <cpu s> <budget s> <stack bytes>" on cmd_fd and forks a child per command
// that runs candidate g's tests from test `from` (as the program does when started
// with those arguments). The child writes its protocol lines to a pipe of its own (its
// proto_fd), never to the server's stdout, which it has no handle on: the server
// forwards each whole line it wrote as "#o <line>", so the engine knows them for the
// child's and nothing the child writes can pass for the server's lines or for another
// child's; the server is non-dumpable, so that the child cannot open its
// /proc/<pid>/fd or mem either. When the child has ended, its process group is killed
// and the server writes
// "#exit <g> <exit code or -1> <signal or 0> <cpu ns> <max rss KiB> <wall killed 0|1>".
// The budget bounds the child's wall time (its own timers may be ignored or blocked).
// A command that cannot be carried out gets "#fail <reason>".
// With reap_ns (the server is PID 2 of a PID namespace of its own, under the
// sandbox's init) every other process of the namespace is killed too, so nothing a
// candidate started outlives it.

struct Entry {
  void (*f)(int);
  int c;
};

bool read_cmd(std::string& buf, std::string& line);

long long mono_ns();

// wait_child waits for pid for at most budget_ns, killing its group after that, and
// forwards the lines the child writes to out (non-blocking).
void wait_child(pid_t pid, long long budget_ns, int out, int& status, rusage& ru, bool& killed);

int serve(Entry (*lookup)(int), bool reap_ns);

// run_deferred_init runs, in the process that serves one candidate's tests, the
// load-time code the engine moved out of a unit of one candidate (loadtime.go): the
// entries of its .preinit_array, .init_array and .ctors, renamed th_preinit_array,
// th_init_array and th_ctors so that the loader does not run them in the server.
// It returns whether there were any.
bool run_deferred_init();

// ---- runtime ---------------------------------------------------------------------
//
// The functions declared above are defined once, in harness_rt.o (this header compiled
// with TH_RUNTIME, which the engine links into every program), rather than emitted and
// optimized again in every translation unit: serve alone added 0.2 s of compiler CPU
// to each unit at -O2.
#ifdef TH_RUNTIME
#define TH_RT

// ---- JSON primitives ----------------------------------------------------------------
// The protocol writer and the JSON printers. The profiling harness
// (transforms/profile/prof.h) includes this section too, with TH_RT defined as inline; here the functions are defined once, in harness_rt.o.
TH_RT void write_all(const std::string& s) {
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

TH_RT void jstr(std::string& o, const std::string& s) {
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

TH_RT void jchar(std::string& o, char c) {
  unsigned char u = (unsigned char)c;
  if (u >= 0x80) {
    char b[8];
    snprintf(b, sizeof b, "\"\\u%04x\"", u);
    o += b;
    return;
  }
  jstr(o, std::string(1, c));
}

TH_RT bool special(std::string& o, double d) {
  if (std::isnan(d)) { o += "\"NaN\""; return true; }
  if (std::isinf(d)) { o += d > 0 ? "\"Infinity\"" : "\"-Infinity\""; return true; }
  return false;
}

TH_RT void jdouble(std::string& o, double d) {
  if (special(o, d)) return;
  char b[40];
  for (int p = 15; p <= 17; p++) {
    snprintf(b, sizeof b, "%.*g", p, d);
    if (strtod(b, nullptr) == d) break;
  }
  o += b;
}

TH_RT void jfloat(std::string& o, float f) {
  if (special(o, f)) return;
  char b[40];
  for (int p = 6; p <= 9; p++) {
    snprintf(b, sizeof b, "%.*g", p, double(f));
    if (strtof(b, nullptr) == f) break;
  }
  o += b;
}
// ---- end JSON primitives

void arm(double secs, int which) {
  itimerval it{};
  if (secs > 0) {
    it.it_value.tv_sec = (time_t)secs;
    it.it_value.tv_usec = (suseconds_t)((secs - (double)(time_t)secs) * 1e6);
    if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
  }
  setitimer(which, &it, nullptr);
}

// The CPU limit is a POSIX timer on the process's CPU clock, made in each process that
// runs tests (fork does not copy timers). It counts what the scheduler counts, as the
// reported cpu_ns do; ITIMER_PROF, the fallback, counts a whole tick for whoever runs
// when the tick comes, and beside short-lived tasks fired at 0.66 of the CPU it was
// set to (docs/runs/2026-11-26-cpu-timers.md).
static timer_t cpu_timer;
static pid_t cpu_timer_pid = 0;  // the process cpu_timer was made in
static bool cpu_timer_made = false;

void arm_cpu(double secs) {
  pid_t me = getpid();
  if (cpu_timer_pid != me) {
    sigevent ev{};
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGPROF;
    cpu_timer_made = timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &cpu_timer) == 0;
    cpu_timer_pid = me;
  }
  if (!cpu_timer_made) {
    arm(secs, ITIMER_PROF);
    return;
  }
  itimerspec it{};
  if (secs > 0) {
    long long ns = (long long)(secs * 1e9);
    it.it_value.tv_sec = (time_t)(ns / 1000000000LL);
    it.it_value.tv_nsec = (long)(ns % 1000000000LL);
    if (ns <= 0) it.it_value.tv_nsec = 1;
  }
  timer_settime(cpu_timer, 0, &it, nullptr);
}

void begin() {
  arm(wall_limit, ITIMER_REAL);
  arm_cpu(cpu_limit);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  clock_gettime(CLOCK_MONOTONIC, &w0);
}

void end() {
  timespec c1, w1;
  clock_gettime(CLOCK_MONOTONIC, &w1);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  arm(0, ITIMER_REAL);
  arm_cpu(0);
  cpu_ns = ns(c0, c1);
  wall_ns = ns(w0, w1);
}

void ok(int c, int t, const std::string& v) {
  std::string o = "{\"c\":" + std::to_string(c) + ",\"t\":" + std::to_string(t) + ",\"s\":\"ok\",\"v\":" + v +
                  ",\"cpu_ns\":" + std::to_string(cpu_ns) + ",\"wall_ns\":" + std::to_string(wall_ns) + "}\n";
  write_all(o);
}

void fail(int c, int t, const char* status, const std::string& msg) {
  std::string o = "{\"c\":" + std::to_string(c) + ",\"t\":" + std::to_string(t) + ",\"s\":\"" + status + "\",\"e\":";
  jstr(o, msg.size() > 500 ? msg.substr(0, 500) + "..." : msg);
  o += ",\"cpu_ns\":" + std::to_string(cpu_ns) + ",\"wall_ns\":" + std::to_string(wall_ns) + "}\n";
  write_all(o);
}

std::string type_name(const std::type_info& ti) {
  int st = 0;
  char* d = abi::__cxa_demangle(ti.name(), nullptr, nullptr, &st);
  std::string s = (st == 0 && d) ? d : ti.name();
  free(d);
  return s;
}

void run_on_big_stack(void (*f)(int), int from, size_t stack) {
  struct Job {
    void (*f)(int);
    int from;
    sigset_t mask;
  } job{f, from, {}};
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &job.mask);
  pthread_attr_t attr;
  pthread_t tid;
  if (stack > 0 && pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, stack) == 0 &&
      pthread_create(
          &tid, &attr,
          [](void* p) -> void* {
            auto* j = static_cast<Job*>(p);
            pthread_sigmask(SIG_SETMASK, &j->mask, nullptr);
            j->f(j->from);
            return nullptr;
          },
          &job) == 0) {
    pthread_join(tid, nullptr);
    pthread_sigmask(SIG_SETMASK, &job.mask, nullptr);
    return;
  }
  pthread_sigmask(SIG_SETMASK, &job.mask, nullptr);
  f(from);
}

bool read_cmd(std::string& buf, std::string& line) {
  for (;;) {
    size_t nl = buf.find('\n');
    if (nl != std::string::npos) {
      line = buf.substr(0, nl);
      buf.erase(0, nl + 1);
      return true;
    }
    char tmp[512];
    ssize_t r = ::read(cmd_fd, tmp, sizeof tmp);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    buf.append(tmp, size_t(r));
  }
}

long long mono_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

// forward reads what the child wrote to out and writes each whole line as "#o <line>";
// it returns false at the pipe's end. buf keeps an unfinished line.
bool forward(int out, std::string& buf) {
  char tmp[1 << 16];
  for (;;) {
    ssize_t r = ::read(out, tmp, sizeof tmp);
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return false;
    if (r < 0) return errno == EAGAIN || errno == EWOULDBLOCK;
    size_t from = buf.size();
    buf.append(tmp, size_t(r));
    size_t start = 0;
    for (size_t nl; (nl = buf.find('\n', from)) != std::string::npos; from = start = nl + 1) {
      std::string o = "#o ";
      o.append(buf, start, nl + 1 - start);
      write_all(o);
    }
    buf.erase(0, start);
  }
}

extern "C" {
typedef void (*th_init_fn)(int, char**, char**);
typedef void (*th_ctor_fn)();
extern th_init_fn __start_th_preinit_array[] __attribute__((weak));
extern th_init_fn __stop_th_preinit_array[] __attribute__((weak));
extern th_init_fn __start_th_init_array[] __attribute__((weak));
extern th_init_fn __stop_th_init_array[] __attribute__((weak));
extern th_ctor_fn __start_th_ctors[] __attribute__((weak));
extern th_ctor_fn __stop_th_ctors[] __attribute__((weak));
}

bool run_deferred_init() {
  if (!__start_th_preinit_array && !__start_th_init_array && !__start_th_ctors) return false;
  for (th_init_fn* p = __start_th_preinit_array; p && p < __stop_th_preinit_array; ++p) (*p)(0, nullptr, environ);
  for (th_init_fn* p = __start_th_init_array; p && p < __stop_th_init_array; ++p) (*p)(0, nullptr, environ);
  // .ctors run last to first; 0 and -1 are list markers
  for (th_ctor_fn* p = __stop_th_ctors; __start_th_ctors && p > __start_th_ctors;) {
    th_ctor_fn f = *--p;
    if (f != nullptr && f != (th_ctor_fn)-1) f();
  }
  return true;
}

void wait_child(pid_t pid, long long budget_ns, int out, int& status, rusage& ru, bool& killed) {
  int pfd = int(syscall(SYS_pidfd_open, pid, 0));
  long long deadline = mono_ns() + budget_ns;
  killed = false;
  std::string buf;
  bool open = true;
  for (;;) {
    pid_t r = wait4(pid, &status, killed ? 0 : WNOHANG, &ru);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (killed || r < 0) continue;
    long long left = deadline - mono_ns();
    if (left <= 0) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      killed = true;
      continue;
    }
    int ms = int(std::min<long long>(left / 1000000 + 1, 1000));
    if (pfd >= 0) {
      pollfd p[2] = {{pfd, POLLIN, 0}, {out, POLLIN, 0}};
      poll(p, open ? 2 : 1, ms);
      if (open && p[1].revents) open = forward(out, buf);
    } else {
      if (open) open = forward(out, buf);
      usleep(1000);
    }
  }
  // What is left in the pipe (a process the child left may hold it open: no waiting
  // for its end); a line cut by the child's death is dropped.
  if (open) forward(out, buf);
  if (pfd >= 0) ::close(pfd);
}

int serve(Entry (*lookup)(int), bool reap_ns) {
  // reap_ns only where this process really is the first child of a namespace's init
  if (reap_ns && !(getpid() <= 3 && getppid() == 1)) reap_ns = false;
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  write_all("#ready\n");
  std::string buf, line;
  while (read_cmd(buf, line)) {
    int g = -1, from = 0;
    double wall = 0, cpu = 0, budget = 0;
    size_t stack = 0;
    if (sscanf(line.c_str(), "%d %d %lf %lf %lf %zu", &g, &from, &wall, &cpu, &budget, &stack) != 6) {
      write_all("#fail bad command\n");
      continue;
    }
    Entry e = lookup(g);
    if (!e.f) {
      write_all("#fail no candidate " + std::to_string(g) + "\n");
      continue;
    }
    // The processes the previous child left (a fork bomb) are killed but may not all
    // be reaped yet by the namespace's init, and count against the process limits:
    // EAGAIN for a while (up to 5 s) is waited out.
    int pp[2];
    if (pipe2(pp, O_CLOEXEC) != 0) {
      write_all("#fail pipe: " + std::string(strerror(errno)) + "\n");
      continue;
    }
    pid_t pid = fork();
    for (int tries = 0; pid < 0 && errno == EAGAIN && tries < 500; tries++) {
      usleep(10000);
      pid = fork();
    }
    if (pid < 0) {
      ::close(pp[0]);
      ::close(pp[1]);
      write_all("#fail fork: " + std::string(strerror(errno)) + "\n");
      continue;
    }
    if (pid == 0) {
      // The child's protocol lines go to its pipe; the server's stdout and commands
      // are closed here, before the candidate runs.
      ::close(cmd_fd);
      ::close(pp[0]);
      if (::dup2(pp[1], proto_fd) < 0) _exit(121);
      ::close(pp[1]);
      setpgid(0, 0);
      wall_limit = wall;
      cpu_limit = cpu;
      if (run_deferred_init()) write_all("{\"c\":" + std::to_string(e.c) + ",\"init\":true}\n");
      run_on_big_stack(e.f, from, stack);
      write_all("{\"c\":" + std::to_string(e.c) + ",\"done\":true}\n");
      _exit(0);
    }
    setpgid(pid, pid);
    ::close(pp[1]);
    fcntl(pp[0], F_SETFL, fcntl(pp[0], F_GETFL) | O_NONBLOCK);
    int status = 0;
    rusage ru{};
    bool killed = false;
    wait_child(pid, (long long)(budget * 1e9), pp[0], status, ru, killed);
    ::close(pp[0]);
    kill(-pid, SIGKILL);
    if (reap_ns) kill(-1, SIGKILL);
    long long cpu_used = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
                         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    write_all("#exit " + std::to_string(g) + " " + std::to_string(code) + " " + std::to_string(sig) + " " +
              std::to_string(cpu_used) + " " + std::to_string(ru.ru_maxrss) + " " + (killed ? "1" : "0") + "\n");
  }
  // no destructors or .fini_array: nothing of a candidate runs in the server
  _exit(0);
}
#endif  // TH_RUNTIME

}  // namespace th

// TH_TEST runs one call with the protocol's bookkeeping; CALL is the call expression,
// PRINT fills std::string o from the call's result r (or the arguments for void).
#define TH_CATCH(C, T)                                                              \
  catch (const th::BadArgs& e) {                                                    \
    th::end();                                                                      \
    th::fail(C, T, "infra_error", std::string("bad test arguments: ") + e.why);     \
  }                                                                                 \
  catch (const std::bad_alloc& e) {                                                 \
    th::end();                                                                      \
    th::fail(C, T, "memory_limit", th::type_name(typeid(e)) + ": " + e.what());     \
  }                                                                                 \
  catch (const std::exception& e) {                                                 \
    th::end();                                                                      \
    th::fail(C, T, "exception", th::type_name(typeid(e)) + ": " + e.what());        \
  }                                                                                 \
  catch (...) {                                                                     \
    th::end();                                                                      \
    th::fail(C, T, "exception", "unknown exception");                               \
  }
