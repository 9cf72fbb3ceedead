"""Transmute's Python runner: a fork server that runs every candidate of a batch.

It reads one job (JSON) on stdin:

    {"params": ["int[]", "int"], "returns": "int",
     "tests": [[[1, 2], 3], ...],
     "cands": [{"c": 0, "code": "...", "imports": "...", "entry": "f"}, ...],
     "cpu": 2.0, "wall": 4.0, "mem": 1073741824, "stack": 268435456,
     "max_out": 1048576}

and prints the runner protocol (transforms/execute/protocol.go) on stdout, one JSON
object per line. Per candidate it forks a child that applies the limits, compiles and
runs the candidate's tests, writing protocol lines to (a copy of) stdout and its
progress to shared memory; the parent waits for it, kills it when a test runs past the
wall-time limit, and reports the tests the child could not.
"""

import ast
import builtins
import json
import math
import mmap
import os
import resource
import select
import signal
import struct
import sys
import time

# The usual benchmark imports, loaded once in the server so that children share them.
import array, bisect, collections, copy, decimal, fractions, functools, heapq  # noqa: E401,F401
import itertools, operator, random, re, statistics, string, threading, typing  # noqa: E401,F401

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

PROTO_OUT = sys.stdout.buffer


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


class EncodeError(Exception):
    pass


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
        out.append(json.dumps(str(v)))
    elif isinstance(v, (list, tuple, bytearray, array.array, collections.deque, range)):
        out.append("[")
        for i, e in enumerate(v):
            if i:
                out.append(",")
            enc(e, out)
        out.append("]")
    elif isinstance(v, bytes):
        enc(list(v), out)
    elif isinstance(v, (fractions.Fraction, decimal.Decimal)):
        enc(float(v), out)
    elif hasattr(v, "__index__"):
        out.append(int.__repr__(v.__index__()))
    elif hasattr(v, "__float__"):
        enc(float(v), out)
    else:
        raise EncodeError("cannot print a return value of type " + type(v).__name__)


def describe(e):
    msg = str(e)
    if len(msg) > 500:
        msg = msg[:500] + "..."
    name = type(e).__name__
    return name + ": " + msg if msg else name


def find_entry(tree, ns, entry):
    """Returns the function to call: entry if given, else the last top-level def
    (or the last method of the last top-level class when there is no def)."""
    if entry:
        fn = ns.get(entry)
        if callable(fn):
            return fn
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


def child(job, cand, start):
    """Runs in the forked child: compiles the candidate and runs tests from start.
    Protocol lines go to a copy of fd 1; the progress (the test being run and since
    when) goes to the shared memory PROGRESS that the parent watches."""
    ci = cand["c"]
    wfd = os.dup(1)
    me = os.getpid()

    def leave_if_forked():
        # A process the candidate forked must not go on to report results: it
        # would run the remaining tests a second time on the protocol stream.
        if os.getpid() != me:
            os._exit(0)

    def emit_raw(line):
        data = (line + "\n").encode()
        while data:
            data = data[os.write(wfd, data):]

    def emit(obj):
        emit_raw(json.dumps(obj))

    # Silence the candidate: its prints must not reach the protocol stream.
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    sys.stdin = open(os.devnull, "r")
    sys.stdout = open(os.devnull, "w")
    sys.stderr = open(os.devnull, "w")

    # The address space covers the candidate's memory and the test thread's stack.
    mem = (job.get("mem") or 0) + (job.get("stack") or 0)
    if mem > 0:
        try:
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            soft = mem if hard == resource.RLIM_INFINITY else min(mem, hard)
            resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        except (ValueError, OSError):
            pass
    cpu = float(job["cpu"])
    wall = float(job["wall"])
    ntests = len(job["tests"])
    try:
        total_cpu = int(math.ceil(cpu * (ntests - start) + 1))
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        if hard == resource.RLIM_INFINITY or total_cpu < hard:
            resource.setrlimit(resource.RLIMIT_CPU, (total_cpu, hard))
    except (ValueError, OSError):
        pass
    sys.setrecursionlimit(10**6)

    src = cand.get("imports") or ""
    if src and not src.endswith("\n"):
        src += "\n"
    src += cand.get("code") or ""
    # The candidate's top level runs under the first test's watchdog.
    signal.setitimer(signal.ITIMER_REAL, wall)
    signal.setitimer(signal.ITIMER_PROF, cpu)
    try:
        tree = ast.parse(src, "<candidate>")
        code = compile(tree, "<candidate>", "exec")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as e:
        emit({"c": ci, "compile": "error", "msg": describe(e)})
        set_progress(ntests)
        return
    ns = dict(BASE_NS)
    try:
        exec(code, ns)
        fn = find_entry(tree, ns, cand.get("entry"))
    except BaseException as e:  # an import or a top-level statement failed
        leave_if_forked()
        emit({"c": ci, "compile": "error", "msg": describe(e)})
        set_progress(ntests)
        return
    leave_if_forked()
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.setitimer(signal.ITIMER_PROF, 0)
    if start == 0:
        emit({"c": ci, "compile": "ok"})

    types = [parse_type(p) for p in job["params"]]
    arrays = [i for i, (_, d) in enumerate(types) if d > 0]
    void = parse_type(job["returns"])[0] == "void"
    max_out = int(job.get("max_out") or (1 << 20))

    def run_tests():
        for t in range(start, ntests):
            set_progress(t)
            line = {"c": ci, "t": t}
            try:
                raw = job["tests"][t]
                args = [conv(raw[i], b, d) for i, (b, d) in enumerate(types)]
            except Exception as e:  # bad test data: not the candidate's fault
                line.update(s="infra_error", e="bad arguments: " + describe(e))
                emit(line)
                set_progress(t + 1)
                continue
            signal.setitimer(signal.ITIMER_REAL, wall)
            signal.setitimer(signal.ITIMER_PROF, cpu)
            c0 = time.process_time_ns()
            w0 = time.perf_counter_ns()
            try:
                rv = fn(*args)
                w1 = time.perf_counter_ns()
                c1 = time.process_time_ns()
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.setitimer(signal.ITIMER_PROF, 0)
                out = []
                enc([args[i] for i in arrays] if void else rv, out)
                v = "".join(out)
                if len(v) > max_out:
                    line.update(s="output_limit", e="return value of %d bytes" % len(v))
                else:
                    line = '{"c":%d,"t":%d,"s":"ok","v":%s,"cpu_ns":%d,"wall_ns":%d}' % (
                        ci, t, v, c1 - c0, w1 - w0)
            except MemoryError as e:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.setitimer(signal.ITIMER_PROF, 0)
                line.update(s="memory_limit", e=describe(e))
            except BaseException as e:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.setitimer(signal.ITIMER_PROF, 0)
                line.update(s="exception", e=describe(e))
            leave_if_forked()
            try:
                if isinstance(line, str):
                    emit_raw(line)
                else:
                    emit(line)
            except (ValueError, TypeError, OverflowError) as e:
                emit({"c": ci, "t": t, "s": "exception", "e": describe(e)})
            set_progress(t + 1)

    stack = int(job.get("stack") or 0)
    if stack > 0:
        try:
            threading.stack_size(stack)
            th = threading.Thread(target=run_tests)
            th.start()
            th.join()
            return
        except (RuntimeError, ValueError, MemoryError):
            pass
    run_tests()


