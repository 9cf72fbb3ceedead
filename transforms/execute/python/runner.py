"""Transmute's Python runner: a fork server that runs the candidates of job after job.

It reads jobs on stdin, one JSON object per line (one batch, or the candidates of a
batch that a dead worker left unreached):

    {"params": ["int[]", "int"], "returns": "int",
     "tests": [[[1, 2], 3], ...],
     "cands": [{"c": 0, "code": "...", "imports": "...", "entry": "f"}, ...],
     "cpu": 2.0, "wall": 4.0, "mem": 1073741824, "stack": 268435456,
     "max_out": 1048576}

and answers each with the runner protocol (transforms/execute/protocol.go) on stdout, one
JSON object per line, then the line "#end"; it exits at the end of its input. Before a
candidate's code runs it writes {"c": N} (no outcome: it tells the engine the candidate
was reached) together with the lines of the candidates before it.

Per candidate it forks a child that applies the limits, runs the candidate's code and its
tests, and writes its protocol lines and its progress (the test it is on and since when)
to memory shared with the server; the server waits for it, kills it when a test runs past
the wall-time limit, checks its lines and forwards them, and reports the tests it could
not.

Results the candidate cannot forge: the candidate's code runs in the child and can do
anything the child's reporting code can, so the child holds no handle on the protocol
stream (fd 1 is /dev/null there, and the server keeps no other copy of it) but only a
channel of its own, made for it before the fork (a fresh shared memory area and an
overflow pipe), and the server makes itself non-dumpable so that the child cannot open
its /proc/<pid>/fd or mem either. The server accepts from that channel exactly one line
per test the child ran, for the child's own candidate, in the protocol's form; anything
else (a line for another candidate, a second line for a test, a line that is not the
child's to write) makes every test of the candidate a sandbox_violation. A child that
dies of SIGSEGV on the main thread (whose stack is MAIN_STACK) is run again from that
test on a thread with the job's big stack, for deep recursion through C code.

Nothing a candidate does reaches the server or the next candidate: it runs in a forked
child; after it the processes it left behind are killed (when the server has a PID
namespace to itself: --reap) and, before the next candidate, the files it left in the
scratch directories (the working directory, and with --private-tmp /tmp, /var/tmp,
/dev/shm and /run/lock) are removed.

A child costs what it executes plus a copy of each page it writes (they are shared with
the server until then), so: the server does not import threading (whose fork hook runs
Python code in every child), compiles the candidates of a job itself before forking,
freezes its objects before each fork (the child's collector never walks them), opens
/dev/null once, and lets the child use its namespace dict as the candidate's globals
instead of copying it; the tests run on the main thread unless they need the big stack.
"""

import builtins
import contextvars
import ctypes
import gc
import _json
import math
import mmap
import os
import resource
import select
import signal
import stat
import struct
import sys
import time
import _thread
from types import CodeType

# The usual benchmark imports, loaded once in the server so that children share them.
# threading is left out on purpose (see above); a candidate that imports it pays for it.
import array, bisect, collections, copy, decimal, fractions, functools, heapq  # noqa: E401,F401
import itertools, operator, random, re, statistics, string, typing  # noqa: E401,F401

PRELUDE = """
from typing import *
import math, sys, collections, itertools, functools, heapq, bisect, re, string
import random, operator, copy, array, fractions, decimal, statistics
from math import *
from collections import *
from itertools import *
from functools import *
from heapq import *
from bisect import *
"""

BASE_NS = {"__name__": "__main__", "__builtins__": builtins}
exec(PRELUDE, BASE_NS)
# `from math import *` would replace builtins such as pow (3-argument modular pow);
# candidates that want math.pow import it themselves.
for _n in list(BASE_NS):
    if _n != "__builtins__" and hasattr(builtins, _n):
        del BASE_NS[_n]


# JSON with the json package's C functions: importing json itself (and compiling its
# regular expressions) would cost every worker a few milliseconds.
quote = _json.encode_basestring_ascii  # a str as json.dumps writes it


def dumps(d):
    """A flat dict of str and int values as json.dumps writes it."""
    return "{" + ", ".join(quote(k) + ": " + (quote(v) if isinstance(v, str) else int.__repr__(v))
                           for k, v in d.items()) + "}"


class _Decoding:
    strict = True
    object_hook = object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = float  # NaN, Infinity, -Infinity


_scan = _json.make_scanner(_Decoding())


def loads(s):
    """Decodes s, one JSON value (a job line) between white space."""
    try:
        value, end = _scan(s, len(s) - len(s.lstrip(" \t\n\r")))
    except (StopIteration, SystemError, ValueError):
        raise ValueError("a job line that is not JSON") from None
    if s[end:].strip(" \t\n\r"):
        raise ValueError("extra data after the JSON value")
    return value


