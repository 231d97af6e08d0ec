# The stack depot's statistics on the 7.3 line.

f=/sys/kernel/debug/stackdepot/stats
if [ ! -r $f ]; then
	skip "stackdepot/stats" "no stack depot statistics (no user enabled the depot)"
else
	for k in pools refcounted_allocations refcounted_frees refcounted_in_use \
		 freelist_size persistent_count persistent_bytes; do
		check "stackdepot/stats has $k" grep -q "^$k: [0-9]" $f
	done
	echo "    # $(tr '\n' ' ' <$f)"
	# The tag-based KASAN modes keep references in their stack ring and
	# drop them as entries are overwritten (page_owner's records are
	# persistent ones that it counts in).
	in_use=$(sed -n 's/^refcounted_in_use: //p' $f)
	if ! dmesg | grep -q 'KernelAddressSanitizer initialized (.*tags'; then
		skip "refcounted records sized to their trace" "no KASAN tag mode: no refcounted records"
	else
		check "refcounted records in use ($in_use)" test "$in_use" -gt 0
		# Refcounted records are sized to their trace: on average well
		# below a whole slot of CONFIG_STACKDEPOT_MAX_FRAMES (64: 544
		# bytes).
		bytes=$(sed -n 's/^refcounted_bytes: //p' $f)
		check "refcounted records take $bytes bytes, below 400 each on average" \
			test "${bytes:-0}" -gt 0 -a "${bytes:-0}" -lt $((in_use * 400))
	fi
fi
if cmdline_has stack_depot_max_size=16Q; then
	check "stack_depot_max_size=16Q refused" sh -c 'dmesg | grep -q "stack_depot_max_size=16Q is not a size"'
fi
