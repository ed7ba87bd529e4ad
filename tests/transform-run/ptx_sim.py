#!/usr/bin/python3
"""A small PTX interpreter: runs one work-item of a kernel's PTX up to its first barrier and
returns what it stored. Enough of PTX for the straight-line float code of the corpus
kernels (arithmetic, fma with its rounding modes, conversions, compares, selects,
branches, loads and stores); the approximate instructions (ex2.approx, rcp.approx,
sqrt.approx, div.full) are modelled by one fixed function each, so two PTX programs give
equal results exactly when they apply the same instructions to the same values.
Used by nvptx-sim-check.py; not a PTX validator."""
import math
import re
import struct
from fractions import Fraction


def f32_bits(x):
    """Bits of the float32 nearest to Python float x (overflow to inf)."""
    try:
        return struct.unpack('<I', struct.pack('<f', x))[0]
    except OverflowError:
        return 0x7f800000 if x > 0 else 0xff800000


def bits_f32(b):
    return struct.unpack('<f', struct.pack('<I', b & 0xffffffff))[0]


def round_float(q, mode='rn', mant=23, emin=-126, emax=127):
    """Bits of the exact rational q rounded (rn, rz, rm, rp) to the binary format with
    `mant` fraction bits and exponents emin..emax (float32 by default; half: 10, -14, 15),
    subnormals included."""
    sign = 1 << (mant + (emax - emin + 2).bit_length()) if q < 0 else 0
    if q == 0:
        return sign
    a = -q if q < 0 else q
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)  # subnormals share the smallest exponent
    scaled = a / Fraction(2) ** (e - mant)  # in [2^mant, 2^(mant+1)) for normals
    m = scaled.numerator // scaled.denominator
    rest = scaled - m
    up = {'rn': rest > Fraction(1, 2) or (rest == Fraction(1, 2) and m % 2 == 1),
          'rz': False,
          'rm': rest > 0 and sign != 0,
          'rp': rest > 0 and sign == 0}[mode]
    m += 1 if up else 0
    if m == 1 << (mant + 1):
        m >>= 1
        e += 1
    bias = emax
    inf = ((2 * emax + 1) << mant)
    if e > emax:
        toward_inf = mode == 'rn' or (mode == 'rm' and sign) or (mode == 'rp' and not sign)
        return sign | (inf if toward_inf else inf - 1)
    if m < 1 << mant:  # subnormal
        return sign | m
    return sign | ((e + bias) << mant) | (m - (1 << mant))


def round_f32(q, mode='rn'):
    return round_float(q, mode)


def half_value(h):
    """The exact value of half bits h (None for a NaN)."""
    e, m = (h >> 10) & 0x1f, h & 0x3ff
    sign = -1 if h & 0x8000 else 1
    if e == 0x1f:
        return None if m else sign * float('inf')
    if e == 0:
        return sign * Fraction(m, 1 << 24)
    return sign * Fraction(m + 1024, 1024) * Fraction(2) ** (e - 15)


def half_f32(h):
    """Float32 bits of half bits h (exact; a NaN: the canonical one)."""
    v = half_value(h & 0xffff)
    if v is None:
        return NAN
    if isinstance(v, float):
        return f32_bits(v)
    return round_f32(v) if v else (h & 0x8000) << 16


def is_nan(b):
    return (b & 0x7fffffff) > 0x7f800000


def exact(b):
    return Fraction(bits_f32(b))


NAN = 0x7fffffff  # the canonical NaN of the GPU's float arithmetic


def f_add(a, b, mode='rn'):
    x, y = bits_f32(a), bits_f32(b)
    if is_nan(a) or is_nan(b) or math.isinf(x) or math.isinf(y):
        r = x + y
        return NAN if math.isnan(r) else f32_bits(r)
    q = exact(a) + exact(b)
    if q == 0:  # an exact zero: -0 only from two -0, or any zero sum rounding down
        both_negative = a & b & 0x80000000
        return 0x80000000 if both_negative or mode == 'rm' else 0
    return round_f32(q, mode)


def f_mul(a, b, mode='rn'):
    x, y = bits_f32(a), bits_f32(b)
    if is_nan(a) or is_nan(b) or math.isinf(x) or math.isinf(y):
        r = x * y
        return NAN if math.isnan(r) else f32_bits(r)
    sign = (a ^ b) & 0x80000000
    q = exact(a) * exact(b)
    return sign if q == 0 else round_f32(q, mode)


