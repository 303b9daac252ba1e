'use strict';
// A small runner for test.sh's contract: one "ok   NAME" or "FAIL NAME"
// line per test, in order; run() resolves to the number of failures.
const tests = [];

function test(name, fn) {
  tests.push({ name, fn });
}

async function run(prefix = '') {
  let failed = 0;
  for (const { name, fn } of tests) {
    try {
      await fn();
      console.log(`ok   ${prefix}${name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${prefix}${name}`);
      console.log(String(e && e.stack ? e.stack : e).split('\n').slice(0, 12).map((l) => '    ' + l).join('\n'));
    }
  }
  tests.length = 0;
  return failed;
}

// the size of a random sample: n, or n times XID_TEST_SCALE (test.sh runs
// the other Node versions with 0.1: the same code paths, fewer inputs)
function scaled(n) {
  const scale = Number(process.env.XID_TEST_SCALE || 1);
  return Math.max(100, Math.round(n * scale));
}

module.exports = { test, run, scaled };
