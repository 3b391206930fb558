"""The expected values of assets/f64.toml, computed outside gcnrun.

Python's floats are IEEE binary64 with round to nearest even: sums, products,
frexp, the f32 conversions; fma, ldexp and fract use exact rationals rounded
once (Fraction -> float is correctly rounded); NaN results, min/max under IEEE
mode and v_cmp_class's bits follow the rules written in
docs/semantics/programs.md. Prints the `data` buffer's dwords and the
[expect] table; paste them into assets/f64.toml when the inputs change.
"""
import struct, math
from fractions import Fraction as F
def b(x): return struct.unpack('<Q', struct.pack('<d', x))[0]
def d(u): return struct.unpack('<d', struct.pack('<Q', u))[0]
INF=float('inf')
QNAN=0x7ff8000000000000
def isnan(u): return (u>>52)&0x7ff==0x7ff and (u&((1<<52)-1))!=0
def quiet(u): return u | (1<<51)
def rnd(fr):
    # Fraction -> f64 bits, RNE, overflow to inf
    try: return b(float(fr))
    except OverflowError: return b(INF if fr>0 else -INF)
lanes=[
 (1.0, 2**-53, 0.5, 3, 1.5),
 (1.0+2**-52, 2**-53, -1.0, -1, -0.0),
 (1e308, 10.0, -INF, 100, 3.0e38),
 (2**-1022, 0.5, -5e-324, -60, 1e-45),
 (-2.5, QNAN|0x1234, 1.0, 0, 0x7fc12345),
 (3.7, -3.7, 1e-300, 5, -2.5),
 (-0.0, 0.0, -0.0, 2147483647, 0.0),
 (0.1, 3.0, -0.3, -2147483648, 1e10),
 (-1e10, 1e-10, 0.0, 7, 65504.0),
 (2.5, 0x7ff0000000000001, 1.0, 1, 1.0),
 (-0.5, 2.0**1023, 2.0**1023, -1074, -1.0),
 (5e-324, -5e-324, 1.0, 1074, 2.0),
 (INF, -INF, 0.0, 1, 0.5),
 (-INF, 0.0, 1.0, 2, 0.25),
 (1.5, 1.5, -2.25, 3, 3.0),
 (1.0-2**-53, 1e-20, 1.0, -3, 7.0),
]
def bits(x): return x if isinstance(x,int) and not isinstance(x,bool) and x>0xffffffff else b(x)
def f32bits(f): return f if isinstance(f,int) else struct.unpack('<I',struct.pack('<f',f))[0]
data=[]
rows=[]
for a,bb,c,n,f in lanes:
    A=bits(a); B=bits(bb); C=bits(c)
    rows.append((A,B,C,n,f32bits(f)))
    for v in (A,B,C): data += [v & 0xffffffff, v>>32]
    data += [n & 0xffffffff, f32bits(f)]
def nan_first(*xs):
    for x in xs:
        if isnan(x): return quiet(x)
    return None
def fr(u): return F(d(u))
def arith(xs, op):
    n=nan_first(*xs)
    if n is not None: return n
    vs=[d(x) for x in xs]
    try:
        r=op(*vs)
    except (OverflowError, ZeroDivisionError): raise
    if isinstance(r,float):
        return QNAN if math.isnan(r) else b(r)
    return r
def add(x,y): return arith([x,y], lambda p,q: p+q)
def mul(x,y): return arith([x,y], lambda p,q: p*q)
def fma(x,y,z):
    n=nan_first(x,y,z)
    if n is not None: return n
    p,q,r=d(x),d(y),d(z)
    if math.isinf(p) or math.isinf(q):
        if p==0 or q==0: return QNAN
        s = math.copysign(1, p)*math.copysign(1,q)
        if math.isinf(r) and math.copysign(1,r)!=s: return QNAN
        return b(s*INF)
    if math.isinf(r): return z
    if p==0 or q==0:
        if r==0:
            sp = (x^y)>>63; sc = z>>63
            return (sp & sc)<<63
        return z
    exact=F(p)*F(q)+F(r)
    if exact==0: return 0
    return rnd(exact)
