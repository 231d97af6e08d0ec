# Deferred user-space unwinding (x86_64): the user program unwind_chain
# (tests/tools, built with frame pointers) makes system calls into the test
# module unwind_test from a chain of five functions; the user stacks the
# callbacks get must resolve, against the program's symbol table, to those
# five functions in order.  Then: cookies per kernel entry, a task killed
# and a work cancelled with requests pending, a 400-frame stack under a
# request on every timer tick, and user stacks in allocations.ctx (a system
# call's and an execve's).  Splats fail the boot (the runner judges the
# console).

STATS=/sys/kernel/debug/unwind_deferred
T=/sys/kernel/debug/unwind_test
CTX=/sys/kernel/debug/allocations.ctx
AL=/proc/allocations
SYMS=/tests/unwind_chain.syms

if [ ! -e $STATS ]; then
	skip "deferred unwinding" "no $STATS (CONFIG_UNWIND_DEFERRED off)"
	return 0 2>/dev/null || exit 0
fi
if [ ! -x /bin/unwind_chain ] || [ ! -f $SYMS ] || [ ! -f /lib/modules/unwind_test.ko ]; then
	skip "deferred unwinding" "no unwind_chain, its symbols or unwind_test.ko"
	return 0 2>/dev/null || exit 0
fi

# ustat NAME: a counter of $STATS.
ustat() {
	awk -v k="$1:" '$1 == k { print $2 }' $STATS
}

# resolve: the function each address on stdin (0x...) is in, one per line.
. /tests/resolve-user.sh
resolve() {
	resolve_user $SYMS
}

# chain_of LINE: the first six functions of a results callback line.
chain_of() {
	echo "$1" | sed 's/.* stack //' | tr ' ' '\n' | head -6 | resolve | tr '\n' ' '
}

CHAIN="chain_five chain_four chain_three chain_two chain_one main "

check "load unwind_test" insmod /lib/modules/unwind_test.ko
held0=$(ustat traces_held)
req0=$(ustat requests) reused0=$(ustat requests_reusing_cookie) unw0=$(ustat unwinds)

# --- N requests in one system call: one unwind, N equal cookies ------------
echo reset > $T/results
/bin/unwind_chain request 5
cat $T/results > /tmp/uw.txt
req=$(grep '^request ' /tmp/uw.txt)
cb=$(grep '^callback ' /tmp/uw.txt)
check "5 requests in one entry: one request line, all succeeded, equal cookies" \
	sh -c "[ \$(grep -c '^request ' /tmp/uw.txt) = 1 ] && grep -q '^request n=5 ret=0 cookie=0x[0-9a-f]* equal=1 ' /tmp/uw.txt"
expect_eq "one callback for the entry" "$(grep -c '^callback ' /tmp/uw.txt)" 1
cookie=$(echo "$req" | sed 's/.* cookie=\([0-9a-fx]*\) .*/\1/')
expect_eq "the callback has the requests' cookie" \
	"$(echo "$cb" | sed 's/^callback cookie=\([0-9a-fx]*\) .*/\1/')" "$cookie"
expect_eq "the user stack resolves to the chain, innermost first" "$(chain_of "$cb")" "$CHAIN"
check "statistics count the requests and the reuse" \
	sh -c "[ $(ustat requests) -ge $((req0 + 5)) ] && [ $(ustat requests_reusing_cookie) -ge $((reused0 + 4)) ] && [ $(ustat unwinds) -ge $((unw0 + 1)) ]"

# --- Two system calls: two cookies, two unwinds ----------------------------
echo reset > $T/results
/bin/unwind_chain twice
cat $T/results > /tmp/uw.txt
expect_eq "two entries: two callbacks" "$(grep -c '^callback ' /tmp/uw.txt)" 2
expect_eq "two entries: two different cookies" \
	"$(grep '^callback ' /tmp/uw.txt | sed 's/^callback cookie=\([0-9a-fx]*\) .*/\1/' | sort -u | wc -l)" 2
expect_eq "the second stack resolves too" \
	"$(chain_of "$(grep '^callback ' /tmp/uw.txt | tail -1)")" "$CHAIN"

