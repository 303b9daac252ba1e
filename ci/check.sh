# ci/check.sh: the assertion of the multi-server and upgrade tests
# (sourced).  It prints the one pass/fail vocabulary of every test script
# here (ci/suite.sh, ci/matrix.sh, ci/run-one.sh count these lines):
# "ok   TEXT" for a check that holds, "FAIL TEXT" for one that does not,
# "skip TEXT" for one not run (not counted).

# check DESCRIPTION CONDITION: evaluate the shell condition; print
# "ok   DESCRIPTION" when it holds, else "FAIL DESCRIPTION" and exit 1
check()
{
	if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; exit 1; fi
}
