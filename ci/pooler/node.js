// ci/pooler/node.js: node-postgres through PgBouncer in transaction mode
// (ci/pooler.sh), as ci/pooler/drivers.py does for psycopg and asyncpg.
//
// Usage: node node.js DIRECT_PORT POOLER_PORT PROBES_JSON   (PGHOST, PGUSER,
// PGDATABASE from the environment)
//
// Eight clients, each its own connection to PgBouncer (two server
// connections), run every query as a named statement ({name, text, values}:
// node-postgres prepares a statement only when it has a name), in text and
// with binary results, and compare the rows with those of a direct
// connection; then inserts with DEFAULT xid_new() ... RETURNING id.
'use strict';
const { Client } = require('pg');
const fs = require('fs');

const [directPort, poolerPort, probesFile] = process.argv.slice(2);
const probes = JSON.parse(fs.readFileSync(probesFile, 'utf8'));
const CLIENTS = 8, ROUNDS = 6, INSERTS = 25;
const QUERIES = {
	'prefix ^@': ['SELECT id FROM orders WHERE id ^@ $1 ORDER BY id', ['prefix']],
	'LIKE': ['SELECT id FROM orders WHERE id LIKE $1 ORDER BY id', ['pattern']],
	'time window': ['SELECT id FROM orders WHERE id >= $1::timestamptz AND id < $2::timestamptz ORDER BY id', ['t0', 't1']],
	'<@ prefix range': ['SELECT id FROM orders WHERE id <@ xid_prefix_range($1) ORDER BY id', ['prefix']],
	'<@ time range': ['SELECT id FROM orders WHERE id <@ xid_time_range(tstzrange($1, $2)) ORDER BY id', ['t0', 't1']],
};
let failures = 0;
function report(ok, text) {
	if (!ok) failures++;
	console.log((ok ? 'ok   ' : 'FAIL ') + text);
}
const args = (p, fields) => fields.map((f) => p[f]);
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

async function main() {
	const direct = new Client({ port: directPort, application_name: 'direct' });
	await direct.connect();
	await direct.query('SET plan_cache_mode = force_custom_plan');
	// expected: text ids, and the 8 bytes of the binary form as bigint text
	const text = {}, big = {};
	for (const [name, [sql, fields]] of Object.entries(QUERIES)) {
		text[name] = [];
		big[name] = [];
		for (const p of probes) {
			text[name].push((await direct.query(sql, args(p, fields))).rows.map((r) => r.id));
			big[name].push((await direct.query(sql.replace('SELECT id FROM', 'SELECT id::bigint AS id FROM'),
				args(p, fields))).rows.map((r) => r.id));
		}
	}
	const wrong = [];
	let ntext = 0, nbin = 0, binwrong = 0;
	const returned = {};
	const t0 = Date.now();
	await Promise.all([...Array(CLIENTS).keys()].map(async (c) => {
		const conn = new Client({ port: poolerPort, application_name: 'node-postgres' });
		await conn.connect();
		try {
			for (let r = 0; r < ROUNDS; r++) {
				for (let k = 0; k < probes.length; k++) {
					for (const [name, [sql, fields]] of Object.entries(QUERIES)) {
						const vals = args(probes[k], fields);
						const got = (await conn.query({ name: 't ' + name, text: sql, values: vals })).rows.map((x) => x.id);
						ntext++;
						if (!same(got, text[name][k])) wrong.push([c, name, 'text', probes[k], got.length, text[name][k].length]);
						// binary results: node-postgres 8.16 decodes every field
						// as UTF-8 text, binary ones too, so bytes above 0x7f do
						// not survive; counted apart, not a failure of xid's
						if (r === 0) {
							const res = await conn.query({ name: 'b ' + name, text: sql, values: vals, binary: true });
							const gotb = res.rows.map((x) => Buffer.from(x.id).length === 8 ?
								Buffer.from(x.id).readBigInt64BE(0).toString() : 'not 8 bytes');
							nbin++;
							if (!same(gotb, big[name][k])) binwrong++;
						}
					}
				}
			}
			const ids = [];
			for (let i = 0; i < INSERTS; i++) {
				const res = await conn.query({
					name: 'insert',
					text: 'INSERT INTO events (driver, client) VALUES ($1, $2) RETURNING id',
					values: ['node-postgres', c],
				});
				ids.push(res.rows[0].id);
			}
			returned[c] = ids;
		} finally {
			await conn.end();
		}
	}));
	for (const w of wrong.slice(0, 10)) console.log('    wrong rows: ' + JSON.stringify(w));
	const version = require('pg/package.json').version;
	report(wrong.length === 0 && ntext === CLIENTS * ROUNDS * probes.length * Object.keys(QUERIES).length,
		`node-postgres ${version} (named statements), ${CLIENTS} clients on 2 server connections: ` +
		`${ntext} text results of prefix ^@, LIKE, time window, <@ ranges, ` +
		`each the direct connection's rows (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
	console.log(`node-postgres binary: true: ${binwrong} of ${nbin} results differ from the direct connection's ` +
		'(its protocol parser reads every field as UTF-8 text, binary ones too: use text results)');

	const stored = new Map((await direct.query(
		"SELECT id::text AS id, client FROM events WHERE driver = 'node-postgres'")).rows.map((r) => [r.id, r.client]));
	const all = Object.values(returned).flat();
	const rising = Object.values(returned).every((ids) => ids.every((v, i) => i === 0 || ids[i - 1] < v));
	report(all.length === CLIENTS * INSERTS && new Set(all).size === all.length && stored.size === all.length &&
		all.every((v) => stored.has(v)) && rising,
	`node-postgres: ${all.length} inserts with DEFAULT xid_new() ... RETURNING id through the pooler: ` +
		`every returned id stored once (${stored.size} rows), each client's strictly increasing`);
	await direct.end();
}

main().then(() => process.exit(failures ? 1 : 0), (e) => {
	report(false, 'node-postgres: ' + e.message);
	process.exit(1);
});
