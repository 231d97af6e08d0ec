# Helpers for guest tests (busybox sh).  A test file is a suite: it calls
# the functions below, each of which prints one KTAP result line, and the
# suite fails when any case failed.
T_N=0
T_FAILED=0

_t_line() {
	T_N=$((T_N + 1))
	echo "    $1 $T_N $2"
}

# pass DESC / fail DESC [DETAIL...] / skip DESC REASON
pass() {
	_t_line ok "$1"
}

fail() {
	T_FAILED=$((T_FAILED + 1))
	_t_line "not ok" "$1"
	shift
	for d in "$@"; do echo "    # $d"; done
}

skip() {
	_t_line ok "$1 # SKIP $2"
}

# check DESC CMD...: the case passes when CMD exits 0; its output is shown
# as diagnostics when it fails.
check() {
	_desc=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		pass "$_desc"
	else
		T_FAILED=$((T_FAILED + 1))
		_t_line "not ok" "$_desc"
		echo "    # command: $*"
		sed 's/^/    # /' /tmp/check.out | head -n 20
	fi
}

# expect_eq DESC GOT WANT
expect_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "got '$2', want '$3'"
	fi
}

# cmdline_has WORD: true when the kernel command line holds WORD (e.g.
# page_owner=on); tests use it to skip what the boot did not enable.
cmdline_has() {
	case " $(cat /proc/cmdline) " in *" $1 "*) return 0 ;; esac
	return 1
}

t_end() {
	echo "    1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}
