# Mainline's memory allocation profiling, when the kernel is built with it
# (with CONFIG_MEM_ALLOC_PROFILING_DEBUG the guest's boot and this test
# warn, and so fail, on a page or object charged over a tag that was never
# cleared): the pages' tags are where the command line put them, and
# /proc/allocinfo counts the pages of a tmpfs file and drops them again
# when it is removed.

f=/proc/allocinfo
if [ ! -r $f ]; then
	skip "allocation profiling" "kernel built without CONFIG_MEM_ALLOC_PROFILING"
else
	want=0
	case " $(cat /proc/cmdline) " in *" sysctl.vm.mem_profiling=1,compressed "*) want=1 ;; esac
	expect_eq "the pages' tags are in the page flags as booted ($want)" \
		"$(cat /proc/sys/vm/mem_profiling_compressed)" "$want"
	expect_eq "allocinfo is version 2.0" "$(head -n 1 $f)" "allocinfo - version: 2.0"
	total() { awk '!/^(allocinfo|#)/ { s += $1 } END { printf "%d\n", s / 1024 }' $f; }
	# A 4 MiB tmpfs file: its pages are charged while it exists and
	# uncharged when it is removed (other tasks allocate and free
	# meanwhile, hence the 1 MiB of slack).
	before=$(total)
	dd if=/dev/zero of=/tmp/ballast bs=64k count=64 2>/dev/null
	during=$(total)
	rm -f /tmp/ballast
	after=$(total)
	check "a 4 MiB tmpfs file is counted (KiB $before -> $during)" test "$during" -ge $((before + 3072))
	check "and uncharged when removed (KiB $during -> $after)" test "$after" -le $((during - 3072))
fi