def reply(obj):
    PROTO_OUT.write((json.dumps(obj) + "\n").encode())
    PROTO_OUT.flush()


TIMEOUT_SIGNALS = {signal.SIGALRM, signal.SIGPROF, signal.SIGXCPU, signal.SIGVTALRM}


# PROGRESS is shared with the children: the test a child is on and when it began it.
PROGRESS = mmap.mmap(-1, 16)


def set_progress(t):
    struct.pack_into("qd", PROGRESS, 0, t, time.monotonic())


def get_progress():
    return struct.unpack_from("qd", PROGRESS, 0)


def wait_child(pid, wall):
    """Waits for the child, killing it when a test runs past wall (plus a grace
    second: the child's own interval timers should stop it first). Returns
    (status, killed)."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    killed = False
    pause = 0.0005
    try:
        while True:
            _, since = get_progress()
            left = since + wall + 1.0 - time.monotonic()
            if left <= 0:
                os.kill(pid, signal.SIGKILL)
                killed = True
                break
            if pidfd is not None:
                ready, _, _ = select.select([pidfd], [], [], left)
                if ready:
                    break
            else:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    return status, killed
                time.sleep(min(pause, left))
                pause = min(pause * 2, 0.01)
    finally:
        if pidfd is not None:
            os.close(pidfd)
    _, status = os.waitpid(pid, 0)
    return status, killed


def run_candidate(job, cand):
    ci = cand["c"]
    ntests = len(job["tests"])
    wall = float(job["wall"])
    start = 0
    while True:
        set_progress(start)
        PROTO_OUT.flush()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.setpgid(0, 0)  # so that what the candidate forks can be killed with it
                child(job, cand, start)
            except BaseException:
                code = 3
            finally:
                os._exit(code)
        status, killed = wait_child(pid, wall)
        try:
            os.killpg(pid, signal.SIGKILL)  # processes the candidate forked
        except OSError:
            pass
        cur, _ = get_progress()
        if cur >= ntests:
            break
        # The child stopped on test cur.
        if killed or (os.WIFSIGNALED(status) and os.WTERMSIG(status) in TIMEOUT_SIGNALS):
            for t in range(cur, ntests):
                reply({"c": ci, "t": t, "s": "timeout", "e": "time limit exceeded"})
            break
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = "signal %d" % sig
            reply({"c": ci, "t": cur, "s": "runtime_error", "e": "killed by " + name})
        else:
            reply({"c": ci, "t": cur, "s": "runtime_error",
                   "e": "process exited with code %d" % os.WEXITSTATUS(status)})
        start = cur + 1
        if start >= ntests:
            break
    reply({"c": ci, "done": True})


def main():
    job = json.loads(sys.stdin.buffer.read())
    for cand in job["cands"]:
        run_candidate(job, cand)


if __name__ == "__main__":
    main()
