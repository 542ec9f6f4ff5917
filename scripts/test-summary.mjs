// Prints vitest's totals as one plain line, `vitest: N passed, N failed` (read by CI), from the
// JSON report `make test` writes; exits non-zero when a test or a test file failed, or none ran.
import { readFileSync } from 'node:fs';

const r = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const passed = r.numPassedTests ?? 0,
  failed = r.numFailedTests ?? 0;
// numFailedTestSuites counts describe blocks too; a file failed when its own status says so.
const badFiles = (r.testResults ?? []).filter((f) => f.status === 'failed').length;
console.log(`vitest: ${passed} passed, ${failed} failed`);
if (badFiles > 0) console.log(`vitest: ${badFiles} test files failed`);
process.exit(failed > 0 || badFiles > 0 || passed === 0 || r.success === false ? 1 : 0);
