// Generates docs/architecture.md: the prose of scripts/docs/architecture.md.in with the store's key
// layout taken from the header comment of ts/store/keys.ts, so the document follows the schema.

/** The leading `//` comment block of a source file, without the slashes. */
export function headerComment(source: string): string {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n').trim();
}

export function architectureDoc(template: string, keysSource: string): string {
  const keys = headerComment(keysSource);
  if (!keys) throw new Error('ts/store/keys.ts has no header comment with the key layout');
  return template.replace('{{store_keys}}', '```\n' + keys + '\n```');
}