def key(u):
    mag=u & ((1<<63)-1)
    return -mag-1 if u>>63 else mag
def minmax(x,y,mx):
    snan=lambda u: isnan(u) and not (u>>51)&1
    if snan(x) or snan(y): return nan_first(x,y)
    if isnan(x) and isnan(y): return quiet(x)
    if isnan(x): return y
    if isnan(y): return x
    pick_a = key(x)>=key(y) if mx else key(x)<=key(y)
    return x if pick_a else y
def lt(x,y):
    if isnan(x) or isnan(y): return 0
    return 1 if d(x)<d(y) else 0
def cls(u, mask):
    neg=u>>63; e=(u>>52)&0x7ff; m=u&((1<<52)-1)
    if e==0x7ff: bit = (2 if neg else 9) if m==0 else (1 if (m>>51)&1 else 0)
    elif e==0: bit = {(True,True):5,(True,False):6,(False,True):4,(False,False):7}[(m==0,bool(neg))]
    else: bit = 3 if neg else 8
    return (mask>>bit)&1
def unary(u, f):
    if isnan(u): return quiet(u)
    return b(f(d(u)))
def rne(x):
    if math.isinf(x): return x
    r=round(x)  # python round is banker's (ties to even)
    return math.copysign(float(r), x) if r==0 else float(r)
def floor_(x): 
    if math.isinf(x): return x
    r=float(math.floor(x)); return math.copysign(r,x) if r==0 else r
def ceil_(x):
    if math.isinf(x): return x
    r=float(math.ceil(x)); return math.copysign(r,x) if r==0 else r
def trunc_(x):
    if math.isinf(x): return x
    r=float(math.trunc(x)); return math.copysign(r,x) if r==0 else r
def fract(u):
    if isnan(u): return quiet(u)
    x=d(u)
    if math.isinf(x): return QNAN
    r=F(x)-F(math.floor(x))
    rb=rnd(r)
    below=0x3fefffffffffffff
    return min(rb, below)
def frexp_m(u):
    x=d(u)
    if isnan(u) or math.isinf(x) or x==0: return u
    m,e=math.frexp(x); return b(m)
def frexp_e(u):
    x=d(u)
    if isnan(u) or math.isinf(x) or x==0: return 0
    m,e=math.frexp(x); return e & 0xffffffff
def ldexp(u,n):
    if isnan(u): return quiet(u)
    x=d(u)
    if x==0 or math.isinf(x): return u
    n=max(-2200,min(2200,n))
    return rnd(F(x)*F(2)**n)
def cvt_f32(u):
    if isnan(u):
        return 0x7fc00000 | ((u>>32)&0x80000000) | ((u>>29)&0x7fffff)
    x=d(u)
    try: return struct.unpack('<I',struct.pack('<f',x))[0]
    except OverflowError: return 0x7f800000 | (0x80000000 if x<0 else 0)
def cvt_i32(u):
    if isnan(u): return 0
    x=d(u)
    if math.isinf(x): return 0x7fffffff if x>0 else 0x80000000
    t=math.trunc(x)
    t=max(-2**31,min(2**31-1,t))
    return t & 0xffffffff
def cvt_f64_f32(f):
    if (f & 0x7fffffff) > 0x7f800000:
        p=f&0x7fffff
        return ((f&0x80000000)<<32) | 0x7ff8000000000000 | (p<<29)
    return b(struct.unpack('<f',struct.pack('<I',f))[0])
def cvt_f64_i32(n): return b(float(n))
def rcp(u):
    if isnan(u): return quiet(u)
    x=d(u)
    if x==0: return ((u>>63)<<63) | 0x7ff0000000000000
    return b(1.0/x)
def sqrt_(u):
    if isnan(u): return quiet(u)
    x=d(u)
    if x==0 or x==INF: return u
    if x<0: return QNAN
    return b(math.sqrt(x))
