# Transmute's profiling harness for Python (transforms/profile). Usage:
#   python3 -S -B prof_runner.py <candidate.py> <tests.jsonl> <meta.json>
# meta.json: {"entry": name or "", "params": [types], "returns": type, "helper":
# path of the counting helper library or "", "alloc": measure the allocation peak}.
# It loads the candidate, converts every test's arguments (the conventions of the
# Python execution engine, transforms/execute/python/runner.py), then calls the
# function once per test and prints one protocol line per test on the original
# stdout. The candidate's own output goes to /dev/null. The loop over the calls is
# bracketed: under callgrind the helper's tm_start/tm_stop count its instructions
# only, and its thread CPU time is measured; the results are printed after it.
import array
import collections
import json
import math
import os
import sys
import threading
import time


# TM_ARGUMENT_CONVERSION (parse_type, to_float, conv, find_entry and bound: the Python
# engine's own, python.ArgumentConversion, put here by transforms/profile)


# The names the engine's value encoding needs: json.dumps's own string quoting, its
# error as a TypeError, and Fraction and Decimal known by name (fractions and decimal
# are not imported here).
quote = json.encoder.encode_basestring_ascii
EncodeError = TypeError


def exact_number(v):
    return type(v).__name__ in ("Fraction", "Decimal")


# TM_VALUE_ENCODING (enc: the Python engine's own, python.ValueEncoding, put here by
# transforms/profile)


def describe(e):
    msg = str(e)
    if len(msg) > 300:
        msg = msg[:300] + "..."
    name = type(e).__name__
    return name + ": " + msg if msg else name


def peak_rss_kb():
    """VmHWM of this process image (the rusage figure may include the parent's
    memory from before exec)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def read_tests(path, types):
    tests = []
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                tests.append([conv(raw[i], b, d) for i, (b, d) in enumerate(types)])
            except Exception as e:
                tests.append(e)
    return tests


def main():
    cand_path, tests_path, meta_path = sys.argv[1:4]
    proto = os.fdopen(os.dup(1), "w", buffering=1 << 16)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    sys.stdout = open(os.devnull, "w")

    def emit(s):
        proto.write(s)
        proto.write("\n")

    with open(meta_path) as f:
        meta = json.load(f)
    try:
        with open(cand_path) as f:
            src = f.read()
        ns = {"__name__": "__candidate__", "__builtins__": __builtins__}
        exec(compile(src, cand_path, "exec"), ns)
        fn = find_entry(src, ns, meta.get("entry") or "")
    except BaseException as e:
        emit(json.dumps({"c": 0, "compile": "error", "msg": describe(e)}))
        proto.flush()
        return
    emit('{"c":0,"compile":"ok"}')
    types = [parse_type(p) for p in meta["params"]]
    arrays = [i for i, (_, d) in enumerate(types) if d > 0]
    void = parse_type(meta["returns"])[0] == "void"
    # Convert every test's arguments before the first call.
    tests = read_tests(tests_path, types)

    start = stop = lambda: None
    if meta.get("helper"):
        import ctypes  # only when counting: its import costs start-up

        # PyDLL keeps the GIL across the calls: a CDLL call releases it, and
        # whether the main thread took it meanwhile moved counts by 8 instructions.
        lib = ctypes.PyDLL(meta["helper"])
        start, stop = lib.tm_start, lib.tm_stop
    stats = {"calls_ns": -1, "alloc_peak": -1}

    def calls(tests):
        res = [None] * len(tests)
        for t, args in enumerate(tests):
            if isinstance(args, Exception):
                continue
            try:
                res[t] = (0, fn(*args))
            except MemoryError as e:
                res[t] = (1, e)
            except BaseException as e:
                res[t] = (2, e)
        return res

    def run():
        t0 = time.thread_time_ns()
        start()
        res = calls(tests)
        stop()
        stats["calls_ns"] = time.thread_time_ns() - t0
        for t, args in enumerate(tests):
            if isinstance(args, Exception):
                emit(json.dumps({"c": 0, "t": t, "s": "infra_error", "e": "bad arguments: " + describe(args)}))
                continue
            kind, v = res[t]
            if kind == 1:
                emit(json.dumps({"c": 0, "t": t, "s": "memory_limit", "e": describe(v)}))
                continue
            if kind == 2:
                emit(json.dumps({"c": 0, "t": t, "s": "exception", "e": describe(v)}))
                continue
            try:
                out = []
                enc([args[i] for i in arrays] if void else v, out)
                emit('{"c":0,"t":%d,"s":"ok","v":%s}' % (t, "".join(out)))
            except BaseException as e:
                emit(json.dumps({"c": 0, "t": t, "s": "exception", "e": describe(e)}))
        if meta.get("alloc"):
            # The allocation peak, in a second pass on freshly converted inputs:
            # tracemalloc slows every allocation, so it stays out of the counted pass.
            import _tracemalloc

            again = read_tests(tests_path, types)
            _tracemalloc.start()
            base = _tracemalloc.get_traced_memory()[0]
            _tracemalloc.reset_peak()
            calls(again)
            stats["alloc_peak"] = _tracemalloc.get_traced_memory()[1] - base
            _tracemalloc.stop()

    sys.setrecursionlimit(1000000)
    threading.stack_size(512 << 20)
    # No timed GIL hand-offs: this thread gives the GIL up only by blocking in
    # join. With the default 5 ms, how often the calls' thread handed it back
    # depended on timing, and moved counts by up to 1,700 of 38M instructions.
    sys.setswitchinterval(1e6)
    th = threading.Thread(target=run)
    th.start()
    th.join()
    emit('{"c":0,"done":true,"rss_kb":%d,"calls_ns":%d,"alloc_peak":%d}' % (peak_rss_kb(), stats["calls_ns"], stats["alloc_peak"]))
    proto.flush()


if __name__ == "__main__":
    main()
    os._exit(0)