# ---- argument conversion and entry: the profiling harness (transforms/profile)
# includes this section, so that a measured program gets its arguments and its entry
# function as it does here.
def parse_type(t):
    t = t.strip()
    dims = 0
    while t.endswith("[]"):
        dims += 1
        t = t[:-2].strip()
    t = t.lower()
    t = {"boolean": "bool", "str": "string"}.get(t, t)
    return t, dims


def to_float(v):
    if isinstance(v, str):
        return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(v, v))
    return float(v)


def conv(v, base, dims):
    """Converts one JSON argument to the Python value the benchmark scripts pass."""
    if v is None:
        return None
    if dims > 0:
        if isinstance(v, str) and base == "char" and dims == 1:
            return list(v)
        return [conv(e, base, dims - 1) for e in v]
    if base in ("int", "long"):
        if isinstance(v, str) and len(v) == 1:
            return ord(v)
        return int(v)
    if base in ("float", "double"):
        return to_float(v)
    if base == "bool":
        return bool(v)
    if base == "char":
        if isinstance(v, int) and not isinstance(v, bool):
            return chr(v)
        return str(v)
    if base == "string":
        return str(v)
    return v


def find_entry(src, ns, entry):
    """Returns the function to call: entry if given, else the last top-level def
    (or the last method of the last top-level class when there is no def)."""
    if entry and callable(ns.get(entry)):
        return ns[entry]
    import ast  # only here: the server does not need it

    tree = ast.parse(src, "<candidate>")
    if entry:
        for node in reversed(tree.body):
            if isinstance(node, ast.ClassDef) and node.name in ns:
                cls = ns[node.name]
                if callable(getattr(cls, entry, None)):
                    return bound(cls, entry)
        raise LookupError("entry function %r is not defined" % entry)
    last = None
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            last = node.name
    if last is not None:
        return ns[last]
    for node in reversed(tree.body):
        if isinstance(node, ast.ClassDef):
            for sub in reversed(node.body):
                if isinstance(sub, ast.FunctionDef) and not sub.name.startswith("__"):
                    return bound(ns[node.name], sub.name)
    raise LookupError("no top-level function defined")


def bound(cls, name):
    attr = cls.__dict__.get(name)
    if isinstance(attr, (staticmethod, classmethod)):
        return getattr(cls, name)
    return getattr(cls(), name)


# ---- end argument conversion and entry


class EncodeError(Exception):
    pass


def exact_number(v):
    """Whether v is a Fraction or a Decimal, which enc prints as a float."""
    return isinstance(v, (fractions.Fraction, decimal.Decimal))


# ---- return value encoding: the profiling harness (transforms/profile) includes
# this section too, so that a measured program's results print as they do here. The
# including file defines quote, EncodeError and exact_number.
def enc(v, out):
    """Appends the JSON form of a return value to the list of pieces out."""
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, int):
        out.append(int.__repr__(v))
    elif isinstance(v, float):
        if math.isnan(v):
            out.append('"NaN"')
        elif math.isinf(v):
            out.append('"Infinity"' if v > 0 else '"-Infinity"')
        else:
            out.append(float.__repr__(v))
    elif isinstance(v, str):
        out.append(quote(str(v)))
    elif isinstance(v, (list, tuple, bytearray, array.array, collections.deque, range)):
        out.append("[")
        for i, e in enumerate(v):
            if i:
                out.append(",")
            enc(e, out)
        out.append("]")
    elif isinstance(v, bytes):
        enc(list(v), out)
    elif exact_number(v):
        enc(float(v), out)
    elif hasattr(v, "__index__"):
        out.append(int.__repr__(v.__index__()))
    elif hasattr(v, "__float__"):
        enc(float(v), out)
    else:
        raise EncodeError("cannot print a return value of type " + type(v).__name__)


# ---- end return value encoding


def describe(e):
    msg = str(e)
    if len(msg) > 500:
        msg = msg[:500] + "..."
    name = type(e).__name__
    return name + ": " + msg if msg else name


# Lines starting (at column 0, so at the top level, or inside a string) with def or async.
DEF_LINE = re.compile(r"^(?:async|def)\b.*", re.M)
DEF_NAME = re.compile(r"(?:async[ \t]+)?def[ \t]+([^\s(]+)")


