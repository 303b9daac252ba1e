#!/usr/bin/env python3
"""ci/check_links.py [TOP]: every relative link and anchor in the
repository's Markdown resolves, and every table renders.

Reads README.md and the other Markdown files at the top (DEVELOPING.md,
BENCHMARKS.md, CHANGELOG.md), docs/ and clients/*/ and checks each link
that is not to another site: [text](path), [text](path#anchor),
[text](#anchor), reference definitions ([label]: path) and HTML href/src.
The path must exist in the repository; an anchor into a Markdown file must
be one of its headings' anchors as GitHub makes them (lower case,
punctuation other than - and _ dropped, each space a hyphen, -1, -2 ...
for repeated headings) or an explicit <a name/id>; an anchor into any
other file must be a line anchor (#L10, #L10-L20).  Code blocks and code
spans are not read.  A table renders on GitHub only when its header row
and the delimiter row under it have as many cells: each has.  Prints each
link that does not resolve as FILE:LINE: TARGET: why, and each table that
does not render; exits 1 if there is one.  Python 3 standard library only.
"""
import glob
import os
import re
import sys
import urllib.parse

top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')

FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')
ATX = re.compile(r'^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$')
SETEXT = re.compile(r'^ {0,3}(=+|-+)[ \t]*$')
CODE_SPAN = re.compile(r'(`+)(.+?)\1', re.S)
INLINE = re.compile(r'!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+("[^"]*"|\'[^\']*\'|\([^)]*\)))?\s*\)')
REFDEF = re.compile(r'^ {0,3}\[([^\]]+)\]:\s*(<[^>]*>|\S+)')
HTML_LINK = re.compile(r'<(?:a|img)\b[^>]*?\b(?:href|src)\s*=\s*["\']([^"\']*)["\']', re.I)
HTML_ANCHOR = re.compile(r'<a\b[^>]*?\b(?:name|id)\s*=\s*["\']([^"\']*)["\']', re.I)
SCHEME = re.compile(r'^[A-Za-z][A-Za-z0-9+.-]*:|^//')
LINE_ANCHOR = re.compile(r'^L\d+(-L\d+)?$')
DELIMITER = re.compile(r'^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$')


def markdown_files():
    found = set()
    for pattern in ('*.md', 'docs/**/*.md', 'clients/*/*.md'):
        for path in glob.glob(os.path.join(top, pattern), recursive=True):
            found.add(os.path.relpath(path, top))
    return sorted(found)


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks, with
    code spans blanked (their length kept)."""
    out = []
    fence = None
    for n, line in enumerate(text.split('\n'), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and line.strip() == m.group(1):
                fence = None
            continue
        out.append((n, line))
    return out


def blank_code(line):
    return CODE_SPAN.sub(lambda m: ' ' * len(m.group(0)), line)


def heading_text(raw):
    """The text GitHub renders for a heading's source: code spans keep
    their content, links their text, emphasis and HTML tags go."""
    spans = []

    def keep(m):
        spans.append(m.group(2).strip())
        return '\0%d\0' % (len(spans) - 1)
    s = CODE_SPAN.sub(keep, raw)
    s = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', s)
    s = re.sub(r'<[^>]+>', '', s)
    s = s.replace('*', '')
    s = re.sub(r'(?<![\w])_+|_+(?![\w])', '', s)
    s = re.sub(r'\0(\d+)\0', lambda m: spans[int(m.group(1))], s)
    return s.strip()


def slug(text):
    """github-slugger: lower case, drop what is neither a letter, a digit,
    a space, - nor _, and make each space a hyphen."""
    s = text.lower()
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


anchor_cache = {}


def anchors(rel):
    if rel in anchor_cache:
        return anchor_cache[rel]
    with open(os.path.join(top, rel), encoding='utf-8') as f:
        lines = prose_lines(f.read())
    seen = {}
    result = set()
    prev = None
    for n, line in lines:
        text = None
        m = ATX.match(line)
        if m:
            text = m.group(2) or ''
        elif prev is not None and SETEXT.match(line) and prev[0] == n - 1 \
                and prev[1].strip() and not prev[1].lstrip().startswith(('|', '-', '*', '>')):
            text = prev[1]
        if text is not None:
            base = slug(heading_text(text))
            k = seen.get(base, 0)
            seen[base] = k + 1
            result.add(base if k == 0 else '%s-%d' % (base, k))
        for a in HTML_ANCHOR.findall(line):
            result.add(a)
        prev = (n, line)
    anchor_cache[rel] = result
    return result


def links(rel):
    with open(os.path.join(top, rel), encoding='utf-8') as f:
        lines = prose_lines(f.read())
    for n, line in lines:
        line = blank_code(line)
        m = REFDEF.match(line)
        if m:
            yield n, m.group(2)
            continue
        for m in INLINE.finditer(line):
            yield n, m.group(2)
        for target in HTML_LINK.findall(line):
            yield n, target


def check(rel, target):
    """None if target resolves from the file rel, else why not."""
    if target.startswith('<') and target.endswith('>'):
        target = target[1:-1]
    if not target or SCHEME.match(target):
        return None
    path, _, frag = target.partition('#')
    path = urllib.parse.unquote(path)
    frag = urllib.parse.unquote(frag)
    if path == '':
        dest = rel
    elif path.startswith('/'):
        dest = os.path.normpath(path.lstrip('/'))
    else:
        dest = os.path.normpath(os.path.join(os.path.dirname(rel), path))
    if dest.startswith('..'):
        return 'outside the repository'
    full = os.path.join(top, dest)
    if not os.path.exists(full):
        return 'no file %s' % dest
    if not frag:
        return None
    if dest.endswith('.md'):
        if frag not in anchors(dest):
            return 'no heading with the anchor #%s in %s' % (frag, dest)
        return None
    if os.path.isfile(full) and LINE_ANCHOR.match(frag):
        return None
    return 'an anchor #%s into %s, which is not Markdown' % (frag, dest)


def cells(row):
    """The number of cells of a table row (pipes in code spans or escaped
    do not divide)."""
    row = blank_code(row.replace('\\|', '  ')).strip()
    if row.startswith('|'):
        row = row[1:]
    if row.endswith('|'):
        row = row[:-1]
    return len(row.split('|'))


def tables(rel):
    """(line, header cells, delimiter cells) of each table whose header
    and delimiter rows differ."""
    with open(os.path.join(top, rel), encoding='utf-8') as f:
        lines = prose_lines(f.read())
    for (n0, head), (n, line) in zip(lines, lines[1:]):
        if n == n0 + 1 and '|' in line and '|' in head and DELIMITER.match(line):
            if cells(head) != cells(line):
                yield n0, cells(head), cells(line)


def main():
    files = markdown_files()
    total = broken = 0
    for rel in files:
        for n, target in links(rel):
            if SCHEME.match(target.strip('<>')):
                continue
            total += 1
            why = check(rel, target)
            if why:
                broken += 1
                print('%s:%d: %s: %s' % (rel, n, target, why))
        for n, h, d in tables(rel):
            broken += 1
            print('%s:%d: a table with %d header cells and %d in its delimiter row does not render'
                  % (rel, n, h, d))
    print('links: %d relative links in %d Markdown files; %d links or tables do not resolve or render'
          % (total, len(files), broken))
    return 1 if broken else 0


sys.exit(main())
