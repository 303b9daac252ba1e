# test/check.sh: the assertion of the multi-server and upgrade tests
# (sourced).

# check DESCRIPTION CONDITION: evaluate the shell condition; print
# "ok: DESCRIPTION" when it holds, else "FAILED: DESCRIPTION" and exit 1
check()
{
	if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; exit 1; fi
}
