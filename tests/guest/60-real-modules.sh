# Real modules of the kernel's own build (the distro-like guest of make
# check-wide puts them in /lib/modules/real): each loads with its tags
# given counters, shows up in /proc/allocations while it holds memory,
# and unloads with nothing left charged to it and no warning (the console
# judge fails the run on any).  Modules that depend on others load in
# passes, until a pass loads nothing more.  KUnit suites built as
# modules run when they load: their results are on the console.

REAL=/lib/modules/real
AL=/proc/allocations

# module_lines NAME: the lines of /proc/allocations charged to module NAME.
module_lines() {
	grep -c " module:$1 " $AL
}

if [ ! -d $REAL ]; then
	skip "real modules" "no modules of the kernel's build in this guest"
else
	# Drivers for hardware the guest lacks refuse with ENODEV (efivarfs
	# without EFI, x86_pkg_temp_thermal without the CPU feature): skipped.
	loaded= nodev=
	pending=$(ls $REAL)
	while [ -n "$pending" ]; do
		left=''
		progress=''
		for ko in $pending; do
			if insmod "$REAL/$ko" 2>/tmp/insmod.err; then
				loaded="${ko%.ko} $loaded"
				progress=1
			elif grep -q 'No such device' /tmp/insmod.err; then
				nodev="$nodev ${ko%.ko}"
			else
				left="$left $ko"
			fi
		done
		pending=$left
		[ -n "$progress" ] || break
	done
	n=$(echo "$loaded" | wc -w)
	echo "# loaded: $loaded; no device:${nodev:- none}"
	check "a dozen real modules or more load ($n; failed:${pending:- none})" \
		test "$n" -ge 12 -a -z "$pending"
	if [ -r $AL ]; then
		cat $AL >/tmp/al-real.txt
		check "/proc/allocations is well formed with them loaded" \
			sh -c "[ -s /tmp/al-real.txt ] && ! grep -v '^#' /tmp/al-real.txt | grep -vqE '^ *[0-9.]+[KMGTP]?i?B +[0-9]+ [^ ]+:[0-9]+ (module:[^ ]+ (state:unloaded )?)?func:[^ ]+\$'"
		with=0
		for m in $loaded; do
			m=$(echo $m | tr - _)
			[ "$(module_lines $m)" -gt 0 ] && with=$((with + 1))
		done
		check "modules holding memory have their lines ($with of $n)" test "$with" -ge 3
	fi
	# Unload in the reverse order of loading.
	bad=
	for m in $loaded; do
		rmmod $m || bad="$bad $m"
	done
	check "every real module unloads (failed:${bad:- none})" test -z "$bad"
	if [ -r $AL ]; then
		left=0
		for m in $loaded; do
			m=$(echo $m | tr - _)
			left=$((left + $(module_lines $m)))
		done
		expect_eq "no line left for the unloaded modules" "$left" 0
		kept=
		for m in $loaded; do
			m=$(echo "$m" | tr - _)
			dmesg | grep -q "alloc_tag: $m: unloaded with" && kept="$kept $m"
		done
		check "no real module was kept for live allocations (kept:${kept:- none})" \
			test -z "$kept"
	fi
fi