def fast_entry(src, code):
    """Returns the name find_entry would return for a candidate without an entry, without
    parsing an ast, or None when it cannot be sure. A top-level def starts a line at
    column 0; the last such line is a real def (not text in a string) when the module's
    code holds a function of that name whose first line is that line (so undecorated)."""
    if "\f" in src or src.count("\r") != src.count("\r\n"):
        return None  # lines the tokenizer splits or indents differently
    last = None
    for last in DEF_LINE.finditer(src):
        pass
    if last is None:
        return None
    m = DEF_NAME.match(last.group())
    if m is None:
        return None
    name = m.group(1)
    line = src.count("\n", 0, last.start()) + 1
    for c in code.co_consts:
        if isinstance(c, CodeType) and c.co_name == name and c.co_firstlineno == line:
            return name
    return None


class Job:
    """What the children of one job share, decoded once in the server."""

    def __init__(self, d):
        self.tests = d["tests"]
        self.ntests = len(self.tests)
        self.cpu = float(d["cpu"])
        self.wall = float(d["wall"])
        self.mem = (d.get("mem") or 0) + (d.get("stack") or 0)
        self.stack = int(d.get("stack") or 0)
        self.types = [parse_type(p) for p in d["params"]]
        self.arrays = [i for i, (_, dims) in enumerate(self.types) if dims > 0]
        self.void = parse_type(d["returns"])[0] == "void"
        self.max_out = int(d.get("max_out") or (1 << 20))
        self.cands = d["cands"]
        # seed (Batch.Seed): the children reseed random with it; 0 keeps the server's state
        self.seed = int(d.get("seed") or 0)


# Opened once: the children's stdin, stdout and stderr. The protocol stream is fd 1,
# which only the server writes (a child replaces it with /dev/null).
NULL_FD = os.open(os.devnull, os.O_RDWR)
NULL_IN = open(os.devnull, "r")
NULL_OUT = open(os.devnull, "w")
NULL_ERR = open(os.devnull, "w")


# A test's CPU limit is a POSIX timer on the process's CPU clock, made in each child
# (fork does not copy timers). It counts what the scheduler counts, as the reported
# cpu_ns do; ITIMER_PROF, the fallback, counts a whole tick for whoever runs when the
# tick comes, and beside short-lived tasks fired at 0.66 of the CPU it was set to
# (docs/runs/2026-11-26-cpu-timers.md).
class Sigevent(ctypes.Structure):
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("rest", ctypes.c_byte * 48)]


class Itimerspec(ctypes.Structure):
    _fields_ = [("interval_s", ctypes.c_long), ("interval_ns", ctypes.c_long),
                ("value_s", ctypes.c_long), ("value_ns", ctypes.c_long)]


try:
    LIBC = ctypes.CDLL(None, use_errno=True)
    TIMER_CREATE = LIBC.timer_create
    TIMER_CREATE.argtypes = (ctypes.c_int, ctypes.POINTER(Sigevent), ctypes.POINTER(ctypes.c_void_p))
    TIMER_SETTIME = LIBC.timer_settime
    TIMER_SETTIME.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(Itimerspec), ctypes.c_void_p)
except (OSError, AttributeError):
    TIMER_CREATE = TIMER_SETTIME = None
CLOCK_PROCESS_CPUTIME_ID = 2
SIGEV_SIGNAL = 0


