// The wallet's options, declared once: the parser and the options part of --help both come from
// this table. Words that are not options are the command and its arguments, a negative number
// (`-1`) among them, so the amount check can say what is wrong with it; `--` ends the options.
import { UsageError } from './wallet_error.js';

export interface OptionSpec {
  name: string;
  short?: string;
  /** The value's placeholder in --help; absent for a flag. */
  value?: string;
  help: string;
}

export interface ParsedArgs {
  values: Map<string, string | true>;
  words: string[];
}

const isNumberWord = (w: string): boolean => /^-[0-9.]/.test(w);

export function parseOptions(argv: string[], table: OptionSpec[]): ParsedArgs {
  const byName = new Map(table.map((o) => [o.name, o]));
  const byShort = new Map(table.filter((o) => o.short).map((o) => [o.short!, o]));
  const values = new Map<string, string | true>();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { words.push(...argv.slice(i + 1)); break; }
    if (!a.startsWith('-') || a === '-' || isNumberWord(a)) { words.push(a); continue; }
    const long = a.startsWith('--');
    const eq = long ? a.indexOf('=') : -1;
    const key = long ? a.slice(2, eq < 0 ? undefined : eq) : a.slice(1);
    const spec = long ? byName.get(key) : byShort.get(key);
    if (!spec) throw new UsageError(`unknown option '${a}'`);
    if (values.has(spec.name)) throw new UsageError(`--${spec.name} is given twice`);
    if (!spec.value) {
      if (eq >= 0) throw new UsageError(`--${spec.name} takes no value`);
      values.set(spec.name, true);
    } else if (eq >= 0) {
      values.set(spec.name, a.slice(eq + 1));
    } else {
      if (i + 1 >= argv.length) throw new UsageError(`--${spec.name} needs a value (${spec.value})`);
      values.set(spec.name, argv[++i]); // the next word, whatever it looks like: `--fee -1` is a fee of -1
    }
  }
  return { values, words };
}

/** The options part of --help. */
export function optionsHelp(table: OptionSpec[]): string {
  const left = (o: OptionSpec) => `${o.short ? `-${o.short}, ` : ''}--${o.name}${o.value ? ` ${o.value}` : ''}`;
  const width = Math.max(...table.map((o) => left(o).length)) + 2;
  return table.map((o) => `  ${left(o).padEnd(width)}${o.help.replace(/\n/g, '\n' + ' '.repeat(width + 2))}`).join('\n');
}
