// Prints the plain closing line "N passed, N failed" that CI reads, whatever the default reporter says.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0, failed = 0, skipped = 0;
    for (const m of modules) {
      // A file that fails before its tests run (an import that throws: a missing browser) has no
      // failed test: it counts as one failure, or the line would say all is well.
      if (m.errors().length > 0) failed++;
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
