package java2py

// Python helper functions emitted into Result.Imports when the code uses them.
var helperDefs = map[string]string{
	"_idiv": `def _idiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q
`,
	"_imod": `def _imod(a, b):
    r = abs(a) % abs(b)
    return r if a >= 0 else -r
`,
	"_i32": `def _i32(x):
    x &= 0xFFFFFFFF
    return x - 0x100000000 if x & 0x80000000 else x
`,
	"_i64": `def _i64(x):
    x &= 0xFFFFFFFFFFFFFFFF
    return x - 0x10000000000000000 if x & 0x8000000000000000 else x
`,
	"_i16": `def _i16(x):
    x &= 0xFFFF
    return x - 0x10000 if x & 0x8000 else x
`,
	"_i8": `def _i8(x):
    x &= 0xFF
    return x - 0x100 if x & 0x80 else x
`,
	"_urs32": `def _urs32(a, n):
    return (a & 0xFFFFFFFF) >> (n & 31)
`,
	"_urs64": `def _urs64(a, n):
    return (a & 0xFFFFFFFFFFFFFFFF) >> (n & 63)
`,
	"_jstrd": `def _jstrd(x):
    x = float(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    a = abs(x)
    if 1e-3 <= a < 1e7:
        return repr(x)
    d = decimal.Decimal(repr(a)).normalize().as_tuple()
    digits = "".join(map(str, d.digits))
    e = d.exponent + len(digits) - 1
    s = digits[0] + "." + (digits[1:] or "0") + "E" + str(e)
    return "-" + s if x < 0 else s
`,
	"_jstr": `def _jstr(x):
    if x is True:
        return "true"
    if x is False:
        return "false"
    if x is None:
        return "null"
    if isinstance(x, float):
        return _jstrd(x)
    return str(x)
`,
	"_StringBuilder": `class _StringBuilder:
    def __init__(self, s=""):
        self.b = list(s)
    def append(self, s):
        self.b.extend(s)
        return self
    def toString(self):
        return "".join(self.b)
    def __str__(self):
        return "".join(self.b)
    def __eq__(self, o):
        return str(self) == str(o)
    def __hash__(self):
        return hash(str(self))
    def reverse(self):
        self.b.reverse()
        return self
    def insert(self, i, s):
        self.b[i:i] = list(s)
        return self
    def setCharAt(self, i, c):
        self.b[i] = c
    def deleteCharAt(self, i):
        del self.b[i]
        return self
    def setLength(self, n):
        self.b = (self.b + ["\x00"] * n)[:n]
`,
	"_jcmp": `def _jcmp(a, b):
    for x, y in zip(a, b):
        if x != y:
            return ord(x) - ord(y)
    return len(a) - len(b)
`,
	"_jcompare": `def _jcompare(a, b):
    return -1 if a < b else (1 if a > b else 0)
`,
	"_jsplit": `def _jsplit(s, regex):
    if s == "":
        return [""]
    parts = re.split(regex, s)
    if parts and parts[0] == "" and len(s) > 0 and re.match(regex, s) and re.match(regex, s).end() == 0:
        parts = parts[1:]
    while parts and parts[-1] == "":
        parts.pop()
    return parts
`,
	"_fill": `def _fill(a, v, lo=0, hi=None):
    if hi is None:
        hi = len(a)
    for i in range(lo, hi):
        a[i] = v
`,
	"_copyof": `def _copyof(a, n, d):
    return list(a[:n]) + [d] * (n - len(a))
`,
	"_bsearch": `def _bsearch(a, x):
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        elif a[mid] > x:
            hi = mid - 1
        else:
            return mid
    return -(lo + 1)
`,
	"_arrstr": `def _arrstr(a):
    return "[" + ", ".join(_jstr(x) for x in a) + "]"
`,
	"_jround": `def _jround(x):
    return int(math.floor(x + 0.5))
`,
	"_cbrt": `def _cbrt(x):
    r = abs(x) ** (1.0 / 3.0)
    rr = round(r)
    if rr ** 3 == abs(x):
        r = float(rr)
    return r if x >= 0 else -r
`,
	"_signum": `def _signum(x):
    return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)
`,
	"_bitcount32": `def _bitcount32(x):
    return bin(x & 0xFFFFFFFF).count("1")
`,
	"_bitcount64": `def _bitcount64(x):
    return bin(x & 0xFFFFFFFFFFFFFFFF).count("1")
`,
	"_tobin32": `def _tobin32(x):
    return bin(x & 0xFFFFFFFF)[2:]
`,
	"_tobin64": `def _tobin64(x):
    return bin(x & 0xFFFFFFFFFFFFFFFF)[2:]
`,
	"_numval": `def _numval(c):
    if c.isdigit():
        return int(c)
    if c.isalpha() and c.isascii():
        return ord(c.lower()) - ord("a") + 10
    return -1
`,
	"_postinc": `def _postinc(a, i, d):
    v = a[i]
    a[i] = v + d
    return v
`,
	"_preinc": `def _preinc(a, i, d):
    a[i] += d
    return a[i]
`,
	"_aset": `def _aset(a, i, v):
    a[i] = v
    return v
`,
	"_lset": `def _lset(a, i, v):
    old = a[i]
    a[i] = v
    return old
`,
	"_ladd": `def _ladd(a, v):
    a.append(v)
    return True
`,
	"_sadd": `def _sadd(s, v):
    if v in s:
        return False
    s.add(v)
    return True
`,
	"_sremove": `def _sremove(s, v):
    if v in s:
        s.remove(v)
        return True
    return False
`,
	"_mput": `def _mput(m, k, v):
    old = m.get(k)
    m[k] = v
    return old
`,
	"_indexof": `def _indexof(a, v):
    try:
        return a.index(v)
    except ValueError:
        return -1
`,
	"_Pair": `class _Pair:
    def __init__(self, first, second):
        self.first = first
        self.second = second
    def getKey(self):
        return self.first
    def getValue(self):
        return self.second
    def __eq__(self, o):
        return isinstance(o, _Pair) and (self.first, self.second) == (o.first, o.second)
    def __hash__(self):
        return hash((self.first, self.second))
`,
	"_d2i": `def _d2i(x):
    if x != x:
        return 0
    return max(-2147483648, min(2147483647, int(x))) if abs(x) != float("inf") else (2147483647 if x > 0 else -2147483648)
`,
	"_d2l": `def _d2l(x):
    if x != x:
        return 0
    lo, hi = -9223372036854775808, 9223372036854775807
    return max(lo, min(hi, int(x))) if abs(x) != float("inf") else (hi if x > 0 else lo)
`,
	"_newarr": `def _newarr(d, *dims):
    if len(dims) == 1:
        return [d] * dims[0]
    return [_newarr(d, *dims[1:]) for _ in range(dims[0])]
`,
	"_push": `def _push(s, v):
    s.append(v)
    return v
`,
	"_rdiv": `def _rdiv(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return _idiv(a, b)
    return a / b
`,
	"_rmod": `def _rmod(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return _imod(a, b)
    return math.fmod(a, b)
`,
	"_swap": `def _swap(a, i, j):
    a[i], a[j] = a[j], a[i]
`,
}

// helperOrder fixes the emission order (dependencies first).
var helperOrder = []string{
	"_idiv", "_imod", "_i32", "_i64", "_i16", "_i8", "_urs32", "_urs64", "_jstrd", "_jstr",
	"_StringBuilder", "_Pair", "_jcmp", "_jcompare", "_jsplit", "_fill", "_copyof", "_bsearch", "_arrstr",
	"_jround", "_cbrt", "_signum", "_bitcount32", "_bitcount64", "_tobin32", "_tobin64", "_numval",
	"_postinc", "_preinc", "_aset", "_lset", "_ladd", "_sadd", "_sremove", "_mput", "_indexof", "_newarr", "_d2i", "_d2l", "_push", "_rdiv", "_rmod", "_swap",
}

// helperDeps lists, per helper, other helpers and "import m" lines it needs.
var helperDeps = map[string][]string{
	"_jstr":   {"_jstrd"},
	"_jstrd":  {"import decimal"},
	"_arrstr": {"_jstr"},
	"_jsplit": {"import re"},
	"_jround": {"import math"},
	"_rdiv":   {"_idiv"},
	"_rmod":   {"_imod", "import math"},
}