def f_fma(a, b, c, mode='rn'):
    x, y, z = bits_f32(a), bits_f32(b), bits_f32(c)
    if any(is_nan(v) for v in (a, b, c)) or any(math.isinf(v) for v in (x, y, z)):
        r = x * y + z
        return NAN if math.isnan(r) else f32_bits(r)
    q = exact(a) * exact(b) + exact(c)
    if q == 0:
        psign = (a ^ b) & 0x80000000
        if exact(a) * exact(b) == 0 and exact(c) == 0:
            return 0x80000000 if psign and c & 0x80000000 else 0
        return 0x80000000 if mode == 'rm' else 0
    return round_f32(q, mode)


def approx(fn, a, b=0, tag=0):
    """A stand-in for an approximate instruction (ex2.approx, rcp.approx, sqrt.approx,
    div.full...): fn in double precision, rounded, then its last two bits flipped by a hash
    of the inputs and the instruction (tag), so that a different algorithm built on
    approximations gives different results here as it does on the GPU, while the same
    instructions on the same values agree."""
    x = bits_f32(a)
    try:
        r = fn(x)
    except OverflowError:
        r = float('inf')
    except ZeroDivisionError:
        r = math.copysign(float('inf'), x)
    except ValueError:
        r = float('nan')
    if isinstance(r, float) and math.isnan(r):
        return NAN
    bits = f32_bits(r)
    if tag == 4 and math.isfinite(x) and x == math.floor(x):
        return bits  # ex2 of an integer is exact
    if 0 < (bits & 0x7fffffff) < 0x7f800000:
        bits ^= ((a * 2654435761) ^ (b * 40503) ^ (tag * 97)) >> 7 & 3
    return bits