# --- A request after the callback, in the same entry: same cookie, no -----
# --- second walk, no second callback ------------------------------------------
echo reset > $T/results
unw=$(ustat unwinds)
/bin/unwind_chain again
cat $T/results > /tmp/uw.txt
expect_eq "requested again from the callback: it returns 1, and one callback" \
	"$(grep -c '^request n=1 ret=0 ' /tmp/uw.txt) $(grep -c '^request n=1 ret=1 ' /tmp/uw.txt) $(grep -c '^callback ' /tmp/uw.txt)" "1 1 1"
expect_eq "all three have the entry's cookie" \
	"$(sed -n 's/^[a-z]* cookie=\([0-9a-fx]*\) .*/\1/p; s/^request n=1 ret=[01] cookie=\([0-9a-fx]*\) .*/\1/p' /tmp/uw.txt | sort -u | wc -l)" 1
check "unwind_deferred_entry_stack() is the stack the callback got" \
	grep -q '^request n=1 ret=1 cookie=0x[0-9a-f]* equal=1 ' /tmp/uw.txt
# Nothing else requests unwinds in this guest (no capture is on).
expect_eq "and the stack was walked once" "$(ustat unwinds)" "$((unw + 1))"

# --- The first request from an NMI ---------------------------------------------
# The NMI's request queues the task work through irq_work; the task's own
# requests of the same entry then share its cookie.
echo reset > $T/results
/bin/unwind_chain nmi 3
cat $T/results > /tmp/uw.txt
if grep -q ' nmi=-1$' /tmp/uw.txt; then
	skip "a request from an NMI" "the NMI sent to this CPU did not arrive"
else
	nmi=$(sed -n 's/^request n=1 ret=0 cookie=\([0-9a-fx]*\) .* nmi=1$/\1/p' /tmp/uw.txt)
	check "an NMI's request succeeded" [ -n "$nmi" ]
	expect_eq "the task's 3 requests of the same entry share its cookie" \
		"$(sed -n 's/^request n=3 ret=0 cookie=\([0-9a-fx]*\) equal=1 .*/\1/p' /tmp/uw.txt)" "$nmi"
	cb=$(grep "^callback cookie=$nmi " /tmp/uw.txt)
	expect_eq "one callback, with that cookie and the user stack" \
		"$(grep -c '^callback ' /tmp/uw.txt) $(chain_of "$cb")" "1 $CHAIN"
fi

# --- Killed with requests pending -------------------------------------------
# The fatal signal is taken on the way out, and get_signal() runs the task
# works first: the callback still gets the stack, before the exit.
echo reset > $T/results
/bin/unwind_chain kill 3
rc=$?
expect_eq "the program was killed (SIGKILL)" "$rc" 137
cat $T/results > /tmp/uw.txt
cookie=$(sed -n 's/^request n=3 ret=0 cookie=\([0-9a-fx]*\) .*/\1/p' /tmp/uw.txt)
cb=$(grep "^callback cookie=$cookie " /tmp/uw.txt)
expect_eq "killed: its callback came with its cookie and its user stack" "$(chain_of "$cb")" "$CHAIN"

# --- Cancelled with requests pending: no callback ---------------------------
echo reset > $T/results
/bin/unwind_chain cancel 3
check "no callback after cancel" grep -q '^cancelled-callbacks=0$' $T/results

# --- Forward progress: 400 frames, a request on every tick -----------------
# Walks are counted by the global statistics: nothing but unwind_test
# requests unwinds in this guest while the program runs (no capture is on).
tr0=$(ustat unwinds_truncated) unw=$(ustat unwinds)
if timeout 60 /bin/unwind_chain deep 400 1500 > /tmp/uw-deep.txt; then
	pass "the 400-frame program finishes under a request per tick"
else
	fail "the 400-frame program finishes under a request per tick" "$(cat /tmp/uw-deep.txt)"
fi
walks=$(($(ustat unwinds) - unw))
syscalls=$(sed -n 's/^syscalls=//p' /tmp/uw-deep.txt)
set -- $(sed 's/[a-z]*=//g' $T/timer)
fired=$1 requested=$2 callbacks=$3 cookies=$4 zero=$5
echo "    # timer: fired=$fired requested=$requested callbacks=$callbacks cookies=$cookies zero=$zero walks=$walks syscalls=$syscalls"
check "the timer requested unwinds of the program" [ "${requested:-0}" -gt 10 ]
check "callbacks came for the requests, no more than requested" \
	sh -c "[ ${callbacks:-0} -gt 0 ] && [ ${callbacks:-0} -le ${requested:-0} ]"
