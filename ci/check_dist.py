#!/usr/bin/env python3
"""ci/check_dist.py ZIP CONTROL: check the PGXN distribution made by
`make dist`.

The zip must hold one directory, name-version/, with META.json, the control
file and the install scripts; META.json must carry the keys the PGXN meta
spec (1.0.0) requires, with semantic versions, a known license and a
"provides" entry for the extension; and its version must be the
extension's default_version (1.1 is 1.1.0 in semantic versioning).
Prints what it checked; exits 1 on the first problem.
"""
import json
import re
import sys
import zipfile

SEMVER = re.compile(r'^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+)?$')
LICENSES = {'agpl_3', 'apache_1_1', 'apache_2_0', 'artistic_1', 'artistic_2', 'bsd', 'freebsd',
            'gfdl_1_2', 'gfdl_1_3', 'gpl_1', 'gpl_2', 'gpl_3', 'lgpl_2_1', 'lgpl_3_0', 'mit',
            'mozilla_1_0', 'mozilla_1_1', 'openssl', 'perl_5', 'postgresql', 'qpl_1_0', 'ssleay',
            'sun', 'zlib', 'open_source', 'restricted', 'unrestricted', 'unknown'}


def fail(msg):
    print('FAIL ' + msg)
    sys.exit(1)


def semver_of(version):
    """1.1 -> 1.1.0: the extension's version in semantic versioning."""
    parts = version.split('.')
    while len(parts) < 3:
        parts.append('0')
    return '.'.join(parts)


def main():
    zip_path, control_path = sys.argv[1], sys.argv[2]
    with open(control_path) as f:
        m = re.search(r"^default_version\s*=\s*'([^']+)'", f.read(), re.M)
    if not m:
        fail('no default_version in ' + control_path)
    ext_version = m.group(1)

    z = zipfile.ZipFile(zip_path)
    names = z.namelist()
    tops = {n.split('/')[0] for n in names}
    if len(tops) != 1:
        fail('the zip must hold one directory, not %s' % sorted(tops))
    top = tops.pop()
    meta = json.loads(z.read(top + '/META.json'))

    for key in ('name', 'abstract', 'version', 'maintainer', 'license', 'provides', 'meta-spec'):
        if key not in meta:
            fail('META.json lacks the required key "%s"' % key)
    if meta['meta-spec'].get('version') != '1.0.0':
        fail('meta-spec version must be 1.0.0')
    if not SEMVER.match(meta['version']):
        fail('version "%s" is not a semantic version' % meta['version'])
    lic = meta['license']
    lics = lic if isinstance(lic, list) else [lic]
    if isinstance(lic, dict):
        lics = []
    for name in lics:
        if name not in LICENSES:
            fail('license "%s" is not one the spec knows' % name)
    if not isinstance(meta['maintainer'], (str, list)) or not meta['maintainer']:
        fail('maintainer must be a string or a non-empty list')
    if meta['name'] not in meta['provides']:
        fail('provides has no entry for "%s"' % meta['name'])
    for ext, p in meta['provides'].items():
        for key in ('file', 'version'):
            if key not in p:
                fail('provides.%s lacks "%s"' % (ext, key))
        if not SEMVER.match(p['version']):
            fail('provides.%s.version "%s" is not a semantic version' % (ext, p['version']))
        if top + '/' + p['file'] not in names:
            fail('provides.%s.file "%s" is not in the zip' % (ext, p['file']))
    if meta['version'] != semver_of(ext_version):
        fail('META.json version %s is not the extension\'s %s (%s)'
             % (meta['version'], ext_version, semver_of(ext_version)))
    if meta['provides']['xid']['version'] != meta['version']:
        fail('provides.xid.version differs from version')
    if top != '%s-%s' % (meta['name'], meta['version']):
        fail('the directory is %s, not %s-%s' % (top, meta['name'], meta['version']))
    for needed in ('xid.control', 'Makefile', 'README.md', 'LICENSE', 'xid--1.0.sql'):
        if top + '/' + needed not in names:
            fail(needed + ' is not in the zip')
    print('ok   %s: %d files under %s/, META.json valid (version %s = extension %s)'
          % (zip_path, len(names), top, meta['version'], ext_version))


main()