def sx(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def vector_operands(rest, load):
    """The registers and the address of a load (`d, [a]` or `{d0, d1}, [a]`) or a store
    (`[a], v` or `[a], {v0, v1}`)."""
    m = re.match(r'\s*(\{[^}]*\}|[^,\[]+?)\s*,\s*(\[[^\]]*\])\s*$', rest) if load else \
        re.match(r'\s*(\[[^\]]*\])\s*,\s*(\{[^}]*\}|\S+)\s*$', rest)
    regs, where = (m.group(1), m.group(2)) if load else (m.group(2), m.group(1))
    return [r.strip() for r in regs.strip('{}').split(',')], where


class Kernel:
    def __init__(self, text, name):
        text = text.replace('\0', '')
        start = re.search(r'\.entry\s+' + re.escape(name) + r'\s*\(', text)
        if not start:
            raise ValueError('no kernel ' + name)
        params_end = text.index(')', start.end())
        self.params = re.findall(r'\.param\s+\.(\w+)(?:\s+\.ptr[^,\n]*?)?\s+(\w+)\s*,?\s*\n',
                                 text[start.end():params_end] + '\n')
        body_start = text.index('{', params_end)
        depth, i = 0, body_start
        while True:
            depth += {'{': 1, '}': -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        self.code, self.labels = [], {}
        for line in text[body_start + 1:i].split('\n'):
            line = line.split('//')[0].strip()
            if not line or line.startswith('.') or line in ('{', '}'):
                continue
            if line.endswith(':'):
                self.labels[line[:-1]] = len(self.code)
                continue
            self.code.append(line.rstrip(';').strip())

    def run(self, args, specials, memory, max_steps=200000):
        """args: param name -> int value (pointers are addresses into memory);
        specials: %tid.x etc.; memory: dict base -> bytearray. Returns the stores made
        before the first barrier: list of (address, bits, size)."""
        regs = dict(specials)
        stores = []

        def val(tok):
            tok = tok.strip()
            if tok.startswith('0f'):
                return int(tok[2:], 16)
            if tok.startswith('0d'):
                return int(tok[2:], 16)
            if re.fullmatch(r'-?\d+', tok):
                return int(tok)
            if re.fullmatch(r'0x[0-9a-fA-F]+', tok):
                return int(tok, 16)
            if tok not in regs:
                raise NotImplementedError('%s (a global symbol or unknown register)' % tok)
            return regs[tok]

        def addr(tok):
            m = re.fullmatch(r'\[(\S+?)(?:\+(-?\d+))?\]', tok.strip())
            base = m.group(1)
            off = int(m.group(2) or 0)
            return (args[base] if base in args else regs[base]) + off

        def mem(a, size):
            for base, buf in memory.items():
                if base <= a < base + len(buf):
                    return buf, a - base
            raise IndexError('address %#x outside every buffer' % a)

        pc, steps = 0, 0
        while pc < len(self.code):
            steps += 1
            if steps > max_steps:
                raise RuntimeError('too many steps')
            line = self.code[pc]
            pc += 1
            pred = None
            m = re.match(r'@(!?)(%\w+)\s+(.*)', line)
            if m:
                pred = (m.group(1) == '!', m.group(2))
                line = m.group(3)
            op, _, rest = line.partition(' ')
            ops = [o.strip() for o in re.split(r',(?![^\[]*\])', rest)] if rest else []
            if pred and (regs[pred[1]] != 0) == pred[0]:
                continue
            parts = op.split('.')
            base = parts[0]
            ty = parts[-1]
            if base == 'ret':
                break
            if base == 'bar':
                break
            if base == 'bra':
                pc = self.labels[ops[0]]
                continue
            if base == 'ld':
                if parts[1] == 'param':
                    regs[ops[0]] = args[ops[1].strip('[]')]
                    continue
                size = {'f32': 4, 'u32': 4, 's32': 4, 'b32': 4, 'u64': 8, 'b64': 8, 's64': 8,
                        'b16': 2, 'u16': 2}[ty]
                dests, where = vector_operands(rest, load=True)
                a = addr(where)
                for k, dst in enumerate(dests):
                    buf, o = mem(a + k * size, size)
                    regs[dst] = int.from_bytes(buf[o:o + size], 'little')
                continue
            if base == 'st':
                size = {'f32': 4, 'u32': 4, 's32': 4, 'b32': 4, 'u64': 8, 'b64': 8, 's64': 8,
                        'b16': 2, 'u16': 2}[ty]
                values, where = vector_operands(rest, load=False)
                a = addr(where)
                for k, src in enumerate(values):
                    v = val(src) & ((1 << (8 * size)) - 1)
                    buf, o = mem(a + k * size, size)
                    buf[o:o + size] = v.to_bytes(size, 'little')
                    stores.append((a + k * size, v, size))
                continue
            d = ops[0] if ops else None
            s = [val(o) for o in ops[1:]] if base not in ('mov',) else None
            mode = next((p for p in parts if p in ('rn', 'rz', 'rm', 'rp')), 'rn')
            if base == 'mov' and '{' in rest:  # packing halves into, or out of, 32 bits
                m = re.match(r'\s*(\{[^}]*\}|\S+)\s*,\s*(\{[^}]*\}|\S+)\s*$', rest)
                dst, src = m.group(1), m.group(2)
                if src.startswith('{'):
                    lo, hi = [val(x) & 0xffff for x in src.strip('{}').split(',')]
                    regs[dst] = lo | hi << 16
                else:
                    v = val(src)
                    lo, hi = [x.strip() for x in dst.strip('{}').split(',')]
                    regs[lo], regs[hi] = v & 0xffff, v >> 16 & 0xffff
                continue
            if base == 'mov':
                src = ops[1]
                regs[d] = val(src) if not src.startswith('%') or src in regs else specials[src]
            elif ty == 'f32' and base in ('add', 'sub', 'mul', 'fma', 'neg', 'abs', 'copysign', 'max',
                                          'min', 'div', 'sqrt', 'rcp', 'ex2', 'lg2'):
                if base == 'add':
                    r = f_add(s[0], s[1], mode)
                elif base == 'sub':
                    r = f_add(s[0], s[1] ^ 0x80000000, mode)
                elif base == 'mul':
                    r = f_mul(s[0], s[1], mode)
                elif base == 'fma':
                    r = f_fma(s[0], s[1], s[2], mode)
                elif base == 'neg':
                    r = s[0] ^ 0x80000000
                elif base == 'abs':
                    r = s[0] & 0x7fffffff
                elif base == 'copysign':  # copysign.f32 d, a, b: b's magnitude, a's sign
                    r = (s[1] & 0x7fffffff) | (s[0] & 0x80000000)
                elif base in ('max', 'min'):
                    x, y = s
                    if is_nan(x) or is_nan(y):
                        r = y if is_nan(x) else x
                        r = NAN if is_nan(x) and is_nan(y) else r
                    else:
                        fx, fy = bits_f32(x), bits_f32(y)
                        pick = (fx > fy) == (base == 'max')
                        r = x if pick or fx == fy and ((x > y) != (base == 'max')) else y
                elif base == 'div' and 'rn' in parts:
                    y = bits_f32(s[1])
                    if y == 0 or is_nan(s[0]) or is_nan(s[1]) or math.isinf(y) or \
                            math.isinf(bits_f32(s[0])):
                        r = approx(lambda v: v / y, s[0])
                    else:
                        r = round_f32(exact(s[0]) / exact(s[1]))
                elif base == 'div':
                    r = approx(lambda v, w=bits_f32(s[1]): v / w, s[0], s[1], 1)
                elif base == 'sqrt' and 'rn' in parts:
                    x = bits_f32(s[0])  # float -> double sqrt -> float rounds correctly
                    r = s[0] if is_nan(s[0]) or x == 0 else \
                        NAN if x < 0 else f32_bits(math.sqrt(x))
                elif base == 'sqrt':
                    r = approx(math.sqrt, s[0], 0, 2)
                elif base == 'rcp':
                    r = approx(lambda v: 1.0 / v, s[0], 0, 3)
                elif base == 'ex2':
                    r = approx(lambda v: 2.0 ** v, s[0], 0, 4)
                else:
                    r = approx(math.log2, s[0], 0, 5)
                regs[d] = r
            elif ty == 'f16' and base in ('add', 'sub', 'mul', 'fma', 'neg', 'abs'):
                if base in ('neg', 'abs'):
                    r = s[0] ^ 0x8000 if base == 'neg' else s[0] & 0x7fff
                else:
                    h = [half_value(v & 0xffff) for v in s]
                    if any(v is None or isinstance(v, float) for v in h):  # NaN, infinity
                        x = [float(v) if v is not None else float('nan') for v in h]
                        y = {'add': lambda: x[0] + x[1], 'sub': lambda: x[0] - x[1],
                             'mul': lambda: x[0] * x[1],
                             'fma': lambda: x[0] * x[1] + x[2]}[base]()
                        r = 0x7fff if math.isnan(y) else (0xfc00 if y < 0 else 0x7c00) \
                            if math.isinf(y) else 0
                    else:  # exact, rounded once (a zero result: +0, or -0 from -0 terms)
                        q = {'add': lambda: h[0] + h[1], 'sub': lambda: h[0] - h[1],
                             'mul': lambda: h[0] * h[1],
                             'fma': lambda: h[0] * h[1] + h[2]}[base]()
                        r = round_float(q, mode, 10, -14, 15) if q else \
                            (s[0] & s[1] & 0x8000 if base == 'add' else
                             (s[0] ^ s[1]) & 0x8000 if base == 'mul' else 0)
                regs[d] = r
            elif base == 'cvt':
                dt, st = parts[-2], parts[-1]
                v = s[0]
                if dt == 'f32' and st == 'f16':
                    r = half_f32(v)
                elif dt == 'f16' and st == 'f32':  # a NaN becomes 0x7fff
                    x = bits_f32(v)
                    if is_nan(v):
                        r = 0x7fff
                    elif math.isinf(x):
                        r = 0xfc00 if x < 0 else 0x7c00
                    elif x == 0:
                        r = (v >> 16) & 0x8000
                    else:
                        r = round_float(exact(v), mode, 10, -14, 15)
                elif dt == 'f32' and st == 'f32':
                    x = bits_f32(v)
                    if 'sat' in parts:
                        r = 0 if is_nan(v) else f32_bits(min(max(x, 0.0), 1.0))
                    elif 'rzi' in parts:
                        r = v if is_nan(v) or math.isinf(x) else (f32_bits(math.trunc(x)) | (v & 0x80000000))
                    else:
                        r = v
                elif dt == 'f32':
                    iv = sx(v, int(st[1:])) if st[0] == 's' else v & ((1 << int(st[1:])) - 1)
                    r = round_f32(Fraction(iv), mode) if iv else 0
                elif st == 'f32':
                    x = bits_f32(v)
                    n = 0 if is_nan(v) else int(max(min(math.trunc(x), 2 ** 31 - 1), -2 ** 31)) \
                        if not math.isinf(x) else (2 ** 31 - 1 if x > 0 else -2 ** 31)
                    r = n & 0xffffffff
                else:
                    sb = int(st[1:])
                    iv = sx(v, sb) if st[0] == 's' else v & ((1 << sb) - 1)
                    r = iv & ((1 << int(dt[1:])) - 1)
                regs[d] = r
            elif base == 'setp':
                cmp, t = parts[1], parts[2]
                a, b = s
                if t == 'f16':  # compared as the floats they are
                    a, b, t = half_f32(a), half_f32(b), 'f32'
                if t == 'f32':
                    un = is_nan(a) or is_nan(b)
                    x, y = bits_f32(a), bits_f32(b)
                    ordered = {'lt': x < y, 'gt': x > y, 'le': x <= y, 'ge': x >= y,
                               'eq': x == y, 'ne': x != y and not un}
                    if cmp in ordered:
                        r = ordered[cmp] and not un
                    elif cmp in ('ltu', 'gtu', 'leu', 'geu', 'equ', 'neu'):
                        r = un or {'ltu': x < y, 'gtu': x > y, 'leu': x <= y, 'geu': x >= y,
                                   'equ': x == y, 'neu': x != y}[cmp]
                    elif cmp == 'nan':
                        r = un
                    elif cmp == 'num':
                        r = not un
                    else:
                        raise NotImplementedError(line)
                else:
                    w = int(t[1:])
                    if t[0] == 's':
                        a, b = sx(a, w), sx(b, w)
                    else:
                        a, b = a & ((1 << w) - 1), b & ((1 << w) - 1)
                    r = {'lt': a < b, 'gt': a > b, 'le': a <= b, 'ge': a >= b, 'eq': a == b,
                         'ne': a != b, 'lo': a < b, 'hi': a > b, 'ls': a <= b,
                         'hs': a >= b}[cmp]
                regs[d] = int(r)
            elif base == 'selp':
                regs[d] = s[0] if s[2] else s[1]
            elif ty == 'pred':
                if base == 'and':
                    regs[d] = int(bool(s[0]) and bool(s[1]))
                elif base == 'or':
                    regs[d] = int(bool(s[0]) or bool(s[1]))
                elif base == 'xor':
                    regs[d] = int(bool(s[0]) != bool(s[1]))
                elif base == 'not':
                    regs[d] = int(not s[0])
                else:
                    raise NotImplementedError(line)
            else:
                w = int(ty[1:])
                mask = (1 << w) - 1
                signed = ty[0] == 's'
                if base == 'mul' and 'wide' in parts:
                    a, b = (sx(s[0], w), sx(s[1], w)) if signed else (s[0] & mask, s[1] & mask)
                    regs[d] = (a * b) & ((1 << (2 * w)) - 1)
                    continue
                a = sx(s[0], w) if signed else s[0] & mask
                b = (sx(s[1], w) if signed else s[1] & mask) if len(s) > 1 else 0
                if base == 'add':
                    r = a + b
                elif base == 'sub':
                    r = a - b
                elif base == 'mul':
                    r = a * b
                elif base == 'mad':
                    r = a * b + (sx(s[2], w) if signed else s[2] & mask)
                elif base == 'and':
                    r = a & b
                elif base == 'or':
                    r = a | b
                elif base == 'xor':
                    r = a ^ b
                elif base == 'not':
                    r = ~a
                elif base == 'neg':
                    r = -a
                elif base == 'abs':
                    r = abs(a)
                elif base == 'shl':
                    r = a << (b & 0xff) if b < w else 0
                elif base == 'shr':
                    r = a >> b if b < w else (-1 if signed and a < 0 else 0)
                elif base == 'rem':
                    r = int(math.fmod(a, b))
                elif base == 'div':
                    r = int(a / b) if signed else a // b
                elif base == 'min':
                    r = min(a, b)
                elif base == 'max':
                    r = max(a, b)
                elif base == 'bfe':
                    pos, length = s[1], s[2]
                    r = (a >> pos) & ((1 << length) - 1)
                else:
                    raise NotImplementedError(line)
                regs[d] = r & mask
        return stores
