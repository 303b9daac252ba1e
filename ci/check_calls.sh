#!/bin/sh
# ci/check_calls.sh OBJ...: which C file calls which, read from the
# built objects with nm, as a reader would check the structure: a file
# "calls" another when it uses a function or variable that the other
# defines.  Prints one line per calling file, "xid_prune -> xid_clause
# (6) xid_time (3)" (the number of the other's symbols it uses), then
# every pair of files that reach each other, directly or through others
# (a cycle), and exits 1 if there is one.  Run by "make check-calls".
set -eu
[ $# -gt 0 ] || { echo "usage: $0 OBJ..." >&2; exit 2; }
for o in "$@"; do
	f=$(basename "$o" .o)
	nm "$o" | awk -v f="$f" '
		$1 == "U" { print "U", f, $2; next }
		NF == 3 && $2 ~ /^[BCDGRSTVW]$/ { print "D", f, $3 }'
done | awk '
	$1 == "D" { def[$3] = $2; file[$2] = 1; next }
	{ file[$2] = 1; use[++n] = $2 " " $3 }
	END {
		for (i = 1; i <= n; i++) {
			split(use[i], u, " ")
			if (!(u[2] in def) || def[u[2]] == u[1] || (u[1] SUBSEP u[2]) in seen)
				continue
			seen[u[1], u[2]] = 1
			calls[u[1], def[u[2]]]++
			reach[u[1], def[u[2]]] = 1
		}
		m = 0
		for (a in file)
			name[++m] = a
		# sorted names, for stable output
		for (i = 1; i <= m; i++)
			for (j = i + 1; j <= m; j++)
				if (name[j] < name[i]) { t = name[i]; name[i] = name[j]; name[j] = t }
		edges = 0
		for (i = 1; i <= m; i++) {
			line = ""
			for (j = 1; j <= m; j++)
				if ((name[i], name[j]) in calls) {
					line = line " " name[j] " (" calls[name[i], name[j]] ")"
					edges++
				}
			if (line != "")
				print name[i] " ->" line
		}
		# transitive closure (Floyd-Warshall; a few dozen files)
		for (k = 1; k <= m; k++)
			for (i = 1; i <= m; i++)
				if ((name[i], name[k]) in reach)
					for (j = 1; j <= m; j++)
						if ((name[k], name[j]) in reach)
							reach[name[i], name[j]] = 1
		cycles = 0
		for (i = 1; i <= m; i++)
			for (j = i + 1; j <= m; j++)
				if ((name[i], name[j]) in reach && (name[j], name[i]) in reach) {
					how = "reach each other through others"
					if ((name[i], name[j]) in calls && (name[j], name[i]) in calls)
						how = "call each other"
					print "cycle: " name[i] " and " name[j] " " how
					cycles++
				}
		if (cycles > 0) {
			print cycles " pair(s) of C files in a cycle"
			exit 1
		}
		print m " C files, " edges " calling pairs, no cycle"
	}'
