'use strict';
// node test/readme.test.js README.md WORKDIR: run the fenced blocks of
// the section "From your application" of this package's README.md.  The package is
// installed from the tarball npm pack makes (what would be published),
// without network; the js blocks run as one ES module, the ts blocks are
// compiled by tsc as one and run by Node; the prisma block is the model
// test/prisma.test.mts runs.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const [readmePath, work] = process.argv.slice(2);
const here = path.resolve(__dirname, '..');
let failed = 0;

function step(name, fn) {
  try {
    fn();
    console.log(`ok   README: ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL README: ${name}`);
    const out = [e.stdout, e.stderr, e.stack].filter(Boolean).join('\n');
    console.log(String(out).split('\n').slice(0, 30).map((l) => '    ' + l).join('\n'));
  }
}

const text = fs.readFileSync(readmePath, 'utf8');
const start = text.indexOf('\n## From your application\n');
if (start < 0) throw new Error(`${readmePath}: no section "From your application"`);
const next = text.indexOf('\n## ', start + 1);
const section = text.slice(start, next < 0 ? text.length : next);
const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2] }));

const dir = path.join(work, 'readme');
fs.rmSync(dir, { recursive: true, force: true });
fs.mkdirSync(dir, { recursive: true });
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { cwd: dir, stdio: 'pipe', encoding: 'utf8', ...opts });

step(`the section has sh, js and ts blocks (${blocks.map((b) => b.lang).join(', ')})`, () => {
  if (!blocks.some((b) => b.lang === 'js') || !blocks.some((b) => b.lang === 'ts') || !blocks.some((b) => b.lang === 'sh')) {
    throw new Error('missing blocks');
  }
  for (const b of blocks) if (!['sh', 'js', 'ts', 'prisma'].includes(b.lang)) throw new Error(`a ${b.lang} block is run by nothing`);
});

step('sh: the packed package unpacked as npm install would, then pg and the frameworks from the lock file', () => {
  const sh = blocks.filter((b) => b.lang === 'sh').map((b) => b.code.trim());
  const mirrored = 'cd path/to/xid/clients/node && npm pack --pack-destination /tmp   # /tmp/xid-pg-1.3.0.tgz\n' +
    'cd your-app && npm install /tmp/xid-pg-1.3.0.tgz pg';
  if (sh.join('\n') !== mirrored) throw new Error(`an sh block this test does not mirror: ${sh}`);
  const tgz = run('npm', ['pack', '--silent', '--pack-destination', dir, here]).trim().split('\n').pop();
  fs.writeFileSync(path.join(dir, 'package.json'), '{"name": "readme", "private": true, "type": "module"}\n');
  // what npm install does with a package without dependencies: unpack it
  // into node_modules (npm itself would also try to add every optional peer)
  fs.mkdirSync(path.join(dir, 'node_modules', 'xid-pg'), { recursive: true });
  run('tar', ['-xzf', path.join(dir, tgz), '-C', path.join(dir, 'node_modules', 'xid-pg'), '--strip-components=1']);
  // pg, postgres, typescript and the types: the copies test.sh installed
  for (const m of ['pg', 'postgres', 'typescript', '@types']) {
    const link = path.join(dir, 'node_modules', m);
    if (!fs.existsSync(link)) fs.symlinkSync(path.join(here, 'node_modules', m), link);
  }
  for (const m of fs.readdirSync(path.join(here, 'node_modules'))) {
    const link = path.join(dir, 'node_modules', m);
    if (!fs.existsSync(link)) fs.symlinkSync(path.join(here, 'node_modules', m), link);
  }
  const files = fs.readdirSync(path.join(dir, 'node_modules', 'xid-pg')).sort().join(' ');
  if (!/index\.d\.ts/.test(files) || /test/.test(files)) throw new Error(`packed files: ${files}`);
});

step('js blocks, as one module (codec, node-postgres, Drizzle, TypeORM, Zod)', () => {
  run('psql', ['-X', '-q', '-c', 'DROP TABLE IF EXISTS orders']);
  const js = blocks.filter((b) => b.lang === 'js').map((b) => b.code).join('\n');
  fs.writeFileSync(path.join(dir, 'snippets.mjs'), js + '\nawait client.end();\n');
  run('node', ['snippets.mjs']);
});

step('ts blocks: compiled by tsc (strict), then run (postgres.js, Kysely)', () => {
  const ts = blocks.filter((b) => b.lang === 'ts').map((b) => b.code).join('\n');
  fs.writeFileSync(path.join(dir, 'snippet.mts'), ts);
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'] },
    files: ['snippet.mts'],
  }));
  run(path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', '.']);
  // Debian's Node is built without type stripping: run what tsc emitted
  run('node', [path.join('out', 'snippet.mjs')]);
});

step('prisma block: the model test/prisma.test.mts runs (test/prisma/schema.prisma)', () => {
  const schema = fs.readFileSync(path.join(here, 'test', 'prisma', 'schema.prisma'), 'utf8');
  const prisma = blocks.filter((b) => b.lang === 'prisma');
  if (prisma.length !== 1) throw new Error(`${prisma.length} prisma blocks`);
  if (!schema.includes(prisma[0].code)) throw new Error(`not in test/prisma/schema.prisma:\n${prisma[0].code}`);
});

process.exit(failed ? 1 : 0);
