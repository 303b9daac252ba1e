#!/usr/bin/env python3
"""ci/check_versions.py [TOP]: every place that states xid's version
states the same one.

The extension's default_version (xid.control) is the version: META.json,
the newest CHANGELOG.md heading, the newest debian/changelog entry (its
upstream part, before "-" and any "~"), each client package's own version
(Node, Python's pyproject.toml and __version__, the Java poms, the Rust
crate) and the Go modules' requirement of the client module must all say
it, in semantic versioning (1.2 is 1.2.0).  A released version (a dated
CHANGELOG heading) needs a Debian entry of that version for a released
distribution; an unreleased one needs UNRELEASED there.  Prints what it
checked; exits 1 when anything disagrees.
"""
import glob
import json
import os
import re
import sys

top = sys.argv[1] if len(sys.argv) > 1 else '.'
bad = 0


def read(path):
    with open(os.path.join(top, path)) as f:
        return f.read()


def semver(v):
    parts = v.split('.')
    return '.'.join(parts + ['0'] * (3 - len(parts)))


def check(what, found, want):
    global bad
    if found == want:
        print('ok   %s: %s' % (what, found))
    else:
        print('FAIL %s says %s, the extension is %s' % (what, found, want))
        bad += 1


def first(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        print('FAIL no version found in %s' % what)
        sys.exit(1)
    return m.group(1)


ext = first(r"^default_version\s*=\s*'([^']+)'", read('xid.control'), 'xid.control')
want = semver(ext)
print('the extension: %s (%s)' % (ext, want))

meta = json.loads(read('META.json'))
check('META.json', meta['version'], want)
check('META.json provides xid', meta['provides']['xid']['version'], want)
# the online key move is an extension of its own, with its own version
move_raw = first(r"^default_version\s*=\s*'([^']+)'", read('move/xid_move.control'), 'move/xid_move.control')
move = semver(move_raw)
if meta['provides']['xid_move']['version'] == move:
    print('ok   META.json provides xid_move: %s, as move/xid_move.control' % move)
else:
    print('FAIL META.json provides xid_move %s, move/xid_move.control says %s'
          % (meta['provides']['xid_move']['version'], move))
    bad += 1
# the current version's script of each extension is built from its
# src/sql (its Makefile says which version it builds); xid--1.0.sql and the
# update scripts are the released history
built_xid = re.search(r'^CURRENT = (\S+)$', read('Makefile'), re.M)
if built_xid and built_xid.group(1) == ext and os.path.isdir(os.path.join(top, 'src', 'sql')):
    print('ok   the Makefile builds the script of xid %s from src/sql' % want)
else:
    print('FAIL the Makefile does not build the script of xid %s (CURRENT = ... and src/sql)' % want)
    bad += 1
# the current version's script is built from move/src/sql (move/Makefile
# says which version it builds); a released one is committed
built = re.search(r'^CURRENT = (\S+)$', read('move/Makefile'), re.M)
if os.path.exists(os.path.join(top, 'move', 'xid_move--%s.sql' % move_raw)):
    print('ok   move/ has the script of xid_move %s' % move)
elif built and built.group(1) == move_raw and os.path.isdir(os.path.join(top, 'move', 'src', 'sql')):
    print('ok   move/Makefile builds the script of xid_move %s from move/src/sql' % move)
else:
    print('FAIL move/ has no script for xid_move %s' % move)
    bad += 1

m = re.search(r'^## (\S+) \(([^)]*)\)', read('CHANGELOG.md'), re.M)
check('CHANGELOG.md, newest heading', semver(m.group(1)), want)
released = m.group(2) != 'unreleased'

deb = re.match(r'^xid \(([^)]+)\) (\S+);', read('debian/changelog'))
check('debian/changelog, newest entry', semver(re.split(r'[-~]', deb.group(1))[0]), want)
dist = deb.group(2)
if released == (dist == 'UNRELEASED'):
    print('FAIL debian/changelog\'s newest entry is for %s, CHANGELOG.md says %s'
          % (dist, m.group(2)))
    bad += 1
else:
    print('ok   debian/changelog distribution %s for a %s version'
          % (dist, 'released' if released else 'unreleased'))

check('clients/node/package.json', json.loads(read('clients/node/package.json'))['version'], want)
lock = json.loads(read('clients/node/package-lock.json'))
check('clients/node/package-lock.json', lock['packages']['']['version'], want)
check('clients/python/pyproject.toml',
      first(r'^version = "([^"]+)"', read('clients/python/pyproject.toml'), 'pyproject.toml'), want)
check('pgxid.__version__',
      first(r'^__version__ = "([^"]+)"', read('clients/python/src/pgxid/__init__.py'), '__init__.py'), want)
for pom in sorted(glob.glob(os.path.join(top, 'clients/java/**/pom.xml'), recursive=True)):
    rel = os.path.relpath(pom, top)
    text = read(rel)
    # the project's version, or its parent's in a module; an application
    # outside the build (clients/java/app) states the version it depends on
    m = re.search(r'<artifactId>xid-parent</artifactId>\s*<version>([^<]+)</version>', text)
    if m is None:
        m = re.search(r'<groupId>io\.github\.xid-pg</groupId>\s*<artifactId>xid</artifactId>\s*<version>([^<]+)</version>', text)
    if m is None and 'put here by\n         test.sh' in text:
        # the application outside the build takes its dependencies from
        # README's Installing block (test.sh puts it there): the version
        # is README's
        rel = 'clients/java/README.md'
        m = re.search(r'<groupId>io\.github\.xid-pg</groupId>\s*<artifactId>xid</artifactId>\s*<version>([^<]+)</version>', read(rel))
    if m is None:
        print('FAIL no version found in %s' % rel)
        bad += 1
        continue
    check(rel, m.group(1), want)
check('clients/rust/Cargo.toml',
      first(r'^version = "([^"]+)"', read('clients/rust/Cargo.toml'), 'Cargo.toml'), want)
for mod in sorted(glob.glob(os.path.join(top, 'clients/go/*/go.mod'))):
    rel = os.path.relpath(mod, top)
    check(rel, first(r'github\.com/xid-pg/xid/clients/go v(\S+)', read(rel), rel), want)

print('versions: %d disagree' % bad)
sys.exit(1 if bad else 0)
