// Transmute's counting helper (transforms/profile; a .h only because Go refuses
// .c files in a package without cgo): compiled as C, once, into a shared
// library that the Python harness loads through ctypes and the Java harness through
// JNI, so that both bracket the candidate's calls the way the C++ harness does with
// the same macros inline. Under callgrind (--instr-atstart=no, --collect-atstart=no) the
// brackets switch the calling thread's instruction counting on and off; outside valgrind they cost a few instructions.
#include <stdint.h>
#include <time.h>
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
// Collection is per thread (--collect-atstart=no): only the calling thread's
// instructions count, whichever other thread valgrind happens to run meanwhile.
#define TM_START() do { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_TOGGLE_COLLECT; } while (0)
#define TM_STOP() do { CALLGRIND_TOGGLE_COLLECT; CALLGRIND_STOP_INSTRUMENTATION; } while (0)
#else
#define TM_START() ((void)0)
#define TM_STOP() ((void)0)
#endif

void tm_start(void) { TM_START(); }
void tm_stop(void) { TM_STOP(); }

// tm_thread_ns is the calling thread's CPU time (user+sys) in nanoseconds.
int64_t tm_thread_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return -1;
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

// The JNI entry points of ProfHarness's native methods (static, no arguments: the
// C calling convention of JNI on Linux, so no jni.h is needed).
void Java_ProfHarness_tmStart(void* env, void* cls) { (void)env; (void)cls; TM_START(); }
void Java_ProfHarness_tmStop(void* env, void* cls) { (void)env; (void)cls; TM_STOP(); }
int64_t Java_ProfHarness_tmThreadNs(void* env, void* cls) { (void)env; (void)cls; return tm_thread_ns(); }
