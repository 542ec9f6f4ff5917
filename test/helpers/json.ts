// A JSON parser that keeps integers beyond 2^53 exact (as bigint), for checking uint64 output.
export function parseJsonExact(text: string): unknown {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\n\r'.includes(text[i])) i++; };
  const value = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const o: Record<string, unknown> = {}; ws();
      if (text[i] === '}') { i++; return o; }
      for (;;) {
        ws(); const k = value() as string; ws();
        if (text[i++] !== ':') throw new SyntaxError(`expected ':' at ${i}`);
        o[k] = value(); ws();
        const d = text[i++];
        if (d === '}') return o;
        if (d !== ',') throw new SyntaxError(`expected ',' at ${i}`);
      }
    }
    if (c === '[') {
      i++; const a: unknown[] = []; ws();
      if (text[i] === ']') { i++; return a; }
      for (;;) {
        a.push(value()); ws();
        const d = text[i++];
        if (d === ']') return a;
        if (d !== ',') throw new SyntaxError(`expected ',' at ${i}`);
      }
    }
    if (c === '"') {
      const m = /^"(?:[^"\\]|\\.)*"/.exec(text.slice(i));
      if (!m) throw new SyntaxError(`bad string at ${i}`);
      i += m[0].length; return JSON.parse(m[0]);
    }
    const m = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!m) throw new SyntaxError(`unexpected '${c}' at ${i}`);
    i += m[0].length;
    if (/^-?\d+$/.test(m[0])) { const b = BigInt(m[0]); return b >= -(2n ** 53n) && b <= 2n ** 53n ? Number(b) : b; }
    return JSON.parse(m[0]);
  };
  const v = value(); ws();
  if (i !== text.length) throw new SyntaxError(`trailing text at ${i}`);
  return v;
}
