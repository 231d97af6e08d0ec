# Allocation profiling of hugetlb's gigantic (1 GiB) pages: a range that
# alloc_contig_pages() charged page by page becomes one allocation of its
# head when hugetlb makes it a gigantic page, is divided again when hugetlb
# demotes it into 2 MiB pages or frees it page by page; pages reserved at
# boot (hugepages=) are untracked, so freeing them must not warn under
# CONFIG_MEM_ALLOC_PROFILING_DEBUG (any warning fails the boot).
#
# make check boots the x86_64 kernel once more for this (lib.sh,
# guest_extra_boots: hugetlb): 7 GiB (4 above 4 GiB: the CMA area takes the first, boot allocations the last), a CPU with 1 GiB pages, and
# hugepagesz=1G hugepages=2.  Elsewhere it skips.

AL=/proc/allocations
G=/sys/kernel/mm/hugepages/hugepages-1048576kB
M=/sys/kernel/mm/hugepages/hugepages-2048kB
# The call site of hugetlb's runtime gigantic allocations.
GSITE=" func:__alloc_gigantic_page"

# gsite: "SIZE CALLS" of the gigantic allocation site ("0B 0" if none).
gsite() {
	awk -v f="$GSITE" 'index($0, f) && substr($0, length($0) - length(f) + 1) == f {
			print $1, $2; n++ }
		END { if (!n) print "0B", 0 }' $AL
}

# set_pages DIR N: ask for N pages of DIR's size; prints how many there are.
set_pages() {
	echo "$2" >"$1/nr_hugepages" 2>/dev/null
	cat "$1/nr_hugepages"
}

hugetlb_tests() {
	boot=$(cat $G/nr_hugepages)
	expect_eq "hugepages=2 reserved two 1 GiB pages at boot" "$boot" 2
	expect_eq "no 2 MiB page to begin with" "$(cat $M/nr_hugepages)" 0

	# A boot page demoted, its 2 MiB pages freed to the page allocator.
	echo 1 >$G/demote
	expect_eq "a boot page demoted: one 1 GiB page left" "$(cat $G/nr_hugepages)" 1
	expect_eq "a boot page demoted: 512 pages of 2 MiB" "$(cat $M/nr_hugepages)" 512
	expect_eq "the 2 MiB pages of a boot page freed" "$(set_pages $M 0)" 0
	# The other one freed as it is, page by page.
	expect_eq "the other boot page freed" "$(set_pages $G 0)" 0

	before=$(gsite)
	n=$(set_pages $G 1)
	if [ "$n" != 1 ]; then
		skip "gigantic pages allocated at run time" "alloc_contig_pages() found no free 1 GiB range"
		return
	fi
	read -r size calls <<EOF
$(gsite)
EOF
	read -r size0 calls0 <<EOF
$before
EOF
	expect_eq "a 1 GiB page allocated: one more call at its site (was $before)" "$calls" $((calls0 + 1))
	expect_eq "a 1 GiB page allocated: its site holds 1.00GiB (was $before)" "$size" 1.00GiB
	echo 1 >$G/demote
	expect_eq "demoted into 512 pages of 2 MiB" "$(cat $M/nr_hugepages)" 512
	expect_eq "demoted: the site counts 512 calls, 1.00GiB" "$(gsite)" "1.00GiB $((calls0 + 512))"
	expect_eq "the 512 pages freed" "$(set_pages $M 0)" 0
	expect_eq "the 512 pages freed: the site is back to $before" "$(gsite)" "$before"

	# Allocated and freed as a 1 GiB page (page by page, to the end).
	if [ "$(set_pages $G 1)" = 1 ]; then
		expect_eq "allocated again: 1.00GiB in one call" "$(gsite)" "1.00GiB $((calls0 + 1))"
		expect_eq "freed as a 1 GiB page" "$(set_pages $G 0)" 0
		expect_eq "freed as a 1 GiB page: the site is back to $before" "$(gsite)" "$before"
		# The file hides a line with no call left: bytes that the
		# free left behind show in the next allocation's line.
		if [ "$(set_pages $G 1)" = 1 ]; then
			expect_eq "allocated a third time: 1.00GiB in one call, nothing left over" \
				"$(gsite)" "1.00GiB $((calls0 + 1))"
			set_pages $G 0 >/dev/null
		fi
	else
		skip "a 1 GiB page freed as it is" "alloc_contig_pages() found no free 1 GiB range the second time"
	fi
}

if [ ! -e $AL ]; then
	skip "hugetlb gigantic pages" "kernel built without CONFIG_MEM_ALLOC_PROFILING"
elif [ ! -d $G ]; then
	skip "hugetlb gigantic pages" "no 1 GiB hugetlb pages (CONFIG_HUGETLBFS, a CPU with pdpe1gb)"
elif ! cmdline_has hugepages=2; then
	skip "hugetlb gigantic pages" "booted without hugepagesz=1G hugepages=2"
else
	hugetlb_tests
fi
