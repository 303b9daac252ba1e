'use strict';
// npm test: the package's tests, each file in a process of its own on this
// node (process.execPath), all of them whatever one returns; exits 1 if any
// failed.  The server's tests need a database with xid (PGHOST, PGPORT,
// PGUSER, PGDATABASE, as libpq reads them) and the devDependencies
// (npm ci).
const { spawnSync } = require('child_process');
const path = require('path');

const files = ['codec.test.js', 'server.test.js', 'frameworks.test.mjs', 'cjs.test.cjs'];
let failed = 0;
for (const f of files) {
  const r = spawnSync(process.execPath, [path.join(__dirname, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