def cpu_timer(seconds):
    """Returns (arm, disarm) for a CPU limit of seconds on this process (0: none): arm
    starts it afresh, and when it runs out the process dies of SIGPROF."""
    if TIMER_CREATE is not None:
        ev = Sigevent(signo=signal.SIGPROF, notify=SIGEV_SIGNAL)
        tid = ctypes.c_void_p()
        if TIMER_CREATE(CLOCK_PROCESS_CPUTIME_ID, ctypes.byref(ev), ctypes.byref(tid)) == 0:
            ns = max(int(seconds * 1e9), 0)
            on = ctypes.byref(Itimerspec(0, 0, ns // 10**9, ns % 10**9))
            off = ctypes.byref(Itimerspec())
            settime = TIMER_SETTIME
            return (lambda: settime(tid, 0, on, None)), (lambda: settime(tid, 0, off, None))
    setitimer, PROF = signal.setitimer, signal.ITIMER_PROF
    return (lambda: setitimer(PROF, seconds)), (lambda: setitimer(PROF, 0))


def child(job, cand, src, code, name, start, big):
    """Runs in the forked child: runs the candidate's source src (compiling it unless the
    server did: code) and tests from start, on a thread with a stack of job.stack bytes
    if big, else on the main thread. name is its entry function when the server found
    it. Protocol lines go to OUT in SHARED (or, when they do not fit, down SPILL_W, the
    child's own pipe to the server); the progress goes to SHARED too, where the server
    watches it. Both are this child's alone; the server checks what comes of them."""
    ci = cand["c"]
    if job.seed:
        random.seed(job.seed)
    me = os.getpid()
    spill = SPILL_W
    getpid = os.getpid
    write = os.write
    setitimer = signal.setitimer
    REAL = signal.ITIMER_REAL

    def leave_if_forked():
        # A process the candidate forked must not go on to report results: it
        # would run the remaining tests a second time on the protocol stream.
        if getpid() != me:
            os._exit(0)

    def emit_raw(line):
        # Appended to OUT, which the server forwards when the child is over (however
        # it ends); what does not fit goes down the pipe at once, after what is there.
        data = (line + "\n").encode()
        n = OUT_LEN.unpack_from(SHARED, OUT_LEN_AT)[0]
        end = OUT_AT + n + len(data)
        if end <= SHARED_SIZE:
            SHARED[OUT_AT + n:end] = data
            OUT_LEN.pack_into(SHARED, OUT_LEN_AT, n + len(data))
            return
        data = SHARED[OUT_AT:OUT_AT + n] + data
        while data:
            data = data[write(spill, data):]
        OUT_LEN.pack_into(SHARED, OUT_LEN_AT, 0)

    def emit(obj):
        emit_raw(dumps(obj))

    # Silence the candidate: its prints must not reach the protocol stream.
    for fd in (0, 1, 2):
        os.dup2(NULL_FD, fd)
    sys.stdin, sys.stdout, sys.stderr = NULL_IN, NULL_OUT, NULL_ERR

    # The address space covers the candidate's memory and the big stack (the thread's,
    # or reserved when the tests run on the main thread).
    if job.mem > 0:
        try:
            soft = job.mem if AS_HARD == resource.RLIM_INFINITY else min(job.mem, AS_HARD)
            resource.setrlimit(resource.RLIMIT_AS, (soft, AS_HARD))
        except (ValueError, OSError):
            pass
    cpu = job.cpu
    wall = job.wall
    ntests = job.ntests
    arm_cpu, disarm_cpu = cpu_timer(cpu)
    try:
        # A backstop for a candidate that stops its timer; RLIMIT_CPU counts ticks as
        # ITIMER_PROF does, hence twice the tests' limits.
        total_cpu = int(math.ceil(2 * cpu * (ntests - start) + 1))
        if CPU_HARD == resource.RLIM_INFINITY or total_cpu < CPU_HARD:
            resource.setrlimit(resource.RLIMIT_CPU, (total_cpu, CPU_HARD))
    except (ValueError, OSError):
        pass
    sys.setrecursionlimit(10**6)

    entry = cand.get("entry")
    # The candidate's top level runs under the first test's watchdog.
    setitimer(REAL, wall)
    arm_cpu()
    if code is None:
        try:
            code = compile(src, "<candidate>", "exec")
        except COMPILE_ERRORS as e:
            emit({"c": ci, "compile": "error", "msg": describe(e)})
            set_progress(ntests)
            return
        if not entry:
            name = fast_entry(src, code)
    # The child's own copy of the server's namespace (copying the dict would write the
    # reference count of every name in it, hence copy their pages).
    ns = BASE_NS
    try:
        exec(code, ns)
        fn = ns.get(entry) if entry else None
        if not callable(fn):
            if name is not None:
                fn = ns[name]
            else:
                fn = find_entry(src, ns, entry)
    except BaseException as e:  # an import or a top-level statement failed
        leave_if_forked()
        emit({"c": ci, "compile": "error", "msg": describe(e)})
        set_progress(ntests)
        return
    leave_if_forked()
    setitimer(REAL, 0)
    disarm_cpu()
    if start == 0:
        emit_raw('{"c":%d,"compile":"ok"}' % ci)

    types = job.types
    arrays = job.arrays
    void = job.void
    max_out = job.max_out
    tests = job.tests
    cpu_ns = time.process_time_ns
    process_time = time.process_time
    wall_ns = time.perf_counter_ns

    def run_tests():
        for t in range(start, ntests):
            # With the CPU used so far, which a timeout row's figure is counted from
            # (the progress past a test needs none: the next test's comes at once).
            set_progress(t, process_time())
            line = None
            try:
                raw = tests[t]
                args = [conv(raw[i], b, d) for i, (b, d) in enumerate(types)]
            except Exception as e:  # bad test data: not the candidate's fault
                emit({"c": ci, "t": t, "s": "infra_error", "e": "bad arguments: " + describe(e)})
                set_progress(t + 1)
                continue
            setitimer(REAL, wall)
            arm_cpu()
            c0 = cpu_ns()
            w0 = wall_ns()
            try:
                rv = fn(*args)
                w1 = wall_ns()
                c1 = cpu_ns()
                setitimer(REAL, 0)
                disarm_cpu()
                out = []
                enc([args[i] for i in arrays] if void else rv, out)
                v = "".join(out)
                if len(v) > max_out:
                    line = {"c": ci, "t": t, "s": "output_limit", "e": "return value of %d bytes" % len(v)}
                else:
                    line = '{"c":%d,"t":%d,"s":"ok","v":%s,"cpu_ns":%d,"wall_ns":%d}' % (
                        ci, t, v, c1 - c0, w1 - w0)
            except MemoryError as e:
                setitimer(REAL, 0)
                disarm_cpu()
                line = {"c": ci, "t": t, "s": "memory_limit", "e": describe(e)}
            except BaseException as e:
                setitimer(REAL, 0)
                disarm_cpu()
                line = {"c": ci, "t": t, "s": "exception", "e": describe(e)}
            leave_if_forked()
            try:
                if isinstance(line, str):
                    emit_raw(line)
                else:
                    emit(line)
            except (ValueError, TypeError, OverflowError) as e:
                emit({"c": ci, "t": t, "s": "exception", "e": describe(e)})
            set_progress(t + 1)

    if job.stack <= 0:
        run_tests()
        return
    if not big:
        # The tests run on the main thread, whose stack (MAIN_STACK at most) suffices
        # but for deep recursion through C code: such a test dies of SIGSEGV and the
        # server runs it again with big set. The address space the big stack would
        # take is reserved, so that the candidate has the same room for its data, and
        # the tests run in an empty context as on a new thread (so the decimal context
        # the top level may have set does not apply, as before).
        try:
            reserve = mmap.mmap(-1, job.stack, flags=mmap.MAP_PRIVATE, prot=0)  # noqa: F841 (PROT_NONE)
        except (OSError, ValueError, OverflowError, MemoryError):
            run_tests()  # no room: as when the big stack's thread cannot start
            return
        contextvars.Context().run(run_tests)
        return
    # Deep recursion needs a big stack: the tests run on a thread that has one. The
    # main thread blocks every signal meanwhile, so that a signal sent to the process
    # (the candidate's os.kill(os.getpid(), SIGSEGV), the interval timers) is taken by
    # the test thread at once, not by the waiting main thread after the test thread
    # has gone on and reported the test.
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    try:
        _thread.stack_size(job.stack)
        done = _thread.allocate_lock()
        done.acquire()

        def on_thread():
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            try:
                run_tests()
            finally:
                done.release()

        _thread.start_new_thread(on_thread, ())
    except (RuntimeError, ValueError, MemoryError):
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        run_tests()
        return
    done.acquire()
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)


# The server's output not yet written: lines of the current candidate, written with
# the next candidate's first line or at the end of the job. Fewer writes make fewer
# wake-ups of the reader.
PENDING = bytearray()


def reply(line):
    PENDING.extend(line.encode())
    PENDING.extend(b"\n")


class Reported:
    """What the children of one candidate have reported so far."""

    def __init__(self, ntests):
        self.tests = bytearray(ntests)  # 1 for each test with its line
        self.compiled = False  # a compile line came
        self.compile_error = False
        self.violation = None  # why the candidate's lines were refused


# The keys and statuses of the lines a child writes (see child); cpu_ns and wall_ns
# are int64 on the engine's side.
CHILD_KEYS = frozenset(("c", "t", "s", "v", "e", "cpu_ns", "wall_ns", "compile", "msg"))
CHILD_STATUSES = frozenset(("ok", "exception", "memory_limit", "output_limit", "infra_error"))
INT64 = 1 << 63


def _no_constant(name):
    raise ValueError("a bare " + name)


class _Checking(_Decoding):
    # NaN and Infinity are not JSON: the engine would drop the whole line.
    parse_constant = staticmethod(_no_constant)


_check_scan = _json.make_scanner(_Checking())


def check_line(raw, ci, start, ntests, rep):
    """Returns why raw (a line a child of candidate ci, run from test start, wrote) is
    not one its harness writes, or None and notes it in rep. Every key is checked as
    the engine reads it (exact names: Go's decoder matches them case-insensitively)."""
    try:
        s = raw.decode()
        d, end = _check_scan(s, 0)
    except (UnicodeDecodeError, StopIteration, ValueError, SystemError, RecursionError):
        return "a line that is not JSON"
    if end != len(s) or type(d) is not dict or not d.keys() <= CHILD_KEYS:
        return "a line that is not a protocol object"
    c = d.get("c")
    if type(c) is not int or c != ci:
        return "a line for candidate %r" % (c,)
    for k in ("cpu_ns", "wall_ns"):
        if k in d and (type(d[k]) is not int or not 0 <= d[k] < INT64):
            return "a bad " + k
    for k in ("s", "e", "msg", "compile"):
        if k in d and type(d[k]) is not str:
            return "a bad " + k
    t = d.get("t")
    if t is not None:
        if type(t) is not int or not start <= t < ntests or "compile" in d:
            return "a line for test %r" % (t,)
        if rep.tests[t]:
            return "a second line for test %d" % t
        if d.get("s") not in CHILD_STATUSES:
            return "a line with status %r" % (d.get("s"),)
        rep.tests[t] = 1
        return None
    comp = d.get("compile")
    if comp not in ("ok", "error") or rep.compiled or start > 0:
        return "a line that is not the child's to write"
    rep.compiled = True
    rep.compile_error = comp == "error"
    return None


def take_output(ci, start, ntests, rep, spilled):
    """Checks what the last child wrote (spilled, the bytes read from its pipe, then its
    OUT) and moves the lines it may write into PENDING. A line cut at the end (the child
    died writing it) is dropped; a line it may not write refuses the candidate's lines
    (rep.violation), and the rest of them."""
    n = OUT_LEN.unpack_from(SHARED, OUT_LEN_AT)[0]
    if n:
        spilled.append(SHARED[OUT_AT:OUT_AT + n])
        OUT_LEN.pack_into(SHARED, OUT_LEN_AT, 0)
    if rep.violation is not None or not spilled:
        return
    lines = b"".join(spilled).split(b"\n")
    lines.pop()  # "" after the last newline, or a cut line
    for raw in lines:
        why = check_line(raw, ci, start, ntests, rep)
        if why is not None:
            rep.violation = why
            return
        PENDING.extend(raw)
        PENDING.extend(b"\n")


def flush():
    """Writes PENDING to the protocol stream (fd 1)."""
    data = memoryview(PENDING)
    while data:
        data = data[os.write(1, data):]
    data.release()
    del PENDING[:]


TIMEOUT_SIGNALS = {signal.SIGALRM, signal.SIGPROF, signal.SIGXCPU, signal.SIGVTALRM}
# How a stack overflow ends a process.
STACK_SIGNALS = {signal.SIGSEGV, signal.SIGBUS}


# SHARED is shared with one child: the progress (the test it is on and when it began
# it) and OUT, the protocol lines it wrote (a length, then the bytes). Each child gets
# a new one (new_channel), so that a process an earlier candidate left behind cannot
# write into a later one's; SPILL_W is the write end of the child's pipe for lines
# that do not fit in OUT.
SHARED_SIZE = 64 << 10
SHARED = mmap.mmap(-1, SHARED_SIZE)
SPILL_W = -1
PROGRESS = struct.Struct("qdd")
OUT_LEN = struct.Struct("q")
OUT_LEN_AT = PROGRESS.size
OUT_AT = OUT_LEN_AT + OUT_LEN.size


def set_progress(t, cpu=0.0):
    """Notes that the child is on test t from now, at cpu seconds of its CPU time (the
    server's call, before the fork, leaves 0: a child starts with none)."""
    PROGRESS.pack_into(SHARED, 0, t, time.monotonic(), cpu)


def get_progress():
    return PROGRESS.unpack_from(SHARED, 0)


def new_channel():
    """Gives the next child a SHARED of its own and a pipe (SPILL_W); returns the read
    end, non-blocking (a process the child left may hold the write end open)."""
    global SHARED, SPILL_W
    SHARED.close()
    SHARED = mmap.mmap(-1, SHARED_SIZE)
    r, SPILL_W = os.pipe2(os.O_CLOEXEC)
    os.set_blocking(r, False)
    return r


def read_spill(fd, spilled):
    """Reads what is in the child's pipe now; returns False at its end."""
    while True:
        try:
            b = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        if not b:
            return False
        spilled.append(b)


def wait_child(pid, wall, spill, spilled):
    """Waits for the child, killing it when a test runs past wall (plus a grace
    second: the child's own interval timers should stop it first), and reads its pipe
    spill into spilled meanwhile. Returns (status, killed, cpu_ns, wall_ns): the CPU
    and wall time since the child's last test (or its top level) began."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    killed = False
    pause = 0.0005
    fds = [spill] if pidfd is None else [pidfd, spill]
    try:
        while True:
            _, since, _ = get_progress()
            # The candidate can write since: NaN kills it (as a timeout), and no wait
            # is longer than a test's (an infinite one would make select raise).
            left = min(since + wall + 1.0 - time.monotonic(), wall + 1.0)
            if not left > 0:
                os.kill(pid, signal.SIGKILL)
                killed = True
                break
            if pidfd is not None:
                ready, _, _ = select.select(fds, [], [], left)
                if spill in ready and not read_spill(spill, spilled):
                    fds = [pidfd]
                if pidfd in ready:
                    break
            else:
                if spill in fds and not read_spill(spill, spilled):
                    fds = []
                done, status, ru = os.wait4(pid, os.WNOHANG)
                if done:
                    return (status, killed) + used_since(ru)
                time.sleep(min(pause, left))
                pause = min(pause * 2, 0.01)
    finally:
        if pidfd is not None:
            os.close(pidfd)
    _, status, ru = os.wait4(pid, 0)
    return (status, killed) + used_since(ru)


def used_since(ru):
    """The CPU and wall nanoseconds a child that ended with rusage ru used since the
    start of the test it was on, by its progress in SHARED. The candidate can write
    there: a figure that is not a plausible duration (NaN, negative, over a day) is 0."""
    _, since, cpu0 = get_progress()
    return plausible_ns(ru.ru_utime + ru.ru_stime - cpu0), plausible_ns(time.monotonic() - since)


def plausible_ns(seconds):
    return int(seconds * 1e9) if 0.0 <= seconds < 86400.0 else 0


# Sources up to this size are compiled by the server (see run_candidate).
SERVER_COMPILE_MAX = 32 << 10
COMPILE_ERRORS = (SyntaxError, ValueError, MemoryError, RecursionError)

# The server's hard limits, which its children inherit.
AS_HARD = resource.getrlimit(resource.RLIMIT_AS)[1]
CPU_HARD = resource.getrlimit(resource.RLIMIT_CPU)[1]

# Set by main from the command line.
REAP = False  # the server has a PID namespace (but for its init) to itself
SCRATCH = []  # (directory, names present at start-up, ctime when clean), cleaned before each candidate


def reap_strays():
    """Kills every process the candidates left (daemons, setsid children): with a PID
    namespace of its own, all of them but the namespace's init, which reaps them."""
    if REAP:
        try:
            os.kill(-1, signal.SIGKILL)
        except OSError:
            pass


def remove_tree(path):
    """Removes path (a directory with everything in it), never following symlinks;
    errors are ignored."""
    stack = [(path, False)]
    while stack:
        p, emptied = stack.pop()
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            try:
                os.unlink(p)
            except OSError:
                pass
            continue
        if emptied:
            try:
                os.rmdir(p)
            except OSError:
                pass
            continue
        try:
            os.chmod(p, 0o700)
        except OSError:
            pass
        stack.append((p, True))
        try:
            with os.scandir(p) as it:
                for e in it:
                    stack.append((os.path.join(p, e.name), False))
        except OSError:
            pass


def clean_scratch():
    """Removes what earlier candidates created in the scratch directories. A directory
    whose status has not changed since it was last clean (its ctime changes with every
    entry added or removed, and with any change of its own attributes) is not listed."""
    for i, (d, keep, ctime) in enumerate(SCRATCH):
        try:
            if os.stat(d).st_ctime_ns == ctime:
                continue
            with os.scandir(d) as it:
                extra = [e.name for e in it if e.name not in keep]
            for name in extra:
                remove_tree(os.path.join(d, name))
            SCRATCH[i] = (d, keep, os.stat(d).st_ctime_ns)
        except OSError:
            continue


def prepare(cand):
    """Returns the candidate's source, its code and entry name (None when the child must
    compile it or find the entry), or the compile error. Sources up to
    SERVER_COMPILE_MAX are compiled here rather than in the child, where each page the
    compiler writes would be copied; up to that size compiling is quick, its recursion
    fits in the stack, and it fails or not as in the child."""
    src = cand.get("imports") or ""
    if src and not src.endswith("\n"):
        src += "\n"
    src += cand.get("code") or ""
    if len(src) > SERVER_COMPILE_MAX:
        return src, None, None, None
    limit, err = sys.getrecursionlimit(), sys.stderr
    sys.setrecursionlimit(10**6)  # as in the child
    sys.stderr = NULL_ERR  # compile warnings
    try:
        code = compile(src, "<candidate>", "exec")
    except COMPILE_ERRORS as e:
        return src, None, None, describe(e)
    finally:
        sys.setrecursionlimit(limit)
        sys.stderr = err
    name = None if cand.get("entry") else fast_entry(src, code)
    return src, code, name, None


def run_candidate(job, cand, prepared):
    ci = cand["c"]
    ntests = job.ntests
    wall = job.wall
    src, code, name, error = prepared
    if error is not None:
        reply(dumps({"c": ci, "compile": "error", "msg": error}))
        reply('{"c":%d,"done":true}' % ci)
        return
    clean_scratch()
    # Marks the candidate as reached (for the engine's retries) before its code runs,
    # and writes the lines of the candidates before it.
    reply('{"c":%d}' % ci)
    start = 0
    big = False
    rep = Reported(ntests)
    while True:
        flush()
        spill = new_channel()
        set_progress(start)
        gc.freeze()  # the child's collector leaves the server's objects alone
        pid = os.fork()
        if pid == 0:
            rc = 0
            try:
                os.close(spill)
                os.setpgid(0, 0)  # so that what the candidate forks can be killed with it
                child(job, cand, src, code, name, start, big)
            except BaseException:
                rc = 3
            finally:
                os._exit(rc)
        os.close(SPILL_W)
        spilled = []
        status, killed, cpu_ns, wall_ns = wait_child(pid, wall, spill, spilled)
        try:
            os.killpg(pid, signal.SIGKILL)  # processes the candidate forked
        except OSError:
            pass
        read_spill(spill, spilled)
        os.close(spill)
        take_output(ci, start, ntests, rep, spilled)
        if rep.violation is not None:
            # Every test of the candidate: those already forwarded get a second line,
            # which the engine also takes as a violation.
            msg = quote("forged protocol output: " + rep.violation)
            for t in range(ntests):
                reply('{"c":%d,"t":%d,"s":"sandbox_violation","e":%s}' % (ci, t, msg))
            break
        if rep.compile_error:
            break
        # The test the child stopped on: the first from start without a line (the
        # progress in SHARED is the candidate's to change).
        cur = rep.tests.find(0, start)
        if cur < 0:
            break
        # The child stopped on test cur.
        if (not big and job.stack > 0 and not killed and os.WIFSIGNALED(status)
                and os.WTERMSIG(status) in STACK_SIGNALS):
            # Perhaps the main thread's stack overflowed: run the test again (and the
            # candidate's remaining tests) on a thread with the big stack.
            big = True
            start = cur
            continue
        if killed or (os.WIFSIGNALED(status) and os.WTERMSIG(status) in TIMEOUT_SIGNALS):
            # The test it stopped on carries what it used, in the timing columns (the
            # error stays the same from run to run); those after it were not run.
            reply('{"c":%d,"t":%d,"s":"timeout","e":"time limit exceeded","cpu_ns":%d,"wall_ns":%d}' % (
                ci, cur, cpu_ns, wall_ns))
            for t in range(cur + 1, ntests):
                reply('{"c":%d,"t":%d,"s":"timeout","e":"time limit exceeded"}' % (ci, t))
            break
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            try:
                signame = signal.Signals(sig).name
            except ValueError:
                signame = "signal %d" % sig
            reply(dumps({"c": ci, "t": cur, "s": "runtime_error", "e": "killed by " + signame}))
        else:
            reply(dumps({"c": ci, "t": cur, "s": "runtime_error",
                         "e": "process exited with code %d" % os.WEXITSTATUS(status)}))
        start = cur + 1
        if start >= ntests:
            break
    reap_strays()
    reply('{"c":%d,"done":true}' % ci)


# The stack the children's main thread may grow to before a test is run again on a
# thread with the job's big stack.
MAIN_STACK = 8 << 20


def make_nondumpable():
    """prctl(PR_SET_DUMPABLE, 0): a process of the server's user may then not open its
    /proc/<pid>/fd (its stdout, the protocol stream) or /proc/<pid>/mem. The children
    inherit it. Through _ctypes, not ctypes, whose import costs a few milliseconds."""
    try:
        import _ctypes
        prctl = _ctypes.dlsym(_ctypes.dlopen(None, 0), "prctl")
        if _ctypes.call_function(prctl, (4, 0, 0, 0, 0)) != 0:  # PR_SET_DUMPABLE
            raise OSError("prctl failed")
    except (ImportError, OSError, AttributeError) as e:
        sys.stderr.write("runner: cannot make the server non-dumpable: %s\n" % e)


def main():
    global REAP
    make_nondumpable()
    args = sys.argv[1:]
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if soft == resource.RLIM_INFINITY or soft > MAIN_STACK:
            resource.setrlimit(resource.RLIMIT_STACK, (MAIN_STACK, hard))
    except (ValueError, OSError):
        pass
    REAP = "--reap" in args
    dirs = [os.getcwd()]
    if "--private-tmp" in args:
        dirs += ["/tmp", "/var/tmp", "/dev/shm", "/run/lock"]
    for d in dirs:
        try:
            SCRATCH.append((d, frozenset(os.listdir(d)), os.stat(d).st_ctime_ns))
        except OSError:
            pass
    stdin = sys.stdin.buffer
    while True:
        line = stdin.readline()
        if not line:
            break
        if not line.strip():
            continue
        job = Job(loads(line.decode()))
        set_progress(0)
        # All compiled before the first fork: after a fork, the first write to each page
        # of the server costs a fault, once per page for the whole job this way.
        prepared = [prepare(cand) for cand in job.cands]
        for cand, prep in zip(job.cands, prepared):
            run_candidate(job, cand, prep)
        del job, prepared
        reply("#end")
        flush()


if __name__ == "__main__":
    main()