def rsq(u):
    import decimal
    if isnan(u): return quiet(u)
    x=d(u)
    if x==0: return u | 0x7ff0000000000000
    if x<0: return QNAN
    if x==INF: return 0
    decimal.getcontext().prec=80
    return b(float(1/decimal.Decimal(x).sqrt()))
def div(a, bb):
    # v_div_fixup's special cases (docs/semantics/programs.md), else a / b
    # correctly rounded.
    if isnan(a): return quiet(a)
    if isnan(bb): return quiet(bb)
    x, y = d(a), d(bb)
    sign = ((a ^ bb) >> 63) << 63
    if (x == 0 and y == 0) or (math.isinf(x) and math.isinf(y)): return 0xfff8000000000000
    if y == 0 or math.isinf(x): return sign | 0x7ff0000000000000
    if math.isinf(y) or x == 0: return sign
    return rnd(F(x) / F(y))
def clampu(u):
    if isnan(u): return 0
    if u>>63: return 0
    return min(u, b(1.0))
def mul2(u):
    if isnan(u): return u
    return ldexp(u,1)
exp={k:[] for k in ['v[10:11]','v[12:13]','v[14:15]','v[16:17]','v[18:19]','v[20:21]','v22','v23','v[24:25]','v[26:27]','v[28:29]','v[30:31]','v32','v[34:35]','v36','v37','v[38:39]','v[40:41]','v[42:43]','v[44:45]','v[46:47]','v[48:49]','v[50:51]','v[52:53]','v[54:55]','v[64:65]']}
def p64(u): return [u & 0xffffffff, u>>32]
for lane,(A,B,C,n,f) in enumerate(rows):
    neg_b = B ^ (1<<63)
    e=exp
    e['v[10:11]'].append((lane,p64(add(A,B))))
    e['v[12:13]'].append((lane,p64(mul(A,B))))
    e['v[14:15]'].append((lane,p64(fma(A,B,C))))
    e['v[16:17]'].append((lane,p64(add(A,neg_b))))
    e['v[18:19]'].append((lane,p64(minmax(A,B,False))))
    e['v[20:21]'].append((lane,p64(minmax(A,B,True))))
    e['v22'].append((lane,[lt(A,B)]))
    e['v23'].append((lane,[cls(A,0x3f0)]))
    e['v[24:25]'].append((lane,p64(unary(A,floor_))))
    e['v[26:27]'].append((lane,p64(unary(A,rne))))
    e['v[28:29]'].append((lane,p64(fract(A))))
    e['v[30:31]'].append((lane,p64(frexp_m(A))))
    e['v32'].append((lane,[frexp_e(A)]))
    nn = n if n < 2**31 else n-2**32
    e['v[34:35]'].append((lane,p64(ldexp(A,nn))))
    e['v36'].append((lane,[cvt_f32(A)]))
    e['v37'].append((lane,[cvt_i32(A)]))
    e['v[38:39]'].append((lane,p64(cvt_f64_f32(f))))
    e['v[40:41]'].append((lane,p64(cvt_f64_i32(nn))))
    e['v[42:43]'].append((lane,p64(clampu(mul(A,B)))))
    e['v[44:45]'].append((lane,p64(mul2(add(A,B)))))
    e['v[46:47]'].append((lane,p64(unary(A,trunc_))))
    e['v[48:49]'].append((lane,p64(unary(A,ceil_))))
    e['v[50:51]'].append((lane,p64(rcp(A))))
    e['v[52:53]'].append((lane,p64(sqrt_(A))))
    e['v[54:55]'].append((lane,p64(rsq(A))))
    e['v[64:65]'].append((lane,p64(div(A,B))))
out=[]
for k,v in exp.items():
    out.append(f'"{k}" = [')
    for lane,vals in v:
        out.append('  { wave = 0, lane = %d, u32 = [%s] },' % (lane, ', '.join('0x%08x'%x for x in vals)))
    out.append(']')
print('# data (dwords):')
for i in range(0, len(data), 8):
    print('  ' + ', '.join('0x%08x' % w for w in data[i:i + 8]) + ',')
print('\n'.join(out))
