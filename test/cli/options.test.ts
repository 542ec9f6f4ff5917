import { expect, test } from 'vitest';
import { UsageError, optionsHelp, parseOptions, type OptionSpec } from '../../ts/cli/options.js';

const TABLE: OptionSpec[] = [
  { name: 'rpc', short: 'r', value: 'IP:PORT', help: 'endpoint' },
  { name: 'fee', value: 'AMOUNT', help: 'fee' },
  { name: 'a-rather-long-option', help: 'first line\nsecond line' },
  { name: 'debug', help: 'debug lines' },
];

test('--name=value, --name value and -x value; words where the program takes them', () => {
  const p = parseOptions(['-r', '1.2.3.4:5', 'send', '--fee', '-1', '--debug', '--', '--not-an-option'], TABLE);
  expect(Object.fromEntries(p.values)).toEqual({ rpc: '1.2.3.4:5', fee: '-1', debug: true });
  expect(p.words).toEqual(['send', '--not-an-option']);
  expect(Object.fromEntries(parseOptions(['--rpc=x'], TABLE, { words: false }).values)).toEqual({ rpc: 'x' });
});

test('what the parser refuses, as usage errors', () => {
  const err = (argv: string[], words = true) => {
    try {
      parseOptions(argv, TABLE, { words });
      return null;
    } catch (e) {
      return e instanceof UsageError ? e.message : e;
    }
  };
  expect(err(['--bogus'])).toBe("unknown option '--bogus'");
  expect(err(['--debug', '--debug'])).toBe('--debug is given twice');
  expect(err(['--debug=1'])).toBe('--debug takes no value');
  expect(err(['--rpc'])).toBe('--rpc needs a value (IP:PORT)');
  expect(err(['stray'], false)).toBe("unexpected argument 'stray'");
});

test('--help lines: long names line up, a long option puts its help on the next line', () => {
  expect(optionsHelp(TABLE, '=').split('\n')).toEqual([
    '  -r, --rpc=IP:PORT       endpoint',
    '      --fee=AMOUNT        fee',
    '      --a-rather-long-option',
    '                          first line',
    '                          second line',
    '      --debug             debug lines',
  ]);
});
