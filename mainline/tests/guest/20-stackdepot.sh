# The stack depot's statistics on the 7.3 line.

f=/sys/kernel/debug/stackdepot/stats
if [ ! -r $f ]; then
	skip "stackdepot/stats" "no stack depot statistics (no user enabled the depot)"
else
	for k in pools refcounted_allocations refcounted_frees refcounted_in_use \
		 freelist_size persistent_count persistent_bytes; do
		check "stackdepot/stats has $k" grep -q "^$k: [0-9]" $f
	done
	# The tag-based KASAN modes keep references in their stack ring and
	# drop them as entries are overwritten; page_owner counts through
	# references too.
	in_use=$(sed -n 's/^refcounted_in_use: //p' $f)
	check "refcounted records in use ($in_use)" test "$in_use" -gt 0
fi