expect_eq "every callback has a cookie" "${zero:-x}" 0
check "cookies (entries served) <= kernel entries (timer ticks + system calls)" \
	[ "${cookies:-0}" -le $((fired + ${syscalls:-0} + 2)) ]
check "at most one walk per entry: walks <= cookies" [ "$walks" -le "${cookies:-0}" ]
expect_eq "at most one callback per entry: every callback a new cookie" "${callbacks:-x}" "${cookies:-y}"
check "the 400-frame stacks were truncated at the walk's bound" [ "$(ustat unwinds_truncated)" -gt "$tr0" ]

# --- User stacks in allocations.ctx -------------------------------------------
# ctx_user_chain: the chain of the first user stack in the listing on stdin
# under a context of comm unwind_chain.
ctx_user_chain() {
	awk '/^    comm: / { mine = ($2 == "unwind_chain") } mine && /^    user stack: cookie 0x[0-9a-f]*$/ { on = 1; next }
		on && /^         0x/ { print $1; if (++n == 6) exit; next } on { exit }' | resolve | tr '\n' ' '
}
if [ -e $CTX ]; then
	# A first tmpfs page makes the site appear in /proc/allocations.
	dd if=/dev/zero of=/tmp/uw-warm bs=4096 count=1 2>/dev/null
	set -- $(awk '$NF == "func:shmem_alloc_folio" { split($3, a, ":"); print a[1], a[2]; exit }' $AL)
	if [ -n "$1" ] && echo "file $1 line $2 enable" > $CTX; then
		mkdir -p /tmp/uw
		/bin/unwind_chain tmpfs /tmp/uw/page
		cat $CTX > /tmp/uw-ctx.txt
		expect_eq "a tmpfs page written by unwind_chain: its context's user stack is the chain" \
			"$(ctx_user_chain < /tmp/uw-ctx.txt)" "$CHAIN"
		rm -f /tmp/uw/page /tmp/uw-warm
		# 600 pages in one write(): the entry's 600 contexts wait as
		# one group, which the callback serves in three sections.
		# Each gets the entry's stack; none is left waiting.
		check "600 tmpfs pages in one write()" /bin/unwind_chain tmpfs-big /tmp/uw/big
		cat $CTX > /tmp/uw-ctx.txt
		awk '/^    comm: / { mine = ($2 == "unwind_chain") }
			mine && /^    user stack: cookie / { print $4, ($5 == "" ? "taken" : $5 $6) }' \
			/tmp/uw-ctx.txt | sort | uniq -c | sort -rn >/tmp/uw-cookies.txt
		sed 's/^/    # /' /tmp/uw-cookies.txt
		read -r n _ state </tmp/uw-cookies.txt
		check "the write's contexts all have its user stack (${n:-0} of 600, ${state:-none})" \
			sh -c "[ ${n:-0} -ge 600 ] && [ '$state' = taken ] && [ \$(wc -l </tmp/uw-cookies.txt) = 1 ]"
		expect_eq "a context of the 600 has the chain as its user stack" \
			"$(ctx_user_chain < /tmp/uw-ctx.txt)" "$CHAIN"
		rm -f /tmp/uw/big
		echo "file $1 line $2 disable" > $CTX
	else
		fail "capture at the tmpfs folio site" "$(grep shmem $AL | head -3)"
	fi
	# execve: the new mm's context is made in the old image's system
	# call; its user stack is the old image's chain.
	if echo "func mm_alloc enable" > $CTX; then
		/bin/unwind_chain exec > /tmp/uw-exec.txt
		expect_eq "a context made by execve has the old image's user stack" \
			"$(ctx_user_chain < /tmp/uw-exec.txt)" "$CHAIN"
		echo "func mm_alloc disable" > $CTX
	else
		fail "capture at mm_alloc" "$(grep 'func:mm_alloc' $AL)"
	fi
else
	skip "user stacks in allocations.ctx" "no $CTX"
fi

check "unload unwind_test" rmmod unwind_test
expect_eq "every stack the tasks held is released" "$(ustat traces_held)" "$held0"
