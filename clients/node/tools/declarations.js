'use strict';
// The ES module declarations (X.d.mts) of the modules that have both a
// CommonJS and an ES entry point, written from their one source, the
// CommonJS declarations (X.d.ts): the two describe the same exports, and
// TypeScript needs a .d.mts beside a .mjs to type it as an ES module.
// package.json's exports say which: an entry whose "import" types are
// X.d.mts and whose "require" types are X.d.ts.  Run by npm before it packs
// or publishes (and after npm install in this directory): the "prepare"
// script.
const fs = require('fs');
const path = require('path');

const dir = path.join(__dirname, '..');
const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
for (const entry of Object.values(pkg.exports)) {
  const esm = entry.import && entry.import.types;
  const cjs = entry.require && entry.require.types;
  if (!esm || !cjs || !esm.endsWith('.d.mts') || cjs !== esm.replace(/\.d\.mts$/, '.d.ts')) continue;
  fs.copyFileSync(path.join(dir, cjs), path.join(dir, esm));
}
