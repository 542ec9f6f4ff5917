// A program's options, declared once in a table: the parser and the options part of --help both
// come from it (the node's config.ts, the wallet's and the miner's main.ts). `--name=value`,
// `--name value` and `-x value` all work; `--` ends the options. Words that are not options are
// the command and its arguments where the program takes them, a negative number (`-1`) among
// them, so the program's own check can say what is wrong with it; elsewhere they are refused.

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

/** A command line the program cannot read: exit code 2, followed by `help` or a pointer to --help. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly help?: string,
  ) {
    super(message);
  }
}

const isNumberWord = (w: string): boolean => /^-[0-9.]/.test(w);

/** `words`: whether the program takes words besides its options (a command, arguments). */
export function parseOptions(argv: string[], table: OptionSpec[], opts: { words: boolean } = { words: true }): ParsedArgs {
  const byName = new Map(table.map((o) => [o.name, o]));
  const byShort = new Map(table.filter((o) => o.short).map((o) => [o.short!, o]));
  const values = new Map<string, string | true>();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-' || isNumberWord(a)) {
      words.push(a);
      continue;
    }
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
  if (!opts.words && words.length) throw new UsageError(`unexpected argument '${words[0]}'`);
  return { values, words };
}

/** Help texts start in this column; a longer option name puts its help on the next line. */
const HELP_COLUMN = 24;

/** The options part of --help; `joiner` goes between an option and its value (`--rpc=IP:PORT`, `--node URL`). */
export function optionsHelp(table: OptionSpec[], joiner: '=' | ' ' = ' '): string {
  // Options without a short name line up with the long names of those with one.
  const indent = table.some((o) => o.short) ? '    ' : '';
  const left = (o: OptionSpec) => `${o.short ? `-${o.short}, ` : indent}--${o.name}${o.value ? `${joiner}${o.value}` : ''}`;
  const width = Math.min(Math.max(...table.map((o) => left(o).length)) + 2, HELP_COLUMN);
  const pad = ' '.repeat(width + 2);
  return table
    .map((o) => {
      const help = o.help.replace(/\n/g, '\n' + pad);
      return left(o).length + 2 > width ? `  ${left(o)}\n${pad}${help}` : `  ${left(o).padEnd(width)}${help}`;
    })
    .join('\n');
}
